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
import { type Dump, type VVisionResults, type WorkHeatmap } from '../analytics/index.js';
import { analyseDumps } from '../driver/analyse-dumps.js';
import { cloneCompiled } from '../driver/compile-workload.js';
import { instrumentCompiled } from '../driver/instrument-compiled.js';
import { AUTO_INITIAL_BUFFER_WORDS, runInstrumentedFrames, runTimedFrames } from '../driver/instrument-workload.js';
import { prepareRun, runFrames, sharedPreparation, type PreparedRun, type RunOptions, type SharedPreparation } from '../driver/run-workload.js';
import { sumCounters, sumRtCounters, takeRtCounters } from '../driver/frame-totals.js';
import type { Module } from '../ir/module.js';
import type { InstrumentationMetadata, InstrumentationMode } from '../primitives/buffer-layout.js';
import type { Counters } from '../sim/functional/counters.js';
import type { SimImage } from '../sim/functional/images.js';
import type { RunParameters } from '../sim/host/build-resources.js';
import { imageToPng } from '../sim/host/image-png.js';
import type { RtCounters } from '../sim/pipeline/rt-runtime.js';
import { loadConfig, type TimelineOptions, type TimelineRecorder, type TimingStats } from '../sim/timing/index.js';
import type { ConfigKnobs } from '../sim/config/config-knobs.js';
import type { FloatModel } from '../sim/functional/float-model.js';
import type { ItsPolicy } from '../sim/functional/launch-state.js';
import type { LaunchMapping } from '../sim/functional/warp-mapping.js';
import { simulateWorkload } from '../driver/simulate-workload.js';
import { knobOverrides } from './studies.js';
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

export function toUtility(u: UtilityRef): Utility {
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
  /**
   * Trace-rays launches, one per frame, back to back over the same device memory (default: the
   * manifest's `frames`, else 1). An instrumented run's buffer is read back and emptied after every frame.
   */
  frames?: number;
  /** Multi-frame runs: the first frame to measure; earlier frames are fast-forwarded on the functional core. */
  firstFrame?: number;
  /** Warp shape: Vulkan-Sim's 32x1 rows (default), 4x8 tiles, or NVIDIA's tiles by launch height ('nvidia'; see NVIDIA_BEHAVIOUR). */
  mapping?: LaunchMapping;
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
  /** Configuration knobs by name, typed from their declarations (with `config`), e.g. `{ gpgpu_rt_max_warps: 4 }`. */
  knobs?: ConfigKnobs;
  /** `key=value` overrides of configuration knobs (with `config`), applied after `knobs`. */
  overrides?: string[];
  /** Float division, normalize and pow exactly rounded ('ieee') or as GPU compilers lower them ('gpu'); default the manifest's. */
  floatModel?: FloatModel;
  /** With `its`: how warp splits reconverge ('barriers' default, 'barriers-all', 'merge'). */
  itsPolicy?: ItsPolicy;
  /** Where warnings go (a run option the manifest does not use); default stderr. */
  onWarning?: (message: string) => void;
  /** With `config` on an uninstrumented workload: record the warp timeline (Chrome trace events) with these bounds. */
  timeline?: TimelineOptions;
  /** Refuse a launch estimated to need more memory than this (default 4 GiB; src/sim/workload/launch-limits.ts). */
  memoryBudgetBytes?: number;
}

/** One frame of a multi-frame run. */
export interface SimulationFrame {
  readonly frame: number;
  readonly counters: Counters;
  readonly rt: RtCounters;
  /** With `config`: this frame's launch on the timing model. */
  readonly timing?: TimingStats;
  /** Instrumented runs: this frame's dump. */
  readonly dump?: Dump;
  readonly dumpBytes?: Uint8Array;
}

/** What a run produced. */
export interface Simulation {
  /** Every frame's own figures, in order (one entry for a one-frame run); `counters`, `rt`, `timing` are the whole run's. */
  readonly frames: readonly SimulationFrame[];
  readonly workload: string;
  readonly params: RunParameters;
  /** The rendered output image, if the workload has one. */
  readonly image: SimImage | undefined;
  /** The functional core's counters (instructions, SIMT efficiency per block...). */
  readonly counters: Counters;
  readonly rt: RtCounters;
  /** With `config`: the timing model's statistics (Vulkan-Sim names: gpu_sim_cycle, gpu_ipc...). */
  readonly timing?: TimingStats;
  /** With `config` and `timeline`: the recorded warp timeline (`summary()`, `events`; the CLI writes it as a Chrome trace). */
  readonly timeline?: TimelineRecorder;
  /** With an instrumented workload: the dump (of the last frame; every frame's is in `frames`), its bytes (dump.bin) and metadata. */
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
  const overrides = [...knobOverrides(opts.knobs), ...(opts.overrides ?? [])];
  const metadata = 'metadata' in workload ? workload.metadata : undefined;
  if (opts.timeline !== undefined) {
    if (opts.config === undefined || metadata) throw new TypeError('simulate: "timeline" needs "config" and an uninstrumented workload');
    const { bufferWords: _b, config: _c, overrides: _o, knobs: _k, timeline, ...rest } = opts;
    const r = await simulateWorkload(workload.name, { ...rest, config: opts.config, overrides, timeline }, workload.preparation);
    if (!r.counters) throw new Error(`${workload.name}: the launch has no warps (launch size 0?)`);
    return {
      workload: workload.name, params: r.prepared.params, image: r.prepared.host.output, counters: r.counters, rt: r.prepared.rt.counters,
      timing: r.stats, ...(r.timeline ? { timeline: r.timeline } : {}),
      // A timeline records one launch: a one-frame run.
      frames: [{ frame: 0, counters: r.counters, rt: r.prepared.rt.counters, timing: r.stats }],
    };
  }
  const config = opts.config !== undefined ? loadConfig(opts.config, overrides) : undefined;
  const auto = opts.bufferWords === undefined || opts.bufferWords === 'auto';
  let words = auto ? AUTO_INITIAL_BUFFER_WORDS : (opts.bufferWords as number);
  let rerunFrom: number | undefined;
  const { bufferWords: _b, config: _c, overrides: _o, knobs: _k, timeline: _t, ...run } = opts;
  for (;;) {
    const runOpts: RunOptions = { ...run, ...(metadata ? { instrumented: metadata, bufferWords: words } : {}) };
    const prepared = await prepareRun(workload.name, runOpts, config ? { shortStackSize: config.rt.stackEntries } : undefined, workload.preparation);
    if (!metadata) {
      const frames: SimulationFrame[] = [];
      let timing: TimingStats | undefined;
      if (config) {
        timing = runTimedFrames(prepared, config, { mapping: opts.mapping ?? 'rows', ...(opts.firstFrame !== undefined ? { firstFrame: opts.firstFrame } : {}) }, (frame, counters, stats) => {
          if (!counters) throw new Error(`${workload.name}: the launch has no warps (launch size 0?)`);
          frames.push({ frame, counters, rt: takeRtCounters(prepared.rt.counters), timing: stats });
        });
      } else {
        for (const f of runFrames(prepared, run)) frames.push({ frame: f.frame, counters: f.counters, rt: f.rt });
      }
      return totals(workload.name, prepared, frames, timing);
    }
    const done = runInstrumentedFrames(prepared, { mapping: opts.mapping ?? 'rows', ...(opts.firstFrame !== undefined ? { firstFrame: opts.firstFrame } : {}), growBuffer: auto && rerunFrom === undefined }, config);
    if (done.overflowWords > 0 && done.frames.length === 0) {
      rerunFrom = words;
      words = done.overflowWords;
      continue;
    }
    const frames: SimulationFrame[] = done.frames.map((f) => ({
      frame: f.frame, counters: f.counters, rt: f.rt, dump: f.dump, dumpBytes: f.dumpBytes, ...(f.timing ? { timing: f.timing } : {}),
    }));
    const last = done.frames[done.frames.length - 1]!;
    const utilities = (workload as InstrumentedWorkload).utilities;
    return {
      ...totals(workload.name, prepared, frames, done.timing),
      instrumentation: { dump: last.dump, dumpBytes: last.dumpBytes, metadata, utilities, ...(rerunFrom !== undefined ? { rerunFrom } : {}) },
    };
  }
}

function totals(name: string, prepared: PreparedRun, frames: SimulationFrame[], timing: TimingStats | undefined): Simulation {
  const rt = sumRtCounters(frames.map((f) => f.rt));
  Object.assign(prepared.rt.counters, rt);
  return {
    workload: name, params: prepared.params, image: prepared.host.output, counters: sumCounters(frames.map((f) => f.counters)), rt, frames,
    ...(timing ? { timing } : {}),
  };
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
