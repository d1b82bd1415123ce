/**
 * Zatel (paper 004) against the full timing simulation: for each case, the predicted Table I
 * metrics beside the full run's, the absolute error per metric, the mean absolute error, and the
 * wall-clock speedup on this machine's cores (heatmap included, and without it as the paper
 * counts). Every case starts from an empty job store, so nothing is reused.
 * Run: npx tsx bench/zatel.ts [case...]   (cases: see CASES; default: the 128x128 ones)
 * The paper's figures (Fig. 10, PARK 512x512 2 spp): Mobile SoC K = 4, cycles error 0.7%, MAE
 * 4.5%, 9.2x; RTX 2060 K = 6, MAE 15.1%, 11.6x; at "up to 10%" of pixels 50x with MAE 5.2%.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TABLE_I_METRICS } from '../src/driver/zatel/combine.js';
import { runZatel } from '../src/driver/zatel/run-zatel.js';
import { loadNote } from './machine-load.js';

interface Case { workload: string; size: number; fraction: 'auto' | number; config: string }
const CASES: Record<string, Case> = {
  'pt-128': { workload: 'pt', size: 128, fraction: 'auto', config: 'mobile' },
  'pt-128-10': { workload: 'pt', size: 128, fraction: 0.1, config: 'mobile' },
  'wknd-128': { workload: 'lumibench-wknd', size: 128, fraction: 'auto', config: 'mobile' },
  'pt-256': { workload: 'pt', size: 256, fraction: 'auto', config: 'mobile' },
  'pt-256-10': { workload: 'pt', size: 256, fraction: 0.1, config: 'mobile' },
  'wknd-256': { workload: 'lumibench-wknd', size: 256, fraction: 'auto', config: 'mobile' },
  'pt-128-rtx2060': { workload: 'pt', size: 128, fraction: 'auto', config: 'rtx2060' },
};
const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['pt-128', 'pt-128-10', 'wknd-128'];

for (const name of names) {
  const c = CASES[name];
  if (!c) throw new Error(`unknown case ${name} (cases: ${Object.keys(CASES).join(', ')})`);
  const jobDir = mkdtempSync(join(tmpdir(), 'vvision-bench-zatel-'));
  const r = await runZatel({
    workload: c.workload, config: c.config, overrides: [], run: { width: c.size, height: c.size, spp: 2 }, fraction: c.fraction,
    division: 'fine', distribution: 'uniform', extrapolation: 'linear', clusters: 5, seed: 1, jobDir, validate: true,
  });
  rmSync(jobDir, { recursive: true, force: true });
  const v = r.validation!;
  console.log(`\n${name}: ${c.workload} ${c.size}x${c.size} 2 spp on ${c.config}, K = ${r.downscaling.k}, fraction ${c.fraction}, traced ${(100 * r.traced.size / (c.size * c.size)).toFixed(1)}% of pixels`);
  console.log(`  ${'metric'.padEnd(28)}${'Zatel'.padStart(14)}${'full'.padStart(14)}${'error'.padStart(9)}`);
  let sum = 0;
  for (const m of TABLE_I_METRICS) {
    const x = v.metrics[m]!;
    sum += x.relativeError;
    const f = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(4));
    console.log(`  ${m.padEnd(28)}${f(x.predicted).padStart(14)}${f(x.full).padStart(14)}${`${(100 * x.relativeError).toFixed(2)}%`.padStart(9)}`);
  }
  console.log(`  MAE over Table I: ${(100 * sum / TABLE_I_METRICS.length).toFixed(2)}%`);
  console.log(`  wall: full ${v.fullWallSeconds.toFixed(1)} s; Zatel ${v.zatelWallSeconds.toFixed(1)} s (heatmap ${r.timing.heatmapSeconds.toFixed(1)} s, groups ${r.timing.groupsSeconds.toFixed(1)} s; group jobs ${r.timing.groupJobSeconds.toFixed(1)} s of work); ${loadNote()}`);
  console.log(`  speedup ${v.speedup.toFixed(2)}x (${v.speedupExcludingHeatmap.toFixed(2)}x without the heatmap)`);
}
