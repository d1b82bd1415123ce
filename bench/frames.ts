/**
 * Multi-frame runs (issue 24): the wall time of each frame against its index, which must not
 * grow. Three sequences: the functional core (host updates + launch), an instrumented functional
 * run (dump copied out and the buffer emptied each frame), and the timing model (launches back to
 * back on one GPU, warm caches). The work of a frame varies (a path tracer's paths change with the
 * sample index), so besides each frame's CPU milliseconds (process CPU time: the machine is shared,
 * wall time is not a measure) the cost per unit of work is reported — CPU ms per million thread
 * instructions (functional) or per thousand simulated cycles (timing) — with the mean of the first
 * and the second half of the frames and the least-squares slope against the frame index.
 *
 *   npx tsx bench/frames.ts [frames] [size] [workload]     (default: 16 32 lumibench-wknd, else pt)
 *
 * The LumiBench frame runs only when the shared calibration folder is there.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { countersOf, createWarps } from '../src/sim/functional/launch.js';
import { launchOptionsOf, prepareRun, runFrames, sharedPreparation } from '../src/driver/run-workload.js';
import { runInstrumentedFrames } from '../src/driver/instrument-workload.js';
import { BUILTIN_UTILITIES } from '../src/utilities/builtin.js';
import { calibrationDir } from '../src/sim/workload/load-manifest.js';
import { loadConfig, simulateFrames } from '../src/sim/timing/index.js';
import type { Warp } from '../src/sim/functional/warp.js';

const args = process.argv.slice(2);
const frames = Number(args[0] ?? 16);
const size = Number(args[1] ?? 32);
const lumibench = existsSync(join(calibrationDir(), 'lumibench-wknd', 'host-data'));
const workload = args[2] ?? (lumibench ? 'lumibench-wknd' : 'pt');
const run = { width: size, height: size, spp: 1, frames };

/** Process CPU milliseconds (user + system) since `from`. */
function cpuMs(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
}

function fit(label: string, ys: number[]): string {
  // The first quarter of the frames warms the JIT up; the halves and the slope are over the rest.
  const from = Math.max(1, Math.floor(ys.length / 4));
  const pts = ys.slice(from).map((y, i) => [i + from, y] as const);
  const mid = from + Math.floor(pts.length / 2);
  const mean = (a: readonly number[]) => a.reduce((x, y) => x + y, 0) / Math.max(1, a.length);
  const mx = mean(pts.map((p) => p[0]));
  const my = mean(pts.map((p) => p[1]));
  const slope = pts.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / pts.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return `  ${label}: frames ${from}..${mid - 1} ${mean(ys.slice(from, mid)).toFixed(2)}, frames ${mid}..${ys.length - 1} ${mean(ys.slice(mid)).toFixed(2)}; ` +
    `slope ${slope.toFixed(3)} per frame (${((100 * slope) / my).toFixed(2)}% of the mean per frame)\n`;
}

function report(label: string, ms: number[], work: number[], unit: string, extra = ''): void {
  const per = ms.map((m, i) => m / work[i]!);
  process.stdout.write(
    `${label}: ${ms.length} frames${extra}\n  CPU ms per frame ${ms.map((m) => m.toFixed(0)).join(' ')}\n` +
      `  CPU ms per ${unit} ${per.map((m) => m.toFixed(1)).join(' ')}\n` + fit('CPU ms per frame', ms) + fit(`CPU ms per ${unit}`, per),
  );
}

const shared = await sharedPreparation(workload);
process.stdout.write(`${workload} ${size}x${size}, spp 1\n`);

{
  const p = await prepareRun(workload, run, undefined, shared);
  const ms: number[] = [];
  let last = process.cpuUsage();
  const frameRuns = runFrames(p, run, undefined, () => {
    ms.push(cpuMs(last));
    last = process.cpuUsage();
  });
  report('functional', ms, frameRuns.map((f) => f.counters.threadInsts / 1e6), 'M thread instructions');
}

{
  const p = await prepareRun(workload, { ...run, instrument: [BUILTIN_UTILITIES.simt], bufferWords: 1 << 22 }, undefined, shared);
  const ms: number[] = [];
  let last = process.cpuUsage();
  const r = runInstrumentedFrames(p, { growBuffer: false }, undefined, () => {
    ms.push(cpuMs(last));
    last = process.cpuUsage();
  });
  const words = r.frames.map((f) => f.dump.wordsWritten);
  report('instrumented (simt): launch + dump read-back', ms, r.frames.map((f) => f.counters.threadInsts / 1e6), 'M thread instructions',
    `; dump words per frame ${Math.min(...words)}..${Math.max(...words)}`);
}

{
  const config = loadConfig('mobile');
  const timedFrames = Math.max(4, Math.floor(frames / 2));
  const p = await prepareRun(workload, { ...run, frames: timedFrames }, { shortStackSize: config.rt.stackEntries }, shared);
  const ms: number[] = [];
  const cycles: number[] = [];
  let cycle = 0;
  let warps: Warp[] = [];
  let last = process.cpuUsage();
  simulateFrames(timedFrames, (f) => {
    p.host.startFrame(f);
    warps = createWarps(p.program, p.host.resources, { ...launchOptionsOf(p, 'rows'), clock: () => cycle });
    return warps;
  }, config, {
    onProgress: (c) => (cycle = c),
    onFrameDone: (_f, stats) => {
      countersOf(warps, p.program);
      ms.push(cpuMs(last));
      cycles.push(stats.values.gpu_sim_cycle ?? 0);
      last = process.cpuUsage();
    },
  });
  report('timing model (mobile)', ms, cycles.map((c) => c / 1000), 'k cycles', `; cycles per frame ${cycles.join(' ')}`);
}
