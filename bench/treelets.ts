/**
 * Treelet study (paper 001, "Treelet Accelerated Ray Tracing on GPUs"): the baseline RT unit
 * against virtualized treelet queues on the paper's Table 1 GPU (`treelet` preset), without and
 * with warp repacking, naive treelet queues (Fig. 12: no grouping of underpopulated queues), and
 * ray virtualization alone and repacking with nearly free CTA state (to separate its cost). Prints cycles,
 * speedup, memory accesses, SIMT efficiency and cycles / intersection tests per traversal mode
 * beside the paper's figures, and writes the study's HTML page (vvision-out/treelet-study-<workload>).
 *
 *   npx tsx bench/treelets.ts [size] [workload ...]      (default: 64 pt lumibench-wknd)
 *
 * The LumiBench frame runs only when the shared calibration folder is there.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { simulateWorkload } from '../src/driver/simulate-workload.js';
import { calibrationDir } from '../src/sim/workload/load-manifest.js';
import { STAT_META } from '../src/sim/timing/index.js';
import { writeTreeletReport, type TreeletRun } from '../src/report/write-treelet-report.js';
import { OutputDir } from '../src/cli/output-dir.js';
import { imageToPng } from '../src/sim/host/image-png.js';
import { loadNote } from './machine-load.js';

const args = process.argv.slice(2);
const size = args[0] !== undefined && /^\d+$/.test(args[0]) ? Number(args.shift()) : 64;
const workloads = args.length > 0 ? args : ['pt', 'lumibench-wknd'];

const TREELETS = ['rt_ray_virtualization=1', 'rt_treelet_queues=1'];
const VARIANTS: { label: string; set: string[] }[] = [
  { label: 'baseline', set: [] },
  { label: 'ray virtualization only', set: ['rt_ray_virtualization=1'] },
  { label: 'naive treelet queues', set: [...TREELETS, 'rt_treelet_group_underpopulated=0', 'rt_treelet_repack_threshold=0'] },
  { label: 'treelets, no repacking', set: [...TREELETS, 'rt_treelet_repack_threshold=0'] },
  { label: 'treelets, repack 16', set: [...TREELETS, 'rt_treelet_repack_threshold=16'] },
  { label: 'treelets, repack 22', set: [...TREELETS, 'rt_treelet_repack_threshold=22'] },
  // Limit study: what the CTA state traffic of ray virtualization costs (one register, no SIMT stack).
  { label: 'repack 22, CTA state ~free', set: [...TREELETS, 'rt_treelet_repack_threshold=22', 'rt_cta_saved_registers=1', 'rt_cta_simt_stack_bytes=0'] },
];
/** Paper 001 Sec. 6.2-6.3 (averages over LumiBench, 256x256, 1 spp, 3 bounces). */
const PAPER: Record<string, { speedup?: number; simtEfficiency?: number }> = {
  baseline: { speedup: 1, simtEfficiency: 0.37 },
  // Fig. 12: grouping underpopulated queues (threshold 128) is 8x faster than naive treelet queues.
  'naive treelet queues': { speedup: 0.95 / 8 },
  'treelets, no repacking': { speedup: 0.95, simtEfficiency: 0.33 },
  'treelets, repack 16': { speedup: 1.84 },
  'treelets, repack 22': { speedup: 1.95, simtEfficiency: 0.82 },
};

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const pad = (s: string, n: number) => s.padEnd(n);
const num = (v: number | undefined) => (v === undefined ? '-' : Math.round(v).toLocaleString('en-US'));

for (const workload of workloads) {
  if (workload.startsWith('lumibench') && !existsSync(join(calibrationDir(), 'lumibench-wknd'))) {
    process.stdout.write(`${workload}: skipped (no ${join(calibrationDir(), 'lumibench-wknd')})\n`);
    continue;
  }
  process.stdout.write(`\n${workload} ${size}x${size} on the treelet preset (paper 001 Table 1)\n`);
  const runs: TreeletRun[] = [];
  let params = { width: size, height: size, spp: 1 };
  const images: Buffer[] = [];
  for (const v of VARIANTS) {
    const r = await simulateWorkload(workload, { config: 'treelet', overrides: v.set, width: size, height: size });
    params = r.prepared.params;
    const out = r.prepared.host.output;
    if (out) images.push(Buffer.from(imageToPng(out)));
    const l1rt = r.stats.distributions.cacheBreakdown.L1D.rt;
    const l1rtAccesses = l1rt.hit + l1rt.hit_reserved + l1rt.miss_compulsory + l1rt.miss_capacity_conflict + l1rt.miss_sector;
    const values = { ...r.stats.values, rt_l1d_miss_rate: l1rtAccesses > 0 ? (l1rt.miss_compulsory + l1rt.miss_capacity_conflict + l1rt.miss_sector) / l1rtAccesses : 0 };
    runs.push({ label: v.label, values, l1MissRate: r.stats.distributions.rtL1MissRate, intervalCycles: r.stats.distributions.rtOccupancy.intervalCycles });
    process.stdout.write(`  ${v.label}: ${r.stats.values.gpu_sim_cycle} cycles (${(r.wallMs / 1000).toFixed(1)} s; ${loadNote()})\n`);
  }
  const same = images.every((b) => b.equals(images[0]!));
  const base = runs[0]!.values;
  process.stdout.write(`\n  ${pad('variant', 29)}${pad('cycles', 10)}${pad('speedup', 9)}${pad('paper', 7)}${pad('L2 acc', 9)}${pad('DRAM rd', 9)}${pad('RT req', 9)}${pad('RT L1 miss', 11)}${pad('SIMT eff', 10)}${pad('paper', 7)}` +
    `${pad('cycles init/treelet/ray', 25)}tests init/treelet/ray\n`);
  for (const r of runs) {
    const v = r.values;
    const p = PAPER[r.label];
    const share = (k: string) => {
      const xs = ['initial', 'treelet', 'ray'].map((m) => v[`treelet_${k}_${m}`] ?? 0);
      const t = xs.reduce((a, b) => a + b, 0);
      return t > 0 ? xs.map((x) => pct(x / t)).join('/') : '-';
    };
    process.stdout.write(
      `  ${pad(r.label, 29)}${pad(num(v.gpu_sim_cycle), 10)}${pad(((base.gpu_sim_cycle ?? 0) / (v.gpu_sim_cycle || 1)).toFixed(2), 9)}` +
      `${pad(p?.speedup?.toFixed(2) ?? '', 7)}${pad(num(v.L2_total_cache_accesses), 9)}${pad(num(v.dram_reads), 9)}${pad(num(v.rt_total_requests), 9)}${pad(pct(v.rt_l1d_miss_rate ?? 0), 11)}` +
      `${pad((v.rt_simt_efficiency ?? 0).toFixed(2), 10)}${pad(p?.simtEfficiency?.toFixed(2) ?? '', 7)}${pad(share('cycles'), 25)}${share('tests')}\n`,
    );
  }
  const t = runs.find((r) => r.label === 'treelets, repack 22')!.values;
  process.stdout.write(
    `  paper Fig. 14/15: short initial phase, mostly ray-stationary cycles; treelet-stationary tests up to 52% (15% on average)\n` +
    `  repack 22: ${num(t.treelet_activated)} treelets activated (${num(t.treelet_preloaded)} preloaded), ${num(t.treelet_repacks)} repacks, ` +
    `${num(t.treelet_ray_data_loads)} ray-data line loads, CTA state ${num(t.virt_saved_bytes)} B saved / ${num(t.virt_restored_bytes)} B restored, ` +
    `peak ${num(t.virt_peak_suspended)} CTAs terminated\n` +
    `  tables (Sec. 6.5): count table ${num(t.treelet_count_table_bytes)} B (paper 2.2 KB), queue table ${num(t.treelet_queue_table_bytes)} B (paper 6.29 KB); ` +
    `peak ${num(t.treelet_peak_treelets)} treelets / ${num(t.treelet_peak_queue_entries)} queue entries per RT unit, longest hash chain ${num(t.treelet_max_hash_chain)} (paper: 2)\n` +
    `  images identical across variants: ${same ? 'yes' : 'NO'}\n`,
  );
  explain(runs);
  const dir = new OutputDir(`vvision-out/treelet-study-${workload}`);
  writeTreeletReport(dir, { workload, config: 'treelet', params, runs, paper: PAPER, meta: STAT_META });
  process.stdout.write(`  page: ${dir.commit()}/index.html\n`);
  if (!same) process.exitCode = 1;
}

/** What the statistics say about the direction of each result against the paper's. */
function explain(runs: TreeletRun[]): void {
  const by = (l: string) => runs.find((r) => r.label === l)!.values;
  const base = by('baseline');
  const virt = by('ray virtualization only');
  const none = by('treelets, no repacking');
  const r22 = by('treelets, repack 22');
  const free = by('repack 22, CTA state ~free');
  const sp = (v: Record<string, number>) => (base.gpu_sim_cycle ?? 0) / (v.gpu_sim_cycle || 1);
  const rel = (a: number | undefined, b: number | undefined) => `${(100 * ((a ?? 0) / (b || 1) - 1)).toFixed(0)}%`;
  const dir = (ours: number, paper: number) => ((ours - 1) * (paper - 1) > 0 ? 'same direction as the paper' : 'OPPOSITE direction from the paper');
  const tests = (v: Record<string, number>) => {
    const t = (v.treelet_tests_initial ?? 0) + (v.treelet_tests_treelet ?? 0) + (v.treelet_tests_ray ?? 0);
    return t > 0 ? (v.treelet_tests_treelet ?? 0) / t : 0;
  };
  process.stdout.write(
    `  why:\n` +
    `   - without repacking: speedup ${sp(none).toFixed(2)} vs the paper's 0.95 (${dir(sp(none), 0.95)}); with repack 22: ${sp(r22).toFixed(2)} vs 1.95 (${dir(sp(r22), 1.95)})\n` +
    `   - ray virtualization alone: speedup ${sp(virt).toFixed(2)}; it saves ${num(virt.virt_saved_registers)} registers/thread (live across the traceRay), ` +
    `${num(virt.virt_saved_bytes)} B of CTA state stored and reloaded; DRAM reads ${rel(virt.dram_reads, base.dram_reads)}, L2 accesses ${rel(virt.L2_total_cache_accesses, base.L2_total_cache_accesses)} vs the baseline ` +
    `(the treelet preset's L2 is 128 KB, so the state mostly goes to DRAM)\n` +
    `   - with the CTA state made almost free (limit study) repack 22 gives ${sp(free).toFixed(2)} instead of ${sp(r22).toFixed(2)}: ` +
    `saving and restoring the state of terminated CTAs is ${sp(free) > sp(r22) ? 'what turns the result around' : 'not what limits it'}\n` +
    `   - treelet-stationary mode runs ${pct(tests(r22))} of the intersection tests (paper: 15% on average, up to 52%); ${num(r22.treelet_activated)} treelets ` +
    `were activated, queues peaked at ${num(r22.treelet_peak_treelets)} treelets per RT unit: with ${num(r22.rt_total_rays)} rays over the GPU's RT units few queues reach the 128-ray threshold\n` +
    `   - the baseline's RT L1D miss rate is ${pct(base.rt_l1d_miss_rate ?? 0)} (paper, LANDS: ~60%) and its RT SIMT efficiency ${(base.rt_simt_efficiency ?? 0).toFixed(2)} (paper: 0.37): ` +
    `less BVH traffic and less SIMT inefficiency to win back than in the paper's scenes (13 MB to 1 GB BVHs at 256x256)\n` +
    `   - repacking raises RT SIMT efficiency from ${(none.rt_simt_efficiency ?? 0).toFixed(2)} to ${(r22.rt_simt_efficiency ?? 0).toFixed(2)} (paper 0.33 -> 0.82) ` +
    `and speedup from ${sp(none).toFixed(2)} to ${sp(r22).toFixed(2)}; ray-data loads for queued rays: ${num(r22.treelet_ray_data_loads)} lines\n`,
  );
}
