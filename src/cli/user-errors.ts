/**
 * Which errors are the user's (a bad shader, manifest, config, scene or dump) and how the CLI
 * reports them: one clear message and a non-zero exit, never a stack trace. Anything else is an
 * internal error: reported as such, with the stack only when VVISION_DEBUG is set.
 */
import { OutputDirError } from './output-dir.js';
import { LaunchLimitError } from '../sim/workload/launch-limits.js';

type ErrorClass = abstract new (...args: never[]) => Error;

const isAny = (e: unknown, classes: ErrorClass[]): boolean => classes.some((c) => e instanceof c);

/**
 * The error classes the CLI reports, imported when an error is reported (issue 25): importing
 * their modules at start would load the compiler, simulator and job runners into every command.
 */
async function errorClasses(): Promise<{ exit2: ErrorClass[]; user: ErrorClass[]; deferred: ErrorClass }> {
  const [
    compileWorkload, dumpReader, siteTable, rtPipeline, runDir, instrumentModule, bufferGlobal, metadataReader, configError,
    simErrors, rtRuntime, accelerationStructure, loadGltf, loadObj, proceduralScenes, traversal, watchdog, manifest,
    localBackend, slurmBackend, downscale, pixelFilter, packLayout, utilityError, valuePayload, analyseDumps, writeSpirv,
    emitSpirv, spirvWords, nativeHost, deviceBundle, launchLimits,
  ] = await Promise.all([
    import('../driver/compile-workload.js'), import('../analytics/dump-reader.js'), import('../analytics/site-table.js'),
    import('../passes/lower/rt-pipeline.js'), import('../driver/run-dir.js'), import('../passes/instrument/instrument-module.js'),
    import('../primitives/instrumentation-buffer-global.js'), import('../analytics/metadata-reader.js'), import('../sim/config/config-error.js'),
    import('../sim/functional/errors.js'), import('../sim/pipeline/rt-runtime.js'), import('../sim/rt/acceleration-structure.js'),
    import('../sim/rt/load-gltf.js'), import('../sim/rt/load-obj.js'), import('../sim/rt/procedural-scenes.js'),
    import('../sim/rt/traversal.js'), import('../sim/timing/watchdog.js'), import('../sim/workload/manifest.js'),
    import('../driver/jobs/local-backend.js'), import('../driver/jobs/slurm-backend.js'), import('../driver/zatel/downscale.js'),
    import('../passes/zatel/pixel-filter.js'), import('../sim/workload/pack-layout.js'), import('../utilities/utility-error.js'),
    import('../passes/instrument/value-payload.js'), import('../driver/analyse-dumps.js'), import('../backend/spirv/write-spirv.js'),
    import('../driver/emit-spirv.js'), import('../frontend/spirv/spirv-words.js'), import('../device/native-host.js'),
    import('../device/device-bundle.js'), import('../sim/workload/launch-limits.js'),
  ]);
  const exit2 = [compileWorkload.ShaderCompileError, utilityError.UtilityTypeError];
  return {
    exit2,
    user: [
      ...exit2, manifest.ManifestError, packLayout.LayoutPackError, configError.ConfigError, simErrors.SimError, rtRuntime.RtRuntimeError,
      rtPipeline.PipelineLinkError, loadObj.ObjParseError, loadGltf.GltfLoadError, proceduralScenes.ProceduralSceneError,
      accelerationStructure.AccelerationStructureError, traversal.TraversalError, instrumentModule.UnknownInstrumentationModeError,
      dumpReader.InstrumentationBufferTooSmallError, dumpReader.DumpFormatError, siteTable.AnalysisInputError, CliUsageError,
      runDir.RunDirError, instrumentModule.AlreadyInstrumentedError, bufferGlobal.ReservedBindingError, metadataReader.MetadataFormatError,
      watchdog.TimingDeadlockError, localBackend.JobFailedError, slurmBackend.SlurmError, downscale.ZatelOptionError,
      pixelFilter.PixelFilterBindingError, utilityError.UtilityError, valuePayload.ProbeValueError, analyseDumps.UnknownUtilityError,
      nativeHost.DeviceUnavailableError, nativeHost.DeviceRunError, deviceBundle.DeviceBundleError, writeSpirv.SpirvWriteError,
      emitSpirv.SpirvBindingError, spirvWords.SpirvReadError, OutputDirError, launchLimits.LaunchLimitError,
    ],
    deferred: slurmBackend.JobsDeferred,
  };
}

/** A bad command-line value (file missing, option out of range). */
export class CliUsageError extends Error {}

/** Reports `e` on stderr; returns the exit status: 2 for shader compile and utility type errors (as glslangValidator), else 1. */
export async function reportError(e: unknown): Promise<number> {
  if (e instanceof CliUsageError || e instanceof OutputDirError) {
    process.stderr.write(`vvision: error: ${e.message}\n`);
    return 1;
  }
  const classes = await errorClasses();
  if (e instanceof classes.deferred) {
    // `--backend slurm --no-submit`: the script is the output; not an error.
    process.stdout.write(`${e.message}\n`);
    return 0;
  }
  if (isAny(e, classes.exit2)) {
    process.stderr.write(`${(e as Error).message}\n`);
  } else if (isAny(e, classes.user)) {
    process.stderr.write(`vvision: error: ${(e as Error).message}\n`);
  } else {
    const err = e instanceof Error ? e : new Error(String(e));
    process.stderr.write(`vvision: internal error: ${err.message}\n`);
    if (process.env.VVISION_DEBUG) process.stderr.write(`${err.stack ?? ''}\n`);
    else process.stderr.write('(set VVISION_DEBUG=1 for the stack trace, and please report it)\n');
  }
  return isAny(e, classes.exit2) ? 2 : 1;
}
