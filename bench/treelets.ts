/**
 * Treelet study (paper 001, "Treelet Accelerated Ray Tracing on GPUs"): the baseline RT unit
 * against virtualized treelet queues on the paper's Table 1 GPU (`treelet` preset; its queue
 * sizes are the rt_treelet_* defaults: 4096 virtual rays per SM, a 600-entry count table, 128
 * queue-table entries of 32 rays, 128-ray queue threshold), at the paper's 1 spp and 3 bounces:
 * without and with warp repacking, naive treelet queues (Fig. 12), ray virtualization alone,
 * repack 22 saving the paper's 10 registers per thread (Sec. 6.5: ptxas's count for LumiBench's
 * raygen) instead of the live words, and repacking with nearly free CTA state (limit study).
 * Prints cycles, speedup, memory accesses, SIMT efficiency and cycles / intersection tests per
 * traversal mode beside the paper's figures, writes the study's HTML page
 * (vvision-out/treelet-study-<workload>) when the runs are simulated now, and with --docs the
 * tables into docs/treelets.md (generated blocks).
 *
 *   npm run bench -- treelets [--size N] [--docs] [workload ...]   (default: 64 pt lumibench-wknd)
 *
 * The paper's scale is 256x256 (`--size 256`: its cost is printed from the 64x64 runs). The
 * LumiBench frame runs only when the shared calibration folder is there. Runs are cached per
 * simulator commit (bench/case-studies/cached-runs.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { calibrationDir } from '../src/sim/workload/load-manifest.js';
import { loadConfig, STAT_META } from '../src/sim/timing/index.js';
import { writeTreeletReport, type TreeletRun } from '../src/report/write-treelet-report.js';
import { OutputDir } from '../src/cli/output-dir.js';
import { caseCommit, caseRun, type CaseResult } from './case-studies/cached-runs.js';
import { costNote, fmt, writeDocBlocks } from './case-studies/doc-blocks.js';

const GENERATOR = 'npm run bench -- treelets --docs';
const args = process.argv.slice(2);
let size = 64;
let docs = false;
const named: string[] = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === '--size') size = Number(args[++i]);
  else if (a === '--docs') docs = true;
  else if (/^\d+$/.test(a)) size = Number(a);
  else if (a.startsWith('-')) throw new Error(`treelets: unknown argument ${a} (--size N --docs workload...)`);
  else named.push(a);
}
const workloads = named.length > 0 ? named : ['pt', 'lumibench-wknd'];
/** Paper 001 Sec. 6: LumiBench at 256x256, 1 spp, 3 bounces. */
const PAPER_RUN = { spp: 1, bounces: 3 };

const TREELETS = ['rt_ray_virtualization=1', 'rt_treelet_queues=1'];
const VARIANTS: { label: string; set: string[] }[] = [
  { label: 'baseline', set: [] },
  { label: 'ray virtualization only', set: ['rt_ray_virtualization=1'] },
  { label: 'naive treelet queues', set: [...TREELETS, 'rt_treelet_group_underpopulated=0', 'rt_treelet_repack_threshold=0'] },
  { label: 'treelets, no repacking', set: [...TREELETS, 'rt_treelet_repack_threshold=0'] },
  { label: 'treelets, repack 16', set: [...TREELETS, 'rt_treelet_repack_threshold=16'] },
  { label: 'treelets, repack 22', set: [...TREELETS, 'rt_treelet_repack_threshold=22'] },
  // The paper's saved state (Sec. 6.5): 10 registers per thread, ptxas's count for LumiBench's raygen.
  { label: "repack 22, paper's 10 registers", set: [...TREELETS, 'rt_treelet_repack_threshold=22', 'rt_cta_saved_registers=10'] },
  // Limit study: what the CTA state traffic of ray virtualization costs (one register, no SIMT stack).
  { label: 'repack 22, CTA state ~free', set: [...TREELETS, 'rt_treelet_repack_threshold=22', 'rt_cta_saved_registers=1', 'rt_cta_simt_stack_bytes=0'] },
];
/** Paper 001 Sec. 6.2-6.3 (averages over LumiBench, 256x256, 1 spp, 3 bounces). */
const PAPER: Record<string, { speedup?: number; simtEfficiency?: number; text?: string }> = {
  baseline: { speedup: 1, simtEfficiency: 0.37 },
  'ray virtualization only': { text: 'alone does not provide much benefit (Sec. 3.1); ~10% overhead (Fig. 16)' },
  // Fig. 12: grouping underpopulated queues (threshold 128) is 8x faster than naive treelet queues.
  'naive treelet queues': { speedup: 0.95 / 8, text: 'grouping is 8x faster (Fig. 12)' },
  'treelets, no repacking': { speedup: 0.95, simtEfficiency: 0.33 },
  'treelets, repack 16': { speedup: 1.84 },
  'treelets, repack 22': { speedup: 1.95, simtEfficiency: 0.82 },
  "repack 22, paper's 10 registers": { speedup: 1.95, text: "the paper's configuration (10 registers, Sec. 6.5)" },
};

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const pad = (s: string, n: number) => s.padEnd(n);
const num = (v: number | undefined) => (v === undefined ? '-' : Math.round(v).toLocaleString('en-US'));

const allResults: CaseResult[] = [];
/** `workload/variant` -> the error of a run that did not finish. */
const failures = new Map<string, string>();
const byWorkload = new Map<string, { runs: TreeletRun[]; results: CaseResult[] }>();

for (const workload of workloads) {
  if (workload.startsWith('lumibench') && !existsSync(join(calibrationDir(), 'lumibench-wknd'))) {
    process.stdout.write(`${workload}: skipped (no ${join(calibrationDir(), 'lumibench-wknd')})\n`);
    continue;
  }
  process.stdout.write(`\n${workload} ${size}x${size} on the treelet preset (paper 001 Table 1), ${PAPER_RUN.spp} spp, ${PAPER_RUN.bounces} bounces\n`);
  const runs: TreeletRun[] = [];
  const results: CaseResult[] = [];
  for (const v of VARIANTS) {
    let r: CaseResult;
    try {
      r = await caseRun({ workload, config: 'treelet', overrides: v.set, width: size, height: size, ...PAPER_RUN }, (s) => {
      const l1rt = s.distributions.cacheBreakdown.L1D.rt;
      const acc = l1rt.hit + l1rt.hit_reserved + l1rt.miss_compulsory + l1rt.miss_capacity_conflict + l1rt.miss_sector;
      return {
        rt_l1d_miss_rate: acc > 0 ? (l1rt.miss_compulsory + l1rt.miss_capacity_conflict + l1rt.miss_sector) / acc : 0,
        l1MissRate: s.distributions.rtL1MissRate, intervalCycles: s.distributions.rtOccupancy.intervalCycles,
      };
    });
    } catch (e) {
      // A variant the timing model cannot finish (a deadlock) is reported, not hidden.
      const message = (e as Error).message.split('\n')[0]!;
      failures.set(`${workload}/${v.label}`, message);
      process.stdout.write(`  ${v.label}: FAILED: ${message}\n`);
      process.exitCode = 1;
      runs.push({ label: v.label, values: {}, l1MissRate: [], intervalCycles: 0 });
      continue;
    }
    results.push(r);
    allResults.push(r);
    runs.push({
      label: v.label, values: { ...r.values, rt_l1d_miss_rate: r.derived.rt_l1d_miss_rate as number },
      l1MissRate: (r.derived.l1MissRate as number[] | undefined) ?? [], intervalCycles: (r.derived.intervalCycles as number | undefined) ?? 0,
    });
    process.stdout.write(`  ${v.label}: ${r.values.gpu_sim_cycle} cycles (${r.cpuSeconds.toFixed(1)} CPU-s${r.cached ? ', cached' : ''})\n`);
  }
  byWorkload.set(workload, { runs, results });
  if (new Set(results.map((r) => r.imageHash).filter((h) => h !== undefined)).size > 1) {
    process.stdout.write(`  images differ across variants: ${results.map((r) => r.imageHash).join(', ')}\n`);
    process.exitCode = 1;
  }
  const base = runs[0]!.values;
  process.stdout.write(`\n  ${pad('variant', 33)}${pad('cycles', 10)}${pad('speedup', 9)}${pad('paper', 7)}${pad('L2 acc', 9)}${pad('DRAM rd', 9)}${pad('RT req', 9)}${pad('RT L1 miss', 11)}${pad('SIMT eff', 10)}${pad('paper', 7)}` +
    `${pad('cycles init/treelet/ray', 25)}tests init/treelet/ray\n`);
  for (const r of runs) {
    const v = r.values;
    const p = PAPER[r.label];
    process.stdout.write(
      `  ${pad(r.label, 33)}${pad(num(v.gpu_sim_cycle), 10)}${pad(((base.gpu_sim_cycle ?? 0) / (v.gpu_sim_cycle || 1)).toFixed(2), 9)}` +
      `${pad(p?.speedup?.toFixed(2) ?? '', 7)}${pad(num(v.L2_total_cache_accesses), 9)}${pad(num(v.dram_reads), 9)}${pad(num(v.rt_total_requests), 9)}${pad(pct(v.rt_l1d_miss_rate ?? 0), 11)}` +
      `${pad((v.rt_simt_efficiency ?? 0).toFixed(2), 10)}${pad(p?.simtEfficiency?.toFixed(2) ?? '', 7)}${pad(shares(v, 'cycles'), 25)}${shares(v, 'tests')}\n`,
    );
  }
  if (results.every((r) => !r.cached)) {
    const dir = new OutputDir(`vvision-out/treelet-study-${workload}`);
    writeTreeletReport(dir, { workload, config: 'treelet', params: results[0]!.params, runs, paper: PAPER, meta: STAT_META });
    process.stdout.write(`  page: ${dir.commit()}/index.html\n`);
  }
}

function shares(v: Record<string, number>, k: string): string {
  const xs = ['initial', 'treelet', 'ray'].map((m) => v[`treelet_${k}_${m}`] ?? 0);
  const t = xs.reduce((a, b) => a + b, 0);
  return t > 0 ? xs.map((x) => pct(x / t)).join(' / ') : '—';
}

/** The results table (one column per workload) and the stats the doc's explanations quote. */
function docTables(): Record<string, string> {
  const ws = [...byWorkload.keys()];
  const col = (w: string, label: string) => byWorkload.get(w)!.runs.find((r) => r.label === label)!.values;
  const sp = (w: string, label: string) => (col(w, label).gpu_sim_cycle ? (col(w, 'baseline').gpu_sim_cycle! / col(w, label).gpu_sim_cycle!).toFixed(2) : 'failed');
  const p = byWorkload.get(ws[0]!)!.results[0]!.params;
  const head = `| variant | ${ws.map((w) => `\`${w}\``).join(' | ')} | paper |\n|---|${ws.map(() => '---|').join('')}---|`;
  const rows = VARIANTS.map((v) => {
    const paper = PAPER[v.label];
    const paperText = v.label === 'baseline' ? '' : [paper?.speedup !== undefined ? paper.speedup.toFixed(2) : '', paper?.text ?? ''].filter(Boolean).join(': ');
    return v.label === 'baseline'
      ? `| baseline (cycles) | ${ws.map((w) => fmt(col(w, 'baseline').gpu_sim_cycle)).join(' | ')} | |`
      : `| ${v.label} | ${ws.map((w) => sp(w, v.label)).join(' | ')} | ${paperText} |`;
  });
  const simt = (w: string) => ['baseline', 'treelets, no repacking', 'treelets, repack 22'].map((l) => fmt(col(w, l).rt_simt_efficiency, 2)).join(' / ');
  const tests = (w: string) => {
    const v = col(w, 'treelets, repack 22');
    const t = (v.treelet_tests_initial ?? 0) + (v.treelet_tests_treelet ?? 0) + (v.treelet_tests_ray ?? 0);
    return t > 0 ? pct((v.treelet_tests_treelet ?? 0) / t) : '—';
  };
  rows.push(`| RT SIMT efficiency: baseline / no repack / repack 22 | ${ws.map(simt).join(' | ')} | 0.37 / 0.33 / 0.82 |`);
  rows.push(`| treelet-stationary share of intersection tests (repack 22) | ${ws.map(tests).join(' | ')} | 15% average, up to 52% |`);
  rows.push(`| cycles initial / treelet / ray-stationary (repack 22) | ${ws.map((w) => shares(col(w, 'treelets, repack 22'), 'cycles')).join(' | ')} | short initial, mostly ray-stationary |`);
  const results = `${p.width}x${p.height}, ${p.spp} spp, ${p.bounces ?? '?'} bounces, \`treelet\` preset (${loadConfig('treelet').numSms} SMs); speedup = baseline cycles / variant cycles. ` +
    `The paper: LumiBench at 256x256, 1 spp, 3 bounces (averages).\n\n${head}\n${rows.join('\n')}`;

  const rel = (a: number | undefined, b: number | undefined) => `${(a ?? 0) / (b || 1) - 1 >= 0 ? '+' : ''}${(100 * ((a ?? 0) / (b || 1) - 1)).toFixed(0)}%`;
  const ran = (w: string, label: string) => col(w, label).gpu_sim_cycle !== undefined;
  const statRows = ws.map((w) => {
    const base = col(w, 'baseline');
    const virt = col(w, 'ray virtualization only');
    const r22 = col(w, 'treelets, repack 22');
    const ten = col(w, "repack 22, paper's 10 registers");
    const r22ran = ran(w, 'treelets, repack 22');
    const failed = 'failed';
    return `| \`${w}\` | ${fmt(virt.virt_saved_registers)} (repack 22: ${r22ran ? `${sp(w, 'treelets, repack 22')}x` : failed}) | ${ran(w, "repack 22, paper's 10 registers") ? `${fmt(ten.virt_saved_registers)} (${sp(w, "repack 22, paper's 10 registers")}x)` : failed} | ` +
      `${fmt(virt.virt_saved_bytes)} B / ${r22ran ? `${fmt(r22.virt_saved_bytes)} B` : failed} | ${rel(virt.dram_reads, base.dram_reads)} / ${r22ran ? rel(r22.dram_reads, base.dram_reads) : failed} | ${rel(virt.L2_total_cache_accesses, base.L2_total_cache_accesses)} | ` +
      `${pct(base.rt_l1d_miss_rate ?? 0)} | ${fmt(base.rt_total_rays)} | ${r22ran ? `${fmt(r22.treelet_activated)} / peak ${fmt(r22.treelet_peak_treelets)}` : failed} | ${r22ran ? fmt(r22.treelet_repacks) : failed} | ${r22ran ? fmt(r22.treelet_ray_data_loads) : failed} | ${ran(w, 'repack 22, CTA state ~free') ? `${sp(w, 'repack 22, CTA state ~free')}x` : failed} |`;
  });
  const stats = `From the same runs. Registers saved per thread: the words live across the raygen's traceRay (default; \`virt_saved_registers\` of the ray-virtualization-only run) against the paper's 10; CTA state: bytes stored ` +
    `by ray virtualization alone / with repack 22 (as many are reloaded); DRAM reads and L2 accesses against the baseline.\n\n` +
    `| workload | registers saved, default (repack 22 speedup) | with the paper's 10 | CTA state saved: virt. only / repack 22 | DRAM reads: virt. only / repack 22 | L2 accesses, virt. only | baseline RT L1D miss rate | rays | treelets activated / peak queued per RT unit (repack 22) | repacks | ray-data line loads | CTA state ~free: speedup |\n` +
    `|---|---|---|---|---|---|---|---|---|---|---|---|\n${statRows.join('\n')}\n\n${costNote(allResults)}. The paper's 256x256: about ${fmt(allResults.reduce((a, r) => a + r.cpuSeconds, 0) * (256 * 256) / (p.width * p.height) / 3600, 1)} CPU-hours for these ${allResults.length} runs (linear in pixels, estimated).`;
  const failed = [...failures].map(([k, m]) => `- \`${k}\` did not finish: ${m}`).join('\n');
  return {
    'treelets-results': failed ? `${results}\n\nRuns that did not finish ("failed" above), a defect of the timing model to fix, not a result:\n\n${failed}` : results,
    'treelets-stats': stats, 'treelets-why': why(ws, col, sp),
  };
}

/**
 * The explanations docs/treelets.md gives, each with the stat that supports it, worded from the
 * runs (a direction that flips after a model change flips the sentence).
 */
function why(ws: string[], col: (w: string, label: string) => Record<string, number>, sp: (w: string, label: string) => string): string {
  const dir = (ours: number, paper: number) => ((ours - 1) * (paper - 1) > 0 ? "the paper's direction" : "the opposite of the paper's direction");
  const rel = (a: number | undefined, b: number | undefined) => `${(a ?? 0) / (b || 1) - 1 >= 0 ? '+' : ''}${(100 * ((a ?? 0) / (b || 1) - 1)).toFixed(0)}%`;
  return ws.map((w) => {
    const base = col(w, 'baseline');
    const virt = col(w, 'ray virtualization only');
    const r22 = col(w, 'treelets, repack 22');
    const none = col(w, 'treelets, no repacking');
    const ten = col(w, "repack 22, paper's 10 registers");
    const n = (l: string) => Number(sp(w, l));
    const t = (r22.treelet_tests_initial ?? 0) + (r22.treelet_tests_treelet ?? 0) + (r22.treelet_tests_ray ?? 0);
    const rtUnits = loadConfig('treelet').numSms;
    const ok = (l: string) => col(w, l).gpu_sim_cycle !== undefined;
    if (!ok('treelets, repack 22') || !ok('treelets, no repacking')) {
      const failed = VARIANTS.filter((x) => !ok(x.label)).map((x) => x.label);
      return [
        `**\`${w}\`**: ${failed.map((l) => `"${l}"`).join(', ')} did not finish (timing-model deadlock, listed under the results): no treelet-queue result to compare with the paper's.`,
        `- Saved state: vvision saves the ${fmt(virt.virt_saved_registers)} register words live across the raygen's traceRay (\`virt_saved_registers\`, ray virtualization alone), ${(virt.virt_saved_registers ?? 0) > 10 ? 'more' : (virt.virt_saved_registers ?? 0) < 10 ? 'fewer' : 'as many'} than the paper's 10 (Sec. 6.5)` +
          `${ok("repack 22, paper's 10 registers") ? `; with 10, repack 22 gives ${sp(w, "repack 22, paper's 10 registers")}x (paper 1.95x)` : ''}.`,
        `- Ray virtualization alone: ${sp(w, 'ray virtualization only')}x (paper: "alone does not provide much benefit"); it stores ${fmt(virt.virt_saved_bytes)} B of CTA state (\`virt_saved_bytes\`, as many reloaded), DRAM reads ${rel(virt.dram_reads, base.dram_reads)} and L2 accesses ${rel(virt.L2_total_cache_accesses, base.L2_total_cache_accesses)} against the baseline.`,
        `- Room to win: the baseline's RT L1D miss rate is ${pct(base.rt_l1d_miss_rate ?? 0)} (paper, LANDS: ~60%) and its RT SIMT efficiency ${fmt(base.rt_simt_efficiency, 2)} (paper 0.37); ${fmt(base.rt_total_rays)} rays over ${rtUnits} RT units against a 128-ray queue threshold.`,
      ].join('\n');
    }
    const lines = [
      `**\`${w}\`**: without repacking ${sp(w, 'treelets, no repacking')}x (${dir(n('treelets, no repacking'), 0.95)}; paper 0.95x), repack 22 ${sp(w, 'treelets, repack 22')}x (${dir(n('treelets, repack 22'), 1.95)}; paper 1.95x).`,
      `- Saved state: vvision saves the ${fmt(r22.virt_saved_registers)} register words live across the raygen's traceRay (\`virt_saved_registers\`), ${(r22.virt_saved_registers ?? 0) > 10 ? 'more' : (r22.virt_saved_registers ?? 0) < 10 ? 'fewer' : 'as many'} than the paper's 10 (Sec. 6.5). ` +
        `With 10 (\`rt_cta_saved_registers=10\`) repack 22 gives ${sp(w, "repack 22, paper's 10 registers")}x instead of ${sp(w, 'treelets, repack 22')}x; CTA state stored ${fmt(ten.virt_saved_bytes)} B instead of ${fmt(r22.virt_saved_bytes)} B (\`virt_saved_bytes\`, as many reloaded).`,
      `- Ray virtualization alone: ${sp(w, 'ray virtualization only')}x; DRAM reads ${rel(virt.dram_reads, base.dram_reads)}, L2 accesses ${rel(virt.L2_total_cache_accesses, base.L2_total_cache_accesses)} against the baseline (\`dram_reads\`, \`L2_total_cache_accesses\`; the preset's L2 is 128 KB). ` +
        `With the CTA state made almost free (limit study) repack 22 gives ${sp(w, 'repack 22, CTA state ~free')}x: the state traffic ${n('repack 22, CTA state ~free') > 1 && n('treelets, repack 22') <= 1 ? 'is what turns the result into a slowdown' : n('repack 22, CTA state ~free') > n('treelets, repack 22') ? 'costs part of the result' : 'is not what limits it'}.`,
      `- Queues: ${fmt(base.rt_total_rays)} rays over ${rtUnits} RT units (${fmt(Math.round((base.rt_total_rays ?? 0) / rtUnits))} each, against a 128-ray queue threshold); queues peaked at ${fmt(r22.treelet_peak_treelets)} treelets per RT unit; ` +
        `treelet-stationary mode ran ${t > 0 ? pct((r22.treelet_tests_treelet ?? 0) / t) : '—'} of the intersection tests (\`treelet_tests_treelet\`; paper 15% on average, up to 52%).`,
      `- Room to win: the baseline's RT L1D miss rate is ${pct(base.rt_l1d_miss_rate ?? 0)} (paper, LANDS: ~60%) and its RT SIMT efficiency ${fmt(base.rt_simt_efficiency, 2)} (paper 0.37). ` +
        `Repacking takes it from ${fmt(none.rt_simt_efficiency, 2)} to ${fmt(r22.rt_simt_efficiency, 2)} (paper 0.33 -> 0.82) with ${fmt(r22.treelet_repacks)} repacks and ${fmt(r22.treelet_ray_data_loads)} ray-data line loads.`,
    ];
    return lines.join('\n');
  }).join('\n\n');
}

const tables = docTables();
process.stdout.write(`\n${tables['treelets-results']}\n\n${tables['treelets-stats']}\n`);
if (docs) {
  const path = writeDocBlocks('treelets.md', GENERATOR, caseCommit, tables);
  process.stdout.write(`treelets: wrote ${path} at ${caseCommit}\n`);
}
