/**
 * Benchmark (issue 5 section 5): `pt` at 128x128, 2 spp — the functional simulator's simulate
 * phase (wall time, thread instructions/s, rays/s) against the plain-TypeScript reference tracer
 * on the same frame, scene, acceleration structure and rays (median of 3 runs each; the first
 * reference run is a JIT warm-up and not counted); prints the ratio (target: <= 3x) and
 * how many pixels of the two images agree. Run: npx tsx bench/reference-vs-functional.ts [size] [spp]
 */
import { launchOptionsOf, prepareRun } from '../src/driver/run-workload.js';
import { runFunctional } from '../src/sim/functional/launch.js';
import { readTexel } from '../src/sim/functional/images.js';
import { quantizeUnorm8, referenceRender } from '../src/sim/reference-tracer/index.js';

const REPEATS = 3;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const size = Number(process.argv[2] ?? 128);
  const spp = Number(process.argv[3] ?? 2);
  const simTimes: number[] = [];
  const refTimes: number[] = [];
  let last: { p: Awaited<ReturnType<typeof prepareRun>>; threadInsts: number } | undefined;
  for (let r = 0; r < REPEATS; r++) {
    const p = await prepareRun('pt', { width: size, height: size, spp });
    const t0 = performance.now();
    const counters = runFunctional(p.program, p.host.resources, launchOptionsOf(p, 'rows'));
    simTimes.push(performance.now() - t0);
    last = { p, threadInsts: counters.threadInsts };
  }
  const { p, threadInsts } = last!;
  const simRays = p.rt.counters.rays;
  const tCold = performance.now();
  let ref = referenceRender('pt', p.manifest, p.scene, p.host.accels[0]!, p.params);
  const refColdMs = performance.now() - tCold;
  for (let r = 0; r < REPEATS; r++) {
    const t1 = performance.now();
    ref = referenceRender('pt', p.manifest, p.scene, p.host.accels[0]!, p.params);
    refTimes.push(performance.now() - t1);
  }
  const simMs = median(simTimes);
  const refMs = median(refTimes);

  const texel = new Float64Array(4);
  let matching = 0;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      readTexel(p.host.output!, 0, x, y, 0, 0, texel);
      let worst = 0;
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(Math.round(texel[c]! * 255) - quantizeUnorm8(ref.rgba[4 * (y * size + x) + c]!)));
      if (worst <= 2) matching++;
    }
  }
  const fmt = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
  console.log(`pt ${size}x${size}, ${spp} spp (median of ${REPEATS} runs each)`);
  console.log(`  functional simulator: ${simMs.toFixed(0)} ms simulate, ${fmt(threadInsts)} thread instructions (${fmt(threadInsts / (simMs / 1000))}/s), ${fmt(simRays)} rays (${fmt(simRays / (simMs / 1000))} rays/s)`);
  console.log(`  reference tracer:     ${refMs.toFixed(0)} ms, ${fmt(ref.rays)} rays (${fmt(ref.rays / (refMs / 1000))} rays/s)`);
  console.log(`  ratio simulator / reference: ${(simMs / refMs).toFixed(2)}x (target <= 3x)`);
  console.log(`  first (cold) runs: simulator ${simTimes[0]!.toFixed(0)} ms, reference ${refColdMs.toFixed(0)} ms, ratio ${(simTimes[0]! / refColdMs).toFixed(2)}x`);
  console.log(`  same rays: ${simRays === ref.rays ? 'yes' : `no (${simRays} vs ${ref.rays})`}; pixels within 2/255: ${matching}/${size * size} (${((100 * matching) / (size * size)).toFixed(2)}%)`);
}

await main();
