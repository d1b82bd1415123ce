/**
 * The library's four stages as plain async functions over plain data, for programs that use
 * vvision as a package (`import { compileWorkload, instrument, simulate, analyse } from 'vvision'`):
 *
 *   const w = await compileWorkload('pt');                 // manifest -> IR modules + scene + BVH
 *   const i = instrument(w, ['simt', myUtility]);          // a copy of the modules, probed
 *   const run = await simulate(i, { width: 64, height: 64 }); // functional (or { config } timing)
 *   const a = analyse(run);                                // each utility's analysis of the dump
 *
 * Each stage returns a new value and leaves its input unchanged, so one compiled workload serves
 * many instrumentations and runs. This file only wires src/driver; it holds no logic of its own.
 */
import { readDump, type Dump, type VVisionResults, type WorkHeatmap } from '../analytics/index.js';
import { analyseDumps } from '../driver/analyse-dumps.js';
import { cloneCompiled } from '../driver/compile-workload.js';
import { instrumentCompiled } from '../driver/instrument-compiled.js';
import { AUTO_INITIAL_BUFFER_WORDS, runTimed } from '../driver/instrument-workload.js';
import { launchOptionsOf, prepareRun, sharedPreparation, type RunOptions, type SharedPreparation } from '../driver/run-workload.js';
import type { Module } from '../ir/module.js';
import type { InstrumentationMetadata, InstrumentationMode } from '../primitives/buffer-layout.js';
import type { Counters } from '../sim/functional/counters.js';
import type { SimImage } from '../sim/functional/images.js';
import { runFunctional } from '../sim/functional/launch.js';
import type { RunParameters } from '../sim/host/build-resources.js';
import { imageToPng } from '../sim/host/image-png.js';
import type { RtCounters } from '../sim/pipeline/rt-runtime.js';
import { loadConfig, type TimingStats } from '../sim/timing/index.js';
import { DEFAULT_WORKLOAD } from '../sim/workload/load-manifest.js';
import type { WorkloadManifest } from '../sim/workload/manifest.js';
import { BUILTIN_UTILITIES } from '../utilities/builtin.js';
import type { Utility, UtilityAnalysis } from '../utilities/utility.js';

/** A built-in utility's name (`simt`, `divergence`, `paths`, `trace`, `its`) or a utility object. */
export type UtilityRef = InstrumentationMode | Utility;

/** A compiled workload: its manifest, one IR module per distinct shader, its scene and BVH. */
export interface CompiledWorkload {
  /** The workload's name (manifest `name`). */
  readonly name: string;
  readonly manifest: WorkloadManifest;
  /** Stage modules, raygen first. Instrument copies them; do not edit them in place. */
  readonly modules: readonly Module[];
  /** @internal The driver's shared preparation (compilation, scene, acceleration structure). */
  readonly preparation: SharedPreparation;
}

/** A compiled workload whose module copies carry probes, with the static metadata of the probes. */
export interface InstrumentedWorkload extends CompiledWorkload {
  readonly utilities: readonly Utility[];
  /** The static metadata (metadata.json): shaders, CFGs, one site per probe. */
  readonly metadata: InstrumentationMetadata;
}

/**
 * Loads a workload (a built-in name such as `pt`, or the path of a workload.json manifest),
 * compiles every shader and builds its scene and acceleration structure.
 * @throws ShaderCompileError with every `file:line:col: error: ...` of every shader;
 *   ManifestError for a bad manifest.
 */
export async function compileWorkload(workload: string = DEFAULT_WORKLOAD): Promise<CompiledWorkload> {
  const preparation = await sharedPreparation(workload);
  return { name: preparation.manifest.name, manifest: preparation.manifest, modules: preparation.compiled.modules, preparation };
}

function toUtility(u: UtilityRef): Utility {
  if (typeof u !== 'string') return u;
  const b = (BUILTIN_UTILITIES as Record<string, Utility | undefined>)[u];
  if (!b) throw new TypeError(`unknown built-in utility '${u}'; expected one of ${Object.keys(BUILTIN_UTILITIES).join(', ')} or a Utility object`);
  return b;
}

/**
 * Instruments a copy of the workload's modules with one or more utilities sharing one dump.
 * Built-in and user utilities may be mixed; each analysis later reads only its own site kinds.
 * @throws UtilityError when a user utility's `place` throws or produces invalid IR.
 */
export function instrument(workload: CompiledWorkload, utilities: UtilityRef | readonly UtilityRef[]): InstrumentedWorkload {
  const list = (Array.isArray(utilities) ? utilities : [utilities]) as readonly UtilityRef[];
  if (list.length === 0) throw new TypeError('instrument: give at least one utility');
  if ('metadata' in workload) throw new TypeError('instrument: this workload is already instrumented; instrument the compiled workload with every utility at once');
  const us = list.map(toUtility);
  const compiled = cloneCompiled(workload.preparation.compiled);
  const metadata = instrumentCompiled(compiled, us);
  const preparation: SharedPreparation = { ...workload.preparation, compiled };
  return { name: workload.name, manifest: workload.manifest, modules: compiled.modules, preparation, utilities: us, metadata };
}

export interface SimulateOptions {
  width?: number;
  height?: number;
  spp?: number;
  bounces?: number;
  seed?: number;
  /** Warp shape: Vulkan-Sim's 32x1 rows (default) or 4x8 tiles. */
  mapping?: 'rows' | 'tiles4x8';
  /** Function call coalescing (Vulkan-Sim Algorithm 3). */
  fcc?: boolean;
  /** Independent thread scheduling (Vulkan-Sim IV-B) instead of the SIMT stack. */
  its?: boolean;
  /** Push-constant members for this run. */
  push?: Record<string, number>;
  /** Instrumentation buffer in 32-bit words, or 'auto' (default): rerun once with the exact size needed. */
  bufferWords?: number | 'auto';
  /** A GPU configuration (preset `baseline`, `mobile`, `treelet`, `rtx2060`, or a gpgpusim.config path): run on the cycle-level timing model. */
  config?: string;
  /** `key=value` overrides of configuration knobs (with `config`). */
  overrides?: string[];
  /** Refuse a launch estimated to need more memory than this (default 4 GiB; src/sim/workload/launch-limits.ts). */
  memoryBudgetBytes?: number;
}

/** What a run produced. */
export interface Simulation {
  readonly workload: string;
  readonly params: RunParameters;
  /** The rendered output image, if the workload has one. */
  readonly image: SimImage | undefined;
  /** The functional core's counters (instructions, SIMT efficiency per block...). */
  readonly counters: Counters;
  readonly rt: RtCounters;
  /** With `config`: the timing model's statistics (Vulkan-Sim names: gpu_sim_cycle, gpu_ipc...). */
  readonly timing?: TimingStats;
  /** With an instrumented workload: the dump, its bytes (dump.bin) and metadata. */
  readonly instrumentation?: {
    readonly dump: Dump;
    readonly dumpBytes: Uint8Array;
    readonly metadata: InstrumentationMetadata;
    readonly utilities: readonly Utility[];
    /** Buffer words of a first attempt that overflowed (bufferWords 'auto'). */
    readonly rerunFrom?: number;
  };
}

/**
 * Runs a compiled or instrumented workload: functional simulation, or with `config` the
 * cycle-level timing model. Instrumented runs fill the V-Vision buffer and return its dump.
 * @throws InstrumentationBufferTooSmallError for a fixed `bufferWords` that is too small (with the size needed).
 * @throws LaunchLimitError for a launch past 2^30 invocations or the memory budget, before anything runs.
 */
export async function simulate(workload: CompiledWorkload | InstrumentedWorkload, opts: SimulateOptions = {}): Promise<Simulation> {
  const config = opts.config !== undefined ? loadConfig(opts.config, opts.overrides ?? []) : undefined;
  const metadata = 'metadata' in workload ? workload.metadata : undefined;
  const auto = opts.bufferWords === undefined || opts.bufferWords === 'auto';
  let words = auto ? AUTO_INITIAL_BUFFER_WORDS : (opts.bufferWords as number);
  let rerunFrom: number | undefined;
  const { bufferWords: _b, config: _c, overrides: _o, ...run } = opts;
  for (;;) {
    const runOpts: RunOptions = { ...run, ...(metadata ? { instrumented: metadata, bufferWords: words } : {}) };
    const prepared = await prepareRun(workload.name, runOpts, config ? { shortStackSize: config.rt.stackEntries } : undefined, workload.preparation);
    let counters: Counters;
    let timing: TimingStats | undefined;
    if (config) ({ counters, timing } = runTimed(prepared, config, { mapping: opts.mapping ?? 'rows' }));
    else counters = runFunctional(prepared.program, prepared.host.resources, launchOptionsOf(prepared, opts.mapping));
    const base = { workload: workload.name, params: prepared.params, image: prepared.host.output, counters, rt: prepared.rt.counters, ...(timing ? { timing } : {}) };
    if (!metadata) return base;
    const bytes = prepared.dumpBuffer!;
    const probe = readDump(bytes, metadata, { allowOverflow: true });
    if (probe.overflowed && auto && rerunFrom === undefined) {
      rerunFrom = words;
      words = probe.requiredWords;
      continue;
    }
    const dump = readDump(bytes, metadata);
    const dumpBytes = bytes.subarray(0, Math.min(bytes.byteLength, dump.requiredWords * 4));
    const utilities = (workload as InstrumentedWorkload).utilities;
    return { ...base, instrumentation: { dump, dumpBytes, metadata, utilities, ...(rerunFrom !== undefined ? { rerunFrom } : {}) } };
  }
}

/** Each utility's analysis of a dump, and the built-ins' merged typed results. */
export interface Analysis {
  /** The built-in utilities' typed results (SIMT efficiency, hotspots, divergence...). */
  readonly results: VVisionResults;
  /** The per-pixel work heatmap (built-in `trace`). */
  readonly heatmap?: WorkHeatmap;
  /** Every utility's analysis by utility name: summary, tables, charts, images, data. */
  readonly utilities: Readonly<Record<string, UtilityAnalysis>>;
}

/** A dump to analyse without a Simulation (e.g. read back from a run directory). */
export interface DumpInput {
  dump: Dump;
  metadata: InstrumentationMetadata;
  launch: { width: number; height: number };
  workload?: string;
}

/**
 * Runs every utility's `analyse` on an instrumented run's dump (or on a dump given directly, with
 * the utilities that produced it).
 * @throws UtilityError when a user utility's analysis throws or returns malformed report material.
 */
export function analyse(run: Simulation | DumpInput, utilities?: readonly UtilityRef[]): Analysis {
  let input: DumpInput;
  let us: readonly Utility[];
  if ('counters' in run) {
    if (!run.instrumentation) throw new TypeError('analyse: this run was not instrumented (simulate an instrument()ed workload)');
    const i = run.instrumentation;
    input = { dump: i.dump, metadata: i.metadata, launch: run.params, workload: run.workload };
    us = utilities ? utilities.map(toUtility) : i.utilities;
  } else {
    input = run;
    us = (utilities ?? run.metadata.modes.filter((m): m is InstrumentationMode => m in BUILTIN_UTILITIES)).map(toUtility);
  }
  const { results, heatmap, analyses } = analyseDumps(
    input.workload ?? '', us.map((u) => ({ mode: u.name, dump: input.dump, metadata: input.metadata, utility: u })), input.launch,
  );
  const byName: Record<string, UtilityAnalysis> = {};
  for (const a of analyses) byName[a.utility.name] = a.analysis;
  return heatmap ? { results, heatmap, utilities: byName } : { results, utilities: byName };
}

/** The rendered image as PNG bytes (undefined when the workload has no output image). */
export function imagePng(run: Simulation): Uint8Array | undefined {
  return run.image ? imageToPng(run.image) : undefined;
}
