/**
 * Which errors are the user's (a bad shader, manifest, config, scene or dump) and how the CLI
 * reports them: one clear message and a non-zero exit, never a stack trace. Anything else is an
 * internal error: reported as such, with the stack only when VVISION_DEBUG is set.
 */
import { ShaderCompileError } from '../driver/compile-workload.js';
import { InstrumentationBufferTooSmallError, DumpFormatError } from '../analytics/dump-reader.js';
import { AnalysisInputError } from '../analytics/site-table.js';
import { PipelineLinkError } from '../passes/lower/rt-pipeline.js';
import { RunDirError } from '../driver/run-dir.js';
import { AlreadyInstrumentedError, UnknownInstrumentationModeError } from '../passes/instrument/instrument-module.js';
import { ReservedBindingError } from '../primitives/instrumentation-buffer-global.js';
import { MetadataFormatError } from '../analytics/metadata-reader.js';
import { ConfigError } from '../sim/config/config-error.js';
import { SimError } from '../sim/functional/errors.js';
import { RtRuntimeError } from '../sim/pipeline/rt-runtime.js';
import { AccelerationStructureError } from '../sim/rt/acceleration-structure.js';
import { GltfLoadError } from '../sim/rt/load-gltf.js';
import { ObjParseError } from '../sim/rt/load-obj.js';
import { ProceduralSceneError } from '../sim/rt/procedural-scenes.js';
import { TraversalError } from '../sim/rt/traversal.js';
import { TimingDeadlockError } from '../sim/timing/watchdog.js';
import { ManifestError } from '../sim/workload/manifest.js';
import { JobFailedError } from '../driver/jobs/local-backend.js';
import { JobsDeferred, SlurmError } from '../driver/jobs/slurm-backend.js';
import { ZatelOptionError } from '../driver/zatel/downscale.js';
import { PixelFilterBindingError } from '../passes/zatel/pixel-filter.js';
import { LayoutPackError } from '../sim/workload/pack-layout.js';
import { UtilityError, UtilityTypeError } from '../utilities/utility-error.js';
import { ProbeValueError } from '../passes/instrument/value-payload.js';
import { UnknownUtilityError } from '../driver/analyse-dumps.js';
import { SpirvWriteError } from '../backend/spirv/write-spirv.js';
import { SpirvBindingError } from '../driver/emit-spirv.js';
import { SpirvReadError } from '../frontend/spirv/spirv-words.js';
import { OutputDirError } from './output-dir.js';
import { LaunchLimitError } from '../sim/workload/launch-limits.js';

/** Exit status: 2 for shader compile errors (as glslangValidator) and utility type errors, 1 for every other failure. */
export function exitCodeFor(e: unknown): number {
  return e instanceof ShaderCompileError || e instanceof UtilityTypeError ? 2 : 1;
}

export function isUserError(e: unknown): e is Error {
  return (
    e instanceof ShaderCompileError || e instanceof ManifestError || e instanceof LayoutPackError || e instanceof ConfigError ||
    e instanceof SimError || e instanceof RtRuntimeError || e instanceof PipelineLinkError || e instanceof ObjParseError ||
    e instanceof GltfLoadError || e instanceof ProceduralSceneError || e instanceof AccelerationStructureError ||
    e instanceof TraversalError || e instanceof UnknownInstrumentationModeError ||
    e instanceof InstrumentationBufferTooSmallError || e instanceof DumpFormatError || e instanceof AnalysisInputError ||
    e instanceof CliUsageError || e instanceof RunDirError || e instanceof AlreadyInstrumentedError ||
    e instanceof ReservedBindingError || e instanceof MetadataFormatError || e instanceof TimingDeadlockError ||
    e instanceof JobFailedError || e instanceof SlurmError || e instanceof ZatelOptionError || e instanceof PixelFilterBindingError ||
    e instanceof UtilityError || e instanceof ProbeValueError || e instanceof UnknownUtilityError
    || e instanceof SpirvWriteError || e instanceof SpirvBindingError || e instanceof SpirvReadError || e instanceof OutputDirError
    || e instanceof LaunchLimitError
  );
}

/** A bad command-line value (file missing, option out of range). */
export class CliUsageError extends Error {}

export function reportError(e: unknown): number {
  if (e instanceof JobsDeferred) {
    // `--backend slurm --no-submit`: the script is the output; not an error.
    process.stdout.write(`${e.message}\n`);
    return 0;
  }
  if (e instanceof ShaderCompileError || e instanceof UtilityTypeError) {
    process.stderr.write(`${e.message}\n`);
  } else if (isUserError(e)) {
    process.stderr.write(`vvision: error: ${e.message}\n`);
  } else {
    const err = e instanceof Error ? e : new Error(String(e));
    process.stderr.write(`vvision: internal error: ${err.message}\n`);
    if (process.env.VVISION_DEBUG) process.stderr.write(`${err.stack ?? ''}\n`);
    else process.stderr.write('(set VVISION_DEBUG=1 for the stack trace, and please report it)\n');
  }
  return exitCodeFor(e);
}
