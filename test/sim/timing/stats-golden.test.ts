// Issue 25.2's guard for speed work on the timing model: the simulated statistics of four frames
// stay bit-identical. Each case's stats.txt (as `vvision sim` writes it) is compared line by line
// with the committed one, and every statistic of stats.json at full precision (stats.txt prints 4
// digits), except the wall-clock statistics. The LumiBench case runs only where the shared
// calibration data is installed.
//
// After an intended change to the timing model (a fidelity fix, never a speed change), regenerate
// with `npm run golden:stats` and review the diff.
import test from 'ava';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simulateWorkload, type SimulateOptions } from '../../../src/driver/simulate-workload.js';
import { formatStats } from '../../../src/sim/timing/index.js';
import { calibrationDir } from '../../../src/sim/workload/load-manifest.js';

const GOLDEN = join(import.meta.dirname, 'golden-stats');
const UPDATE = process.env.VVISION_UPDATE_GOLDEN === '1';

/** Statistics of the wall clock: the only ones a speed change may move. */
const WALL_CLOCK = new Set(['gpu_total_sim_rate', 'gpu_sim_cycle_rate', 'gpu_warp_insn_rate', 'gpu_sim_wall_seconds']);

const wknd = join(calibrationDir(), 'lumibench-wknd', 'vulkan-sim', 'SM75_RTX2060.gpgpusim.config');
const CASES: [name: string, workload: string, opts: SimulateOptions][] = [
  ['wknd-sm75-32x32-1spp', 'lumibench-wknd', { config: wknd, width: 32, height: 32, spp: 1 }],
  ['pt-mobile-32x32', 'pt', { config: 'mobile', width: 32, height: 32 }],
  ['ao-mobile-48x48', 'ao', { config: 'mobile', width: 48, height: 48 }],
  ['cornell-mobile-32x32', 'cornell', { config: 'mobile', width: 32, height: 32 }],
];

/** stats.txt with the calibration folder (the config line of the LumiBench case) made machine-independent. */
function statsText(text: string): string {
  return text.split(calibrationDir()).join('<calibration>');
}

for (const [name, workload, opts] of CASES) {
  const run = opts.config === wknd && !existsSync(wknd) ? test.skip : test;
  run(`${name}: stats.txt and stats.json are as recorded`, async (t) => {
    const r = await simulateWorkload(workload, opts);
    const text = statsText(formatStats(r.stats));
    const values = Object.fromEntries(Object.entries(r.stats.values).filter(([k]) => !WALL_CLOCK.has(k)));
    const textFile = join(GOLDEN, `${name}.stats.txt`);
    const valuesFile = join(GOLDEN, `${name}.values.json`);
    if (UPDATE) {
      mkdirSync(GOLDEN, { recursive: true });
      writeFileSync(textFile, text);
      writeFileSync(valuesFile, `${JSON.stringify(values, null, 1)}\n`);
      t.pass();
      return;
    }
    const want = readFileSync(textFile, 'utf8').split('\n');
    const got = text.split('\n');
    const differ: string[] = [];
    for (let i = 0; i < Math.max(want.length, got.length); i++) {
      const w = want[i];
      const g = got[i];
      if (w === g) continue;
      const stat = (w ?? g ?? '').split(' = ')[0]!;
      if (WALL_CLOCK.has(stat) && (g ?? '').startsWith(`${stat} = `)) continue;
      differ.push(`line ${i + 1}: ${w} -> ${g}`);
    }
    t.deepEqual(differ, [], `${name}: stats.txt differs from ${textFile}`);
    const recorded = JSON.parse(readFileSync(valuesFile, 'utf8')) as Record<string, unknown>;
    const changed = Object.keys({ ...recorded, ...values })
      .filter((k) => JSON.stringify(recorded[k]) !== JSON.stringify(values[k]))
      .map((k) => `${k}: ${JSON.stringify(recorded[k])} -> ${JSON.stringify(values[k])}`);
    t.deepEqual(changed, [], `${name}: statistics differ from ${valuesFile} at full precision`);
  });
}
