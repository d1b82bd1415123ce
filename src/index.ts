/**
 * vvision's stable library surface: `import { ... } from 'vvision'`. Everything exported here is
 * documented in docs/api.md and kept compatible; every other module of the package is internal
 * (the package `exports` map allows this entry point only).
 *
 * @packageDocumentation
 */

// ----- the four stages -----
export {
  analyse, compileWorkload, imagePng, instrument, simulate,
  type Analysis, type CompiledWorkload, type DumpInput, type InstrumentedWorkload, type Simulation, type SimulateOptions, type UtilityRef,
} from './api/pipeline.js';
/** The CLI's multi-run studies, with typed configuration knobs. */
export { knobOverrides, sweep, zatel, type StudyRunOptions, type SweepOptions, type ZatelOptions } from './api/studies.js';
export type { ConfigKnobs } from './sim/config/config-knobs.js';
export type { SweepResult } from './driver/sweep/run-sweep.js';
export type { ZatelResult } from './driver/zatel/run-zatel.js';
export type { TimelineOptions, TimelineRecorder } from './sim/timing/index.js';
/** The CLI's `vvision instrument` flow and its run directory. */
export {
  DeviceRunError, DeviceUnavailableError, listDevices, runOnDevice, type DeviceDump, type DeviceInfo, type DeviceOptions, type DeviceRun,
} from './api/device.js';
export { profileWorkload, readRunDirectory, writeRunDirectory, type InstrumentOptions, type InstrumentResult } from './api/run-directory.js';
export type { RunData, UtilityResolver } from './driver/run-dir.js';

// ----- utilities: the interface, the built-ins, loading user files -----
export { defineUtility, type Utility, type UtilityAnalysis, type UtilityInput } from './utilities/utility.js';
export { BUILTIN_UTILITIES, divergenceUtility, itsUtility, pathsUtility, simtUtility, traceUtility } from './utilities/builtin.js';
export { UtilityError, UtilityTypeError } from './utilities/utility-error.js';
export type {
  InstructionSite, InstrumentedShader, OriginalReturn, Placement, Probe, ProbeContext, ProbePoint, ProbeRecord, ProbeValue, ProgramPoint,
} from './passes/instrument/probe-context.js';
export { ProbeValueError } from './passes/instrument/value-payload.js';

// ----- the dump + metadata contract and reading it -----
export {
  DEFAULT_BUFFER_WORDS, ENTRY_HEADER_WORDS, FIRST_ENTRY_WORD, INSTRUMENTATION_MODES, WARP_SIZE,
  type InstrumentationMetadata, type InstrumentationMode, type PayloadType, type PrimitiveKind, type ShaderMetadata, type ShaderStage,
  type SiteKind, type SiteMetadata, type SourceLocation,
} from './primitives/buffer-layout.js';
export {
  DumpFormatError, InstrumentationBufferTooSmallError, readDump, readSavedDump, type Dump,
} from './analytics/dump-reader.js';
export { MetadataFormatError, parseMetadata } from './analytics/metadata-reader.js';
export { decodePayloadWord, dumpEntries, launchPixel, perPixel, type DumpEntry } from './analytics/dump-entries.js';
export { gridHeatmapPng, heatmapPng, type WorkHeatmap } from './analytics/work-heatmap.js';
export { AnalysisInputError } from './analytics/site-table.js';
export { warpIdentity, type WarpIdentity } from './analytics/warp-identity.js';
export type { VVisionResults } from './analytics/vvision-data-files.js';

// ----- report material a utility returns -----
export type { ChartSpec } from './report/chart-specs.js';
export type { ReportHeadline, ReportImage, ReportSection, ReportTable } from './report/utility-page.js';

// ----- workloads and errors of earlier stages -----
export { listBuiltinWorkloads, DEFAULT_WORKLOAD } from './sim/workload/load-manifest.js';
export { ManifestError, type WorkloadManifest } from './sim/workload/manifest.js';
export { ShaderCompileError } from './driver/compile-workload.js';
export { LaunchLimitError } from './sim/workload/launch-limits.js';
export type { RunParameters } from './sim/host/build-resources.js';
export { NVIDIA_BEHAVIOUR, nvidiaTile, type LaunchMapping } from './sim/functional/warp-mapping.js';
export type { Counters } from './sim/functional/counters.js';
export type { SimImage } from './sim/functional/images.js';
export type { TimingStats } from './sim/timing/index.js';
export type { RtCounters } from './sim/pipeline/rt-runtime.js';

// ----- IR types a utility's probes refer to -----
export type { BlockId, Inst, Loc, ValueId } from './ir/inst.js';
export type { EntryPoint, Function as IrFunction, Module } from './ir/module.js';
