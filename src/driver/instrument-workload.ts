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
import { countersOf, createWarps, runFunctional } from '../sim/functional/launch.js';
import { loadConfig, simulate, type GpuConfig, type TimingStats } from '../sim/timing/index.js';
import { simulateWorkload } from './simulate-workload.js';
import type { RtCounters } from '../sim/pipeline/rt-runtime.js';
import { fidelityCheck, type FidelityCheck } from './fidelity-check.js';
import { launchOptionsOf, prepareRun, sharedPreparation, type PreparedRun, type RunOptions, type SharedPreparation } from './run-workload.js';

export type InstrumentModeArg = InstrumentationMode | 'all';

export interface InstrumentOptions extends RunOptions {
  /** Words of the instrumentation buffer, or 'auto' (start small, rerun once with the exact size). */
  bufferSize?: number | 'auto';
  /** GPU configuration (preset name or gpgpusim.config path): run on the timing model. */
  config?: string;
  /** `key=value` overrides of single configuration knobs (with `config`). */
  overrides?: string[];
  onProgress?: (message: string) => void;
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
  /** Timing-model statistics of this instrumented run (with `config`). */
  timing?: TimingStats;
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

/** One launch on the timing model; the functional counters of the same warps. */
export function runTimed(prepared: PreparedRun, config: GpuConfig, opts: InstrumentOptions): { counters: Counters; timing: TimingStats } {
  let cycle = 0;
  // The clock builtin reads simulated time, as in `simulateWorkload`.
  const warps = createWarps(prepared.program, prepared.host.resources, { ...launchOptionsOf(prepared, opts.mapping), clock: () => cycle });
  const timing = simulate(warps, config, { onProgress: (c) => (cycle = c) });
  const counters = countersOf(warps, prepared.program);
  if (!counters) throw new Error(`${prepared.manifest.name}: the launch has no warps (launch size 0?)`);
  return { counters, timing };
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
    const t0 = performance.now();
    let counters: Counters;
    let timing: TimingStats | undefined;
    if (config) ({ counters, timing } = runTimed(prepared, config, opts));
    else counters = runFunctional(prepared.program, prepared.host.resources, launchOptionsOf(prepared, opts.mapping));
    const simulateMs = performance.now() - t0;
    const dumpBytes = prepared.dumpBuffer!;
    const metadata = prepared.metadata!;
    const probe = readDump(dumpBytes, metadata, { allowOverflow: true });
    if (probe.overflowed && auto && rerunFrom === undefined) {
      rerunFrom = words;
      words = probe.requiredWords;
      opts.onProgress?.(`instrumentation buffer too small (${rerunFrom} words); rerunning '${mode}' with ${words} words`);
      continue;
    }
    // Throws InstrumentationBufferTooSmallError (with the size to rerun with) for a fixed size.
    const dump = readDump(dumpBytes, metadata);
    const run: ModeRun = { mode, utility, prepared, counters, rt: prepared.rt.counters, dumpBytes: trimDump(dumpBytes, dump), dump, metadata, simulateMs };
    if (rerunFrom !== undefined) run.rerunFrom = rerunFrom;
    if (timing) run.timing = timing;
    return run;
  }
}

/** The dump as saved: the words actually written, not the unused tail of the buffer. */
function trimDump(bytes: Uint8Array, dump: Dump): Uint8Array {
  return bytes.subarray(0, Math.min(bytes.byteLength, dump.requiredWords * 4));
}
