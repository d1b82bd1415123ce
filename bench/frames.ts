/**
 * Multi-frame runs (issue 24): the wall time of each frame against its index, which must not
 * grow. Three sequences: the functional core (host updates + launch), an instrumented functional
 * run (dump copied out and the buffer emptied each frame), and the timing model (launches back to
 * back on one GPU, warm caches). Prints every frame's milliseconds, the mean of the first and the
 * second half, and the least-squares slope in ms per frame (and as a share of the mean per frame).
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

function report(label: string, ms: number[], extra = ''): void {
  const n = ms.length;
  const mean = ms.reduce((a, b) => a + b, 0) / n;
  const half = Math.floor(n / 2);
  const first = ms.slice(1, half).reduce((a, b) => a + b, 0) / Math.max(1, half - 1);
  const second = ms.slice(half).reduce((a, b) => a + b, 0) / (n - half);
  // Frame 0 pays the JIT warm-up; the slope is fitted from frame 1 on.
  const xs = ms.slice(1).map((_, i) => i + 1);
  const ys = ms.slice(1);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const slope = xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0) / xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  process.stdout.write(
    `${label}: ${n} frames, ms per frame ${ms.map((m) => m.toFixed(0)).join(' ')}\n` +
      `  mean ${mean.toFixed(1)} ms; frames 1..${half - 1} ${first.toFixed(1)} ms, frames ${half}..${n - 1} ${second.toFixed(1)} ms; ` +
      `slope ${slope.toFixed(2)} ms/frame (${((100 * slope) / my).toFixed(2)}% of a frame per frame)${extra}\n`,
  );
}

const shared = await sharedPreparation(workload);
process.stdout.write(`${workload} ${size}x${size}, spp 1\n`);

{
  const p = await prepareRun(workload, run, undefined, shared);
  const ms: number[] = [];
  let last = performance.now();
  runFrames(p, run, undefined, () => {
    const now = performance.now();
    ms.push(now - last);
    last = now;
  });
  report('functional', ms);
}

{
  const p = await prepareRun(workload, { ...run, instrument: [BUILTIN_UTILITIES.simt], bufferWords: 1 << 22 }, undefined, shared);
  const r = runInstrumentedFrames(p, { growBuffer: false });
  const words = r.frames.map((f) => f.dump.wordsWritten);
  report('instrumented (simt): launch + dump read-back', r.frames.map((f) => f.wallMs), `; dump words per frame ${Math.min(...words)}..${Math.max(...words)}`);
}

{
  const config = loadConfig('mobile');
  const timedFrames = Math.max(4, Math.floor(frames / 2));
  const p = await prepareRun(workload, { ...run, frames: timedFrames }, { shortStackSize: config.rt.stackEntries }, shared);
  const ms: number[] = [];
  const cycles: number[] = [];
  let cycle = 0;
  let warps: Warp[] = [];
  let last = performance.now();
  simulateFrames(timedFrames, (f) => {
    p.host.startFrame(f);
    warps = createWarps(p.program, p.host.resources, { ...launchOptionsOf(p, 'rows'), clock: () => cycle });
    return warps;
  }, config, {
    onProgress: (c) => (cycle = c),
    onFrameDone: (_f, stats) => {
      countersOf(warps, p.program);
      const now = performance.now();
      ms.push(now - last);
      cycles.push(stats.values.gpu_sim_cycle ?? 0);
      last = now;
    },
  });
  report('timing model (mobile)', ms, `; cycles per frame ${cycles.join(' ')}`);
}
