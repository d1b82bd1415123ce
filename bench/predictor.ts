/**
 * The ray intersection predictor (paper 002) against the baseline RT unit, on the occlusion-ray
 * workloads: `ao` (the built-in AO, Cornell box) and `lumibench-wknd-ao` (LumiBench's TraceAO over
 * the WKND scene, when ../shared/calibration is present), `mobile` preset. For each: the paper's
 * Fig. 15 configurations (Default = no repacking, Repack, Repack 4), the Fig. 2 oracles, and a Go
 * Up Level sweep (Fig. 14); cycles, speedup, L1D accesses, RT-unit memory requests, node fetches
 * and the paper's terms, with the paper's figures beside them. Memory savings are the paper's
 * (Fig. 13): the RT unit's memory requests against the baseline row's; node-fetch savings those of
 * the looked-up rays against their own full traversals (Eq. 1).
 * Run: npx tsx bench/predictor.ts [width] [height] [workload...]
 */
import { STUDY_BUNDLES } from '../src/driver/sweep/study-bundles.js';
import { simulateWorkload } from '../src/driver/simulate-workload.js';
import { predictorMemorySavings } from '../src/sim/timing/stats.js';

const width = Number(process.argv[2] ?? 64);
const height = Number(process.argv[3] ?? 64);
const workloads = process.argv.length > 4 ? process.argv.slice(4) : ['ao', 'lumibench-wknd-ao'];

/** Paper 002's figures for the same configurations (geometric means over its seven scenes). */
const PAPER: Record<string, string> = {
  baseline: '',
  default: 'slower than Repack by 17% (Fig. 15)',
  repack: '+26% speedup, -13% memory accesses; predicted 95.5%, verified 24.6% (Fig. 12-13, Table 7)',
  'repack-4': '+7% over Repack (Fig. 15)',
  'oracle-lookup': 'memory savings ~24%, verified ~38% (Fig. 2)',
  'oracle-training': 'memory savings up to 58% (Fig. 2)',
  'oracle-update': '+0.25% savings over OT (Fig. 2)',
};

const pct = (v: number | undefined) => (v === undefined ? '-' : `${(100 * v).toFixed(1)}%`);
const row = (cells: (string | number)[], w = [22, 11, 9, 11, 11, 11, 10, 10, 10, 10, 11]) =>
  console.log(cells.map((c, i) => String(c).padStart(w[i] ?? 10)).join('') + '');

async function main(): Promise<void> {
  console.log(`Intersection predictor (paper 002), mobile, ${width}x${height}, Table 3 defaults (Grid Spherical 5/3 bits, 1024 entries, 4-way, 1 node, LRU, Go Up Level 3, 4 ports)`);
  for (const w of workloads) {
    let image: Buffer | undefined;
    let base: Record<string, number> | undefined;
    console.log(`\n${w}`);
    row(['configuration', 'cycles', 'speedup', 'L1D acc.', 'RT req.', 'RT nodes', 'predicted', 'verified', 'mispred.', 'mem. sav.', 'node sav.']);
    const configs: [string, string[]][] = [
      ...Object.entries(STUDY_BUNDLES.predictor!).map(([k, b]): [string, string[]] => [k, b.overrides]),
      ...[0, 1, 2].map((k): [string, string[]] => [`repack, go up ${k}`, ['gpgpu_rt_predictor=1', `gpgpu_rt_predictor_go_up_level=${k}`]]),
    ];
    for (const [name, overrides] of configs) {
      let sim;
      try {
        sim = await simulateWorkload(w, { width, height, config: 'mobile', overrides });
      } catch (e) {
        console.log(`  skipped: ${(e as Error).message.split('\n')[0]}`);
        break;
      }
      const v = sim.stats.values;
      const img = Buffer.from(sim.prepared.host.output!.levels[0]!.data.buffer);
      image ??= img;
      if (!img.equals(image)) throw new Error(`${w} ${name}: the image differs from the baseline's`);
      base ??= v;
      const nodes = Math.round(v.rt_avg_nodes_per_ray! * v.rt_total_rays!);
      row([name, v.gpu_sim_cycle!, (base.gpu_sim_cycle! / v.gpu_sim_cycle!).toFixed(3), v.L1D_total_cache_accesses!, v.rt_total_requests!, nodes,
        pct(v.rt_predictor_predicted_rate), pct(v.rt_predictor_verified_rate), pct(v.rt_predictor_mispredicted_rate),
        pct(predictorMemorySavings(v, base)), pct(v.rt_predictor_node_fetch_savings)]);
      if (PAPER[name]) console.log(`${''.padStart(22)}paper: ${PAPER[name]}`);
    }
    console.log(`  images identical across all configurations: yes`);
  }
}

await main();
