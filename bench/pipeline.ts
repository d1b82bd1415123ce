/**
 * End-to-end figures of the issues' benchmarks:
 * - functional simulator on `pt` at 128x128, 2 spp: wall time, thread instructions/s, rays/s;
 * - V-Vision on `pt`: instrumentation overhead (simulated instructions with / without), dump size,
 *   analytics time per million entries, report time, and analytics + report as a share of the
 *   simulation time for `--mode all` (target < 25%);
 * - timing model on `pt` at 128x128, 2 spp, `mobile` (issue 4's anchor): wall time, simulated
 *   cycles, cycles/s, warp instructions/s, peak memory;
 * - instrumentation on the timing model (`instrument --config mobile`) on `pt` 64x64: simulated
 *   cycles with / without instrumentation for simt and for every mode of `all`.
 * `BENCH_QUICK=1` runs smaller frames; `BENCH_ONLY=a,b` picks sections (functional, instrument,
 * timing, overhead).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instrumentWorkload } from '../src/driver/instrument-workload.js';
import { saveInstrumentRun } from '../src/driver/run-dir.js';
import { runWorkload } from '../src/driver/run-workload.js';
import { simulateWorkload } from '../src/driver/simulate-workload.js';
import { OutputDir } from '../src/cli/output-dir.js';
import { writeHtmlReport } from '../src/report/write-report.js';
import { loadNote } from './machine-load.js';

const quick = process.env.BENCH_QUICK === '1';
const size = quick ? 64 : 128;
const only = (process.env.BENCH_ONLY ?? 'functional,instrument,timing,overhead').split(',');
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

if (only.includes('functional')) {
  await runWorkload('pt', { width: 16, height: 16, spp: 1 }); // warm-up: JIT of compiler and core
  const r = await runWorkload('pt', { width: size, height: size, spp: 2 });
  const s = r.timings.simulate / 1000;
  console.log(`functional pt ${size}x${size} 2spp: simulate ${s.toFixed(2)} s (compile ${(r.timings.compile / 1000).toFixed(2)} s, scene+BVH ${(r.timings.scene / 1000).toFixed(2)} s); ${loadNote()}`);
  console.log(`  ${fmt(r.counters.threadInsts)} thread instructions -> ${fmt(r.counters.threadInsts / s)} thread insts/s; ${fmt(r.counters.warpInsts / s)} warp insts/s`);
  console.log(`  ${fmt(r.rt.rays)} rays -> ${fmt(r.rt.rays / s)} rays/s; SIMT efficiency ${(100 * r.counters.activeLanes / (32 * r.counters.warpInsts)).toFixed(1)}%`);
}

if (only.includes('instrument')) {
  const isz = quick ? 32 : 64;
  const base = await runWorkload('pt', { width: isz, height: isz, spp: 1 });
  const all = await instrumentWorkload('pt', 'all', { width: isz, height: isz, spp: 1 });
  const simMs = all.runs.reduce((a, r) => a + r.simulateMs, 0);
  const entries = all.runs.reduce((a, r) => a + r.dump.entryCount, 0);
  for (const r of all.runs) {
    console.log(`instrument pt ${isz}x${isz} ${r.mode}: ${fmt(r.counters.threadInsts)} thread insts (${(100 * (r.counters.threadInsts / base.counters.threadInsts - 1)).toFixed(1)}% over ${fmt(base.counters.threadInsts)} uninstrumented), dump ${fmt(r.dumpBytes.byteLength / 1024)} KiB, ${fmt(r.dump.entryCount)} entries, simulate ${(r.simulateMs / 1000).toFixed(2)} s`);
  }
  const out = new OutputDir(join(mkdtempSync(join(tmpdir(), 'vvision-bench-')), 'pt-all'));
  const t0 = performance.now();
  const data = saveInstrumentRun(out, all);
  await writeHtmlReport(out, data);
  const reportMs = performance.now() - t0;
  out.commit();
  console.log(`  analytics ${all.analyticsMs.toFixed(0)} ms for ${fmt(entries)} entries (${(all.analyticsMs / (entries / 1e6)).toFixed(0)} ms per million entries); report + files ${reportMs.toFixed(0)} ms`);
  console.log(`  analytics + report = ${(100 * (all.analyticsMs + reportMs) / simMs).toFixed(1)}% of simulation time (${(simMs / 1000).toFixed(1)} s; target < 25%); ${loadNote()}`);
  console.log(`  fidelity: dump ${all.fidelity?.fromDump} vs simulator ${all.fidelity?.fromSimulator}: ${all.fidelity?.holds ? 'equal' : 'DIFFERENT'}`);
}

if (only.includes('timing')) {
  const r = await simulateWorkload('pt', { config: 'mobile', width: size, height: size, spp: 2 });
  const v = r.stats.values;
  const s = r.wallMs / 1000;
  console.log(`timing pt ${size}x${size} 2spp mobile: wall ${s.toFixed(1)} s, ${fmt(v.gpu_sim_cycle!)} cycles (${fmt(v.gpu_sim_cycle! / s)} cycles/s), ${fmt(v.gpu_warp_insn!)} warp insts (${fmt(v.gpu_warp_insn! / s)} warp insts/s), ${fmt(v.gpu_sim_insn!)} thread insts (${fmt(v.gpu_sim_insn! / s)}/s), IPC ${v.gpu_ipc!.toFixed(2)}; ${loadNote()}`);
}
if (only.includes('overhead')) {
  // `all` includes simt, so one set of runs gives both figures the issue asks for.
  const osz = quick ? 32 : 64;
  const t0 = performance.now();
  const all = await instrumentWorkload('pt', 'all', { width: osz, height: osz, spp: 1, config: 'mobile' });
  const wall = (performance.now() - t0) / 1000;
  const base = all.timing!.baseline.values;
  const baseCycles = base.gpu_sim_cycle!;
  console.log(`instrument --config mobile pt ${osz}x${osz} 1spp: uninstrumented ${fmt(baseCycles)} cycles, ${fmt(base.gpu_sim_insn!)} thread insts, IPC ${base.gpu_ipc!.toFixed(2)}, L1D miss ${(100 * base.L1D_total_cache_miss_rate!).toFixed(1)}%`);
  let total = 0;
  for (const r of all.runs) {
    const v = r.timing!.values;
    const extra = v.gpu_sim_cycle! - baseCycles;
    total += extra;
    console.log(`  ${r.mode.padEnd(10)} ${fmt(v.gpu_sim_cycle!)} cycles: overhead ${extra >= 0 ? '+' : ''}${fmt(extra)} cycles (${(100 * extra / baseCycles).toFixed(1)}%), ${fmt(v.gpu_sim_insn!)} thread insts (+${(100 * (v.gpu_sim_insn! / base.gpu_sim_insn! - 1)).toFixed(1)}%), IPC ${v.gpu_ipc!.toFixed(2)}, L1D accesses ${fmt(v.L1D_total_cache_accesses!)} (uninstrumented ${fmt(base.L1D_total_cache_accesses!)}), wall ${(r.simulateMs / 1000).toFixed(1)} s`);
  }
  console.log(`  all modes together: overhead ${fmt(total)} cycles over ${all.runs.length} runs; fidelity ${all.fidelity?.holds ? 'equal' : 'DIFFERENT'}; wall ${wall.toFixed(1)} s; ${loadNote()}`);
}

clearInterval(sampler);
// The sampler only runs between synchronous simulations; the OS's high-water mark sees them all.
peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
console.log(`peak RSS ${fmt(peakRss / 2 ** 20)} MiB`);
