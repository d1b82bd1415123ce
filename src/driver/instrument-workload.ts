/**
 * `vvision instrument`: runs a workload once per V-Vision utility (simt, divergence, paths, trace,
 * its; `all` = every one), each time with the shaders instrumented by that utility, reads each
 * dump and runs every analysis the utility feeds. `--buffer-size auto` sizes the instrumentation
 * buffer: a run that overflowed is rerun once with the exact size the dump says it needed.
 *
 * With a GPU configuration (`--config`), every instrumented run and one uninstrumented run go
 * through the cycle-level timing model instead of the functional core alone, so the
 * instrumentation's atomics and stores pay the memory system's price and the overhead is measured
 * in simulated cycles. The functional counters still come from the same warps (`countersOf`), so
 * the fidelity check compares the dump with exactly the execution that produced it.
 */
import { readDump, type Dump, type VVisionResults, type WorkHeatmap } from '../analytics/index.js';
import { analyseDumps, type AnalysedDumps } from './analyse-dumps.js';
import type { InstrumentationMetadata, InstrumentationMode } from '../primitives/buffer-layout.js';
import { INSTRUMENTATION_MODES } from '../primitives/buffer-layout.js';
import { BUILTIN_UTILITIES } from '../utilities/builtin.js';
import type { Utility } from '../utilities/utility.js';
import type { Counters } from '../sim/functional/counters.js';
import { countersOf, createWarps } from '../sim/functional/launch.js';
import { loadConfig, simulateFrames, type GpuConfig, type TimingStats } from '../sim/timing/index.js';
import type { Warp } from '../sim/functional/warp.js';
import { sumRtCounters, takeRtCounters } from './frame-totals.js';
import { simulateWorkload } from './simulate-workload.js';
import type { RtCounters } from '../sim/pipeline/rt-runtime.js';
import { fidelityCheck, type FidelityCheck } from './fidelity-check.js';
import { fastForward, launchOptionsOf, prepareRun, runFrames, sharedPreparation, type PreparedRun, type RunOptions, type SharedPreparation } from './run-workload.js';

export type InstrumentModeArg = InstrumentationMode | 'all';

export interface InstrumentOptions extends RunOptions {
  /** Words of the instrumentation buffer, or 'auto' (start small, rerun once with the exact size). */
  bufferSize?: number | 'auto';
  /** GPU configuration (preset name or gpgpusim.config path): run on the timing model. */
  config?: string;
  /** `key=value` overrides of single configuration knobs (with `config`). */
  overrides?: string[];
  onProgress?: (message: string) => void;
  /** Multi-frame runs: the frame (0-based) the utilities analyse; default the last. Every frame's dump is kept. */
  analyseFrame?: number;
}

/** Timing-model figures of an instrumented run against the uninstrumented one (`--config`). */
export interface TimingOverhead {
  /** The configuration as the timing model names it (preset / file and overrides). */
  config: string;
  /** The uninstrumented pipeline on the same configuration. */
  baseline: TimingStats;
  baselineWallMs: number;
}

export const AUTO_INITIAL_BUFFER_WORDS = 1 << 20;

export interface ModeRun {
  /** The utility's name (a built-in mode or a user utility). */
  mode: string;
  utility: Utility;
  prepared: PreparedRun;
  counters: Counters;
  rt: RtCounters;
  dumpBytes: Uint8Array;
  dump: Dump;
  metadata: InstrumentationMetadata;
  /** Buffer words of the first attempt when it overflowed and the run was repeated. */
  rerunFrom?: number;
  simulateMs: number;
  /** Timing-model statistics of this instrumented run (with `config`; every frame of a multi-frame run, each frame's in `frames`). */
  timing?: TimingStats;
  /** Multi-frame runs: every frame's dump and figures; `dump`, `counters` and `rt` above are frame `analysedFrame`'s. */
  frames?: FrameDump[];
  analysedFrame?: number;
  /** Instrumentation buffer words the run had. */
  bufferWords: number;
}

/** One frame of an instrumented multi-frame run: its own dump (the buffer is emptied between frames). */
export interface FrameDump {
  frame: number;
  dumpBytes: Uint8Array;
  dump: Dump;
  counters: Counters;
  rt: RtCounters;
  timing?: TimingStats;
  /** Wall-clock milliseconds from the previous frame's end (host updates, launch, dump read-back). */
  wallMs: number;
}

export interface InstrumentResult {
  workload: string;
  runs: ModeRun[];
  results: VVisionResults;
  heatmap?: WorkHeatmap;
  /** Every utility's analysis (built-ins included), in run order. */
  analyses: AnalysedDumps['analyses'];
  fidelity?: FidelityCheck;
  analyticsMs: number;
  /** With `config`: the uninstrumented run the overheads are measured against. */
  timing?: TimingOverhead;
}

export function modesOf(arg: InstrumentModeArg): InstrumentationMode[] {
  return arg === 'all' ? [...INSTRUMENTATION_MODES] : [arg];
}

/** The utilities a run applies: a built-in mode, `all`, or utility objects (user utilities). */
export function utilitiesOf(arg: InstrumentModeArg | Utility | readonly Utility[]): Utility[] {
  if (typeof arg === 'string') return modesOf(arg).map((m) => BUILTIN_UTILITIES[m]);
  return Array.isArray(arg) ? [...(arg as readonly Utility[])] : [arg as Utility];
}

/** Runs the workload once per utility (each with its own dump), then every utility's analysis. */
export async function instrumentWorkload(
  workload: string, mode: InstrumentModeArg | Utility | readonly Utility[], opts: InstrumentOptions = {},
): Promise<InstrumentResult> {
  // Loaded once up front: a bad preset or key fails before any simulation.
  const config = opts.config !== undefined ? loadConfig(opts.config, opts.overrides ?? []) : undefined;
  // One compilation, scene and BVH for every run; each run instruments its own copy of the modules.
  const shared = await sharedPreparation(workload);
  const runs: ModeRun[] = [];
  for (const u of utilitiesOf(mode)) {
    opts.onProgress?.(`running ${workload} instrumented for '${u.name}'${config ? ` on the timing model (${opts.config})` : ''}`);
    runs.push(await runMode(workload, u, opts, shared, config));
  }
  let timing: TimingOverhead | undefined;
  if (config) {
    opts.onProgress?.(`running ${workload} uninstrumented on the timing model (${opts.config})`);
    const { onProgress: _messages, bufferSize: _size, ...runOpts } = opts;
    const base = await simulateWorkload(workload, { ...runOpts, config: opts.config!, overrides: opts.overrides ?? [] }, shared);
    timing = { config: base.stats.config, baseline: base.stats, baselineWallMs: base.wallMs };
  }
  const t0 = performance.now();
  const first = runs[0]!;
  const { results, heatmap, analyses } = analyseDumps(first.prepared.manifest.name, runs, first.prepared.params);
  const simtRun = runs.find((r) => r.utility === BUILTIN_UTILITIES.simt);
  const out: InstrumentResult = { workload: first.prepared.manifest.name, runs, results, analyses, analyticsMs: performance.now() - t0 };
  if (heatmap) out.heatmap = heatmap;
  if (timing) out.timing = timing;
  if (simtRun && results.simt) {
    out.fidelity = fidelityCheck(results.simt, simtRun.metadata, simtRun.prepared.linked, simtRun.prepared.program, simtRun.counters);
  }
  return out;
}

async function runMode(
  workload: string, utility: Utility, opts: InstrumentOptions, shared: SharedPreparation, config?: GpuConfig,
): Promise<ModeRun> {
  const mode = utility.name;
  const auto = opts.bufferSize === undefined || opts.bufferSize === 'auto';
  let words = auto ? AUTO_INITIAL_BUFFER_WORDS : (opts.bufferSize as number);
  let rerunFrom: number | undefined;
  for (;;) {
    const prepared = await prepareRun(
      workload, { ...opts, instrument: [utility], bufferWords: words }, config ? { shortStackSize: config.rt.stackEntries } : undefined, shared,
    );
    const metadata = prepared.metadata!;
    const { frames, overflowWords, timing, simulateMs } = runInstrumentedFrames(prepared, { mapping: opts.mapping, ...(opts.firstFrame !== undefined ? { firstFrame: opts.firstFrame } : {}), growBuffer: auto && rerunFrom === undefined }, config);
    if (overflowWords > 0 && frames.length === 0) {
      rerunFrom = words;
      words = overflowWords;
      opts.onProgress?.(`instrumentation buffer too small (${rerunFrom} words); rerunning '${mode}' with ${words} words`);
      continue;
    }
    // The utilities analyse one frame (the last unless `analyseFrame` says otherwise).
    const pick = opts.analyseFrame ?? frames[frames.length - 1]!.frame;
    const chosen = frames.find((f) => f.frame === pick);
    if (!chosen) throw new RangeError(`analyseFrame ${pick}: the run measured frames ${frames[0]!.frame}..${frames[frames.length - 1]!.frame}`);
    const run: ModeRun = {
      mode, utility, prepared, counters: chosen.counters, rt: chosen.rt, dumpBytes: chosen.dumpBytes, dump: chosen.dump, metadata, simulateMs, bufferWords: words,
    };
    Object.assign(prepared.rt.counters, sumRtCounters(frames.map((f) => f.rt)));
    if (frames.length > 1) {
      run.frames = frames;
      run.analysedFrame = pick;
    }
    if (rerunFrom !== undefined) run.rerunFrom = rerunFrom;
    if (timing) run.timing = timing;
    return run;
  }
}

/** What `runInstrumentedFrames` produced. */
export interface InstrumentedFrames {
  /** Every frame's dump and figures (empty when a frame overflowed and `growBuffer` was set: rerun with `overflowWords`). */
  frames: FrameDump[];
  /** The largest buffer size (words) a frame needed, when one overflowed; 0 otherwise. */
  overflowWords: number;
  /** With a configuration: the whole run on the timing model. */
  timing?: TimingStats;
  simulateMs: number;
}

/**
 * Every frame of an instrumented prepared run, functional or (with `config`) timed. After each
 * frame its dump (the words it wrote) is copied out and the buffer emptied for the next frame, as
 * a host that reads the instrumentation buffer back every frame does. An overflow throws
 * InstrumentationBufferTooSmallError unless `growBuffer`, which reports the size needed instead.
 */
export function runInstrumentedFrames(
  prepared: PreparedRun, opts: { mapping?: RunOptions['mapping']; firstFrame?: number; growBuffer: boolean }, config?: GpuConfig,
  onFrame?: (frame: number) => void,
): InstrumentedFrames {
  void prepared.program; // compiled on first read: before the timed regions, as when prepareRun compiled it
  const metadata = prepared.metadata!;
  const buffer = prepared.dumpBuffer!;
  const frames: FrameDump[] = [];
  let overflowWords = 0;
  let last = performance.now();
  const takeDump = (frame: number, counters: Counters | undefined, rt: RtCounters, timing?: TimingStats): void => {
    const probe = readDump(buffer, metadata, { allowOverflow: true });
    if (probe.overflowed) overflowWords = Math.max(overflowWords, probe.requiredWords);
    if (!probe.overflowed || !opts.growBuffer) {
      const dump = probe.overflowed ? readDump(buffer, metadata) : undefined; // throws InstrumentationBufferTooSmallError
      const dumpBytes = buffer.slice(0, probe.requiredWords * 4);
      if (!counters) throw new Error(`${prepared.manifest.name}: the launch has no warps (launch size 0?)`);
      const fd: FrameDump = { frame, dumpBytes, dump: dump ?? readDump(dumpBytes, metadata), counters, rt, wallMs: 0 };
      if (timing) fd.timing = timing;
      frames.push(fd);
    }
    buffer.fill(0, 0, Math.min(buffer.byteLength, probe.requiredWords * 4));
    const now = performance.now();
    if (frames[frames.length - 1]?.frame === frame) frames[frames.length - 1]!.wallMs = now - last;
    last = now;
    onFrame?.(frame);
  };
  const t0 = performance.now();
  let timing: TimingStats | undefined;
  if (config) timing = runTimedFrames(prepared, config, opts, (f, counters, stats) => takeDump(f, counters, takeRtCounters(prepared.rt.counters), stats));
  else runFrames(prepared, opts, undefined, (f) => takeDump(f.frame, f.counters, f.rt));
  if (overflowWords > 0 && opts.growBuffer) frames.length = 0;
  return { frames, overflowWords, ...(timing ? { timing } : {}), simulateMs: performance.now() - t0 };
}

/** Every frame of a prepared run on the timing model; `onFrame` after each one drained. Returns the whole run's stats. */
export function runTimedFrames(
  prepared: PreparedRun, config: GpuConfig, opts: Pick<InstrumentOptions, 'mapping' | 'firstFrame'>,
  onFrame: (frame: number, counters: Counters | undefined, timing: TimingStats) => void,
): TimingStats {
  const program = prepared.program;
  let cycle = 0;
  let warps: Warp[] = [];
  const first = fastForward(prepared, opts);
  return simulateFrames(prepared.params.frames - first, (f) => {
    prepared.host.startFrame(first + f);
    // The clock builtin reads simulated time, as in `simulateWorkload`.
    warps = createWarps(program, prepared.host.resources, { ...launchOptionsOf(prepared, opts.mapping), clock: () => cycle });
    return warps;
  }, config, {
    onProgress: (c) => (cycle = c),
    onFrameDone: (f, stats) => onFrame(first + f, countersOf(warps, program), stats),
  }).total;
}
