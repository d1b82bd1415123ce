/**
 * `npm run bench -- sensitivity [--sizes 64,128] [--workers N] [--config X] [--job-dir D]`:
 * issue 26 part 3, the measured effect on cycles of every option the model does not implement,
 * on the calibration frame (LumiBench WKND, 2 spp) on Vulkan-Sim's SM75_RTX2060 file. Writes
 * docs/generated/config-sensitivity.md.
 *
 * Method (an option the model ignores cannot be switched, so its effect is measured through what
 * it would change):
 * - alternative: the closest modelled setting the option's configured value implies (e.g.
 *   dram_data_command_freq_ratio 4 moves 4x the data per DRAM clock -> the same bytes per clock
 *   through gpgpu_dram_buswidth x ratio with the burst length / ratio, so the atom is unchanged);
 *   the effect is cycles(config + alternative) / cycles(config) - 1. It is an estimate of the
 *   option's effect, not the option: the table names the alternative used.
 * - not modelled: no modelled setting expresses it; "not modelled: no effect can be measured"
 *   is written as such, never a reason in place of a figure.
 * - inert: the option cannot change cycles of this workload for a stated structural reason
 *   (statistics output, a PTX front-end switch, shared memory that no ray tracing shader uses, a
 *   feature that is off in the file, a value equal to what the model does).
 * Modelled options are perturbed too (x2 or /2 of the configured value), so the ignored options'
 * effects can be read against the sensitivity of the mechanisms that are modelled.
 * Runs are cached by (commit, config hash, size) in the job directory (bench/jobs/wknd-runs.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/sim/config/gpu-config.js';
import { IGNORED_GPGPUSIM_KEYS } from '../src/sim/config/gpgpusim-ignored-keys.js';
import { ConfigValues, configFile, readConfigKeys } from './microbench/config-values.js';
import { defaultCalibrationConfig } from './microbench/suite.js';
import { commitKey, repoRoot, runWknd, type WkndRun } from './jobs/wknd-runs.js';
import { generatedBegin, generatedEnd } from './docs/generated-blocks.js';

type Treatment =
  | { kind: 'alternative'; overrides: string[]; why: string }
  | { kind: 'not modelled'; why: string }
  | { kind: 'inert'; why: string };

/** Options that cannot change this workload's cycles, by key or key prefix, with the structural reason. */
const INERT: readonly [RegExp, string][] = [
  [/^gpgpu_ptx_|^gpgpu_stack_size_limit$|^gpgpu_heap_size_limit$|^gpgpu_runtime_|^gpgpu_compute_capability_|^save_embedded_ptx$|^keep$|^gpgpu_local_mem_map$|^gpgpu_max_simulated_rt_kernels$/, 'PTX / CUDA front-end or runtime switch: no PTX here'],
  [/^gpgpu_kernel_launch_latency$/, 'Vulkan-Sim\'s gpu_sim_cycle counts the kernel without its launch latency, as vvision does'],
  [/^gpgpu_occupancy_sm_number$|^gpgpu_registers_per_block$|^gpgpu_shader_cta_size$|^gpgpu_shader_registers_per_cta$|^gpgpu_ignore_resources_limitation$|^gpgpu_max_cta$|^gpgpu_concurrent_kernel_sm$/, 'occupancy calculator input; residency limits are gpgpu_shader_registers / gpgpu_shader_cta / gpgpu_shader_core_pipeline'],
  [/shmem|smem|^gpgpu_unified_l1d_size$|^gpgpu_adaptive_cache_config$|dl1Pref/, 'shared memory: no ray tracing shader has a shared-memory instruction'],
  [/^gpgpu_gmem_skip_L1D$/, 'value 0: global accesses go through the L1D, as modelled'],
  [/^gpgpu_coalesce_arch$/, 'the coalescer is the sm_75 one (32 B sectors of 128 B lines)'],
  [/^gpgpu_perf_sim_memcpy$|^gpgpu_flush_l1_cache$|^gpgpu_flush_l2_cache$/, 'one launch from cold caches, as after Vulkan-Sim\'s flush'],
  [/^gpgpu_max_cycle$|^gpgpu_max_insn$|^gpgpu_max_completed_cta$/, 'simulation limit, not reached'],
  [/^enable_ptx_file_line_stats$|^visualizer_|^gpgpu_runtime_stat$|^gpgpu_cflog_interval$|^gpgpu_memlatency_stat$|power|^steady_|wattch|^gpgpu_clock_gated/, 'statistics / power output only'],
  [/^gpgpu_rt_coherence_engine$|^gpgpu_rt_coherence_engine_config$|^gpgpu_simd_rec_time_out$|^gpgpu_simd_st_size$|^gpgpu_simd_rec_size$|^gpgpu_simd_model$/, 'research option off in this file (coherence engine 0; SIMD model without reconvergence table)'],
  [/^ptx_opcode_latency_dp$|^ptx_opcode_initiation_dp$|tensor|tesnor|^trace_opcode_latency_initiation_dp$/, 'no double-precision or tensor-core instruction in these shaders'],
  [/^trace_opcode_latency_initiation_/, 'Accel-Sim trace-driven table; execution-driven runs use ptx_opcode_*'],
  [/^gpgpu_num_rt_core_units$/, 'one RT unit per SM, as modelled'],
];

/** The closest modelled setting an ignored option's configured value implies (undefined: none). */
function alternative(key: string, v: ConfigValues): Treatment | undefined {
  const file = (k: string): string => v.text(k);
  switch (key) {
    case 'dram_data_command_freq_ratio': {
      const r = v.num(key);
      const bl = v.num('gpgpu_dram_burst_length');
      if (r <= 1) return { kind: 'inert', why: 'ratio 1: one beat per command clock, as modelled' };
      return {
        kind: 'alternative', overrides: [`gpgpu_dram_buswidth=${v.num('gpgpu_dram_buswidth') * r}`, `gpgpu_dram_burst_length=${Math.max(1, bl / r)}`],
        why: `${r}x the bytes per DRAM clock: bus width x ${r}, burst length / ${r} (same atom)`,
      };
    }
    case 'gpgpu_perfect_inst_const_cache':
      return v.num(key) === 1
        ? { kind: 'alternative', overrides: ['gpgpu_icache_miss_latency=0'], why: 'a perfect I-cache: misses cost nothing' }
        : { kind: 'inert', why: 'value 0: the I-cache is modelled' };
    case 'gpgpu_l1_banks': {
      const b = v.num(key);
      if (b <= 1) return { kind: 'inert', why: 'one bank: one L1D access per cycle, as modelled' };
      return { kind: 'alternative', overrides: [`gpgpu_num_mem_units=${b}`], why: `${b} L1D accesses per cycle (the conflict-free throughput of ${b} banks; an upper bound)` };
    }
    case 'gpgpu_num_int_units':
      return { kind: 'alternative', overrides: [`gpgpu_num_sp_units=${v.num('gpgpu_num_sp_units') + v.num(key)}`], why: 'separate INT pipes: int and fp ALU ops share the SP pipes here, so their sum' };
    case 'ptx_opcode_latency_fp':
    case 'ptx_opcode_initiation_fp': {
      const intKey = key.replace('_fp', '_int');
      const fp = file(key).split(',').map(Number);
      const int = file(intKey).split(',').map(Number);
      if (fp[0] === int[0]) return { kind: 'inert', why: `fp add ${key.includes('latency') ? 'latency' : 'initiation'} ${fp[0]} equals the modelled ALU class value ${intKey}[0]` };
      return { kind: 'alternative', overrides: [`${intKey}=${[fp[0], ...int.slice(1)].join(',')}`], why: `the ALU class at the fp add value ${fp[0]}` };
    }
    default:
      return undefined;
  }
}

/** Modelled options perturbed for comparison: key and the factor applied to its configured value. */
const MODELLED: readonly [string, number][] = [
  ['gpgpu_l1_latency', 2],
  ['gpgpu_l2_rop_latency', 0.5],
  ['dram_latency', 0.5],
  ['icnt_latency', 2],
  ['gpgpu_rt_max_warps', 2],
  ['gpgpu_rt_intersection_latency', 2],
  ['ptx_opcode_latency_sfu', 0.5],
  ['gpgpu_frfcfs_dram_sched_queue_size', 0.5],
];

const args = process.argv.slice(2);
let sizes = [64, 128];
let workers = 1;
let config = defaultCalibrationConfig();
let jobDir: string | undefined;
let out = join(repoRoot, 'docs', 'generated', 'config-sensitivity.md');
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === '--sizes') sizes = args[++i]!.split(',').map(Number);
  else if (a === '--workers') workers = Number(args[++i]);
  else if (a === '--config') config = args[++i]!;
  else if (a === '--job-dir') jobDir = args[++i]!;
  else if (a === '--out') out = args[++i]!;
  else throw new Error(`sensitivity: unknown argument ${a} (--sizes 64,128 --workers N --config X --job-dir D --out F)`);
}
const cfg = loadConfig(config);
const v = new ConfigValues(cfg, config);
const fileKeys = readConfigKeys(configFile(config));

interface Row { key: string; value: string; treatment: Treatment }
const ignoredRows: Row[] = [];
for (const [key, value] of fileKeys) {
  const reason = IGNORED_GPGPUSIM_KEYS.get(key);
  if (reason === undefined) continue;
  const inert = INERT.find(([re]) => re.test(key));
  const treatment: Treatment = alternative(key, v) ?? (inert ? { kind: 'inert', why: inert[1] } : { kind: 'not modelled', why: reason });
  ignoredRows.push({ key, value, treatment });
}
const modelledRows = MODELLED.map(([key, factor]) => {
  const xs = v.text(key).split(',').map(Number);
  const scaled = xs.map((x) => Math.max(1, Math.round(x * factor)));
  return { key, value: v.text(key), override: `${key}=${scaled.join(',')}`, factor };
});

const spp = 2;
const runs: WkndRun[] = [];
const runIndex = new Map<string, number>();
const want = (size: number, overrides: string[]): void => {
  const k = `${size}|${overrides.join(' ')}`;
  if (runIndex.has(k)) return;
  runIndex.set(k, runs.length);
  runs.push({ config, overrides, width: size, height: size, spp });
};
for (const s of sizes) {
  want(s, []);
  for (const r of ignoredRows) if (r.treatment.kind === 'alternative') want(s, r.treatment.overrides);
  for (const m of modelledRows) want(s, [m.override]);
}
process.stderr.write(`sensitivity: ${runs.length} WKND runs (${sizes.map((s) => `${s}x${s}`).join(', ')}, ${spp} spp), ${workers} worker(s)\n`);
const results = await runWknd(runs, { workers, ...(jobDir ? { jobDir } : {}), log: (s) => process.stderr.write(`  ${s}\n`) });
const cycles = (size: number, overrides: string[]): number => results[runIndex.get(`${size}|${overrides.join(' ')}`)!]!.values.gpu_sim_cycle!;
const effect = (size: number, overrides: string[]): string => {
  const d = cycles(size, overrides) / cycles(size, []) - 1;
  return `${d >= 0 ? '+' : ''}${(100 * d).toFixed(1)}%`;
};
const under1 = (overrides: string[]): string =>
  (sizes.every((s) => Math.abs(cycles(s, overrides) / cycles(s, []) - 1) < 0.01) ? 'yes' : '**no**');

const commit = commitKey();
const cols = sizes.map((s) => `${s}x${s}`);
const lines: string[] = [
  '# Config sensitivity on the calibration frame (generated)',
  '',
  `Generated by \`npm run bench -- sensitivity --sizes ${sizes.join(',')}\`; do not edit. Method: bench/sensitivity.ts (header comment) and docs/calibration.md.`,
  '',
  generatedBegin('config-sensitivity', 'npm run bench -- sensitivity', commit),
  '',
  `LumiBench WKND, ${spp} spp, on \`${configFile(config).replace(/^.*\/(?=[^/]+$)/, '')}\`. Baseline cycles: ${sizes.map((s) => `${s}x${s} ${cycles(s, []).toLocaleString('en-US')}`).join(', ')}.`,
  'Effect = cycles with the alternative / baseline cycles - 1. "under 1%" means at every size run (the bar for listing an option as ignored, issue 26 part 3).',
  '',
  '## Options the model does not implement',
  '',
  `| option | value in the file | treatment | modelled alternative | ${cols.map((c) => `effect ${c}`).join(' | ')} | under 1% |`,
  `|---|---|---|---|${cols.map(() => '---|').join('')}---|`,
];
const order = { alternative: 0, 'not modelled': 1, inert: 2 } as const;
for (const r of [...ignoredRows].sort((a, b) => order[a.treatment.kind] - order[b.treatment.kind] || a.key.localeCompare(b.key))) {
  const t = r.treatment;
  const value = `\`${r.value.length > 40 ? `${r.value.slice(0, 37)}...` : r.value}\``;
  if (t.kind === 'alternative') {
    lines.push(`| ${r.key} | ${value} | measured through an alternative: ${t.why} | \`${t.overrides.map((o) => `--set ${o}`).join(' ')}\` | ${sizes.map((s) => effect(s, t.overrides)).join(' | ')} | ${under1(t.overrides)} |`);
  } else if (t.kind === 'not modelled') {
    lines.push(`| ${r.key} | ${value} | not modelled: no effect can be measured (${t.why}) | — | ${sizes.map(() => 'not measurable').join(' | ')} | unknown |`);
  } else {
    lines.push(`| ${r.key} | ${value} | inert: ${t.why} | — | ${sizes.map(() => '0 (structural)').join(' | ')} | yes |`);
  }
}
lines.push('', '## Modelled options, perturbed for comparison', '',
  `| option | value | perturbed to | ${cols.map((c) => `effect ${c}`).join(' | ')} |`, `|---|---|---|${cols.map(() => '---|').join('')}`);
for (const m of modelledRows) lines.push(`| ${m.key} | \`${m.value}\` | \`${m.override.split('=')[1]}\` (x${m.factor}) | ${sizes.map((s) => effect(s, [m.override])).join(' | ')} |`);
lines.push('', generatedEnd('config-sensitivity'), '');
mkdirSync(join(out, '..'), { recursive: true });
writeFileSync(out, lines.join('\n'));
process.stdout.write(`${lines.join('\n')}\nwrote ${out}\n`);
