/**
 * `vvision instrument`: runs a workload once per V-Vision utility (simt, divergence, paths, trace,
 * its; `all` = every one), each time with the shaders instrumented by that utility, reads each
 * dump and runs every analysis the utility feeds. `--buffer-size auto` sizes the instrumentation
 * buffer: a run that overflowed is rerun once with the exact size the dump says it needed.
 */
import { readDump, type Dump, type VVisionResults, type WorkHeatmap } from '../analytics/index.js';
import { analyseDumps } from './analyse-dumps.js';
import type { InstrumentationMetadata, InstrumentationMode } from '../primitives/buffer-layout.js';
import { INSTRUMENTATION_MODES } from '../primitives/buffer-layout.js';
import type { Counters } from '../sim/functional/counters.js';
import { runFunctional } from '../sim/functional/launch.js';
import type { RtCounters } from '../sim/pipeline/rt-runtime.js';
import { fidelityCheck, type FidelityCheck } from './fidelity-check.js';
import { launchOptionsOf, prepareRun, type PreparedRun, type RunOptions } from './run-workload.js';

export type InstrumentModeArg = InstrumentationMode | 'all';

export interface InstrumentOptions extends RunOptions {
  /** Words of the instrumentation buffer, or 'auto' (start small, rerun once with the exact size). */
  bufferSize?: number | 'auto';
  onProgress?: (message: string) => void;
}

export const AUTO_INITIAL_BUFFER_WORDS = 1 << 20;

export interface ModeRun {
  mode: InstrumentationMode;
  prepared: PreparedRun;
  counters: Counters;
  rt: RtCounters;
  dumpBytes: Uint8Array;
  dump: Dump;
  metadata: InstrumentationMetadata;
  /** Buffer words of the first attempt when it overflowed and the run was repeated. */
  rerunFrom?: number;
  simulateMs: number;
}

export interface InstrumentResult {
  workload: string;
  runs: ModeRun[];
  results: VVisionResults;
  heatmap?: WorkHeatmap;
  fidelity?: FidelityCheck;
  analyticsMs: number;
}

export function modesOf(arg: InstrumentModeArg): InstrumentationMode[] {
  return arg === 'all' ? [...INSTRUMENTATION_MODES] : [arg];
}

export async function instrumentWorkload(workload: string, mode: InstrumentModeArg, opts: InstrumentOptions = {}): Promise<InstrumentResult> {
  const runs: ModeRun[] = [];
  for (const m of modesOf(mode)) {
    opts.onProgress?.(`running ${workload} instrumented for '${m}'`);
    runs.push(await runMode(workload, m, opts));
  }
  const t0 = performance.now();
  const first = runs[0]!;
  const { results, heatmap } = analyseDumps(first.prepared.manifest.name, runs, first.prepared.params);
  const simtRun = runs.find((r) => r.mode === 'simt');
  const out: InstrumentResult = { workload: first.prepared.manifest.name, runs, results, analyticsMs: performance.now() - t0 };
  if (heatmap) out.heatmap = heatmap;
  if (simtRun && results.simt) {
    out.fidelity = fidelityCheck(results.simt, simtRun.metadata, simtRun.prepared.linked, simtRun.prepared.program, simtRun.counters);
  }
  return out;
}

async function runMode(workload: string, mode: InstrumentationMode, opts: InstrumentOptions): Promise<ModeRun> {
  const auto = opts.bufferSize === undefined || opts.bufferSize === 'auto';
  let words = auto ? AUTO_INITIAL_BUFFER_WORDS : (opts.bufferSize as number);
  let rerunFrom: number | undefined;
  for (;;) {
    const prepared = await prepareRun(workload, { ...opts, instrument: [mode], bufferWords: words });
    const t0 = performance.now();
    const counters = runFunctional(prepared.program, prepared.host.resources, launchOptionsOf(prepared, opts.mapping));
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
    const run: ModeRun = { mode, prepared, counters, rt: prepared.rt.counters, dumpBytes: trimDump(dumpBytes, dump), dump, metadata, simulateMs };
    if (rerunFrom !== undefined) run.rerunFrom = rerunFrom;
    return run;
  }
}

/** The dump as saved: the words actually written, not the unused tail of the buffer. */
function trimDump(bytes: Uint8Array, dump: Dump): Uint8Array {
  return bytes.subarray(0, Math.min(bytes.byteLength, dump.requiredWords * 4));
}
