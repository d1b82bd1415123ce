/**
 * `npm run bench -- sensitivity [--sizes 64,128] [--workers N] [--config X] [--job-dir D] [--plan]`:
 * issue 26 part 3, the measured effect on cycles of every option of the config file that the
 * model ignores, on the calibration frame (LumiBench WKND, 2 spp) on Vulkan-Sim's SM75_RTX2060
 * file, beside the effect of perturbing options the model does implement. Writes
 * docs/generated/config-sensitivity.md and src/sim/config/presets/ignored-effects.json (the
 * measured figures `vvision sim` prints next to each ignored option in config-ignored.txt).
 *
 * Ignored options (IGNORED_GPGPUSIM_KEYS, as the loader lists them), each in one of three
 * treatments:
 * - alternative: the closest modelled setting the option's configured value implies; the effect is cycles(config + alternative) /
 *   cycles(config) - 1. It estimates the option's effect, it is not the option: the table names
 *   the alternative used.
 * - not modelled: no modelled setting expresses it; the table says "not measurable", never a
 *   reason in place of a figure.
 * - inert: the option cannot change cycles of this workload for a stated structural reason
 *   (statistics output, a PTX front-end switch, shared memory that no ray tracing shader uses, a
 *   feature that is off in the file, a value equal to what the model does).
 * Modelled options are perturbed from their configured value (the options modelled since the
 * first version of this study -- L1D banks, perfect I-cache, DRAM data rate, address mapping,
 * Traversal_data loads -- to the setting the model had before, and a few latencies x2 or /2),
 * so the ignored options' effects can be read against the sensitivity of mechanisms that are
 * modelled.
 * Runs are cached by (code commit, config hash, size) in the job directory (bench/jobs/wknd-runs.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { loadConfig } from '../src/sim/config/gpu-config.js';
import { IGNORED_GPGPUSIM_KEYS } from '../src/sim/config/gpgpusim-ignored-keys.js';
import { IGNORED_EFFECTS_FILE, type IgnoredEffects } from '../src/sim/config/ignored-effects.js';
import { ConfigValues, configFile, readConfigKeys } from './microbench/config-values.js';
import { defaultCalibrationConfig } from './microbench/suite.js';
import { commitKey, describe, repoRoot, runWknd, type WkndRun } from './jobs/wknd-runs.js';
import { generatedBegin, generatedEnd } from './docs/generated-blocks.js';

type Treatment =
  | { kind: 'alternative'; overrides: string[]; why: string }
  | { kind: 'not modelled'; why: string }
  | { kind: 'inert'; why: string };

/** Options that cannot change this workload's cycles, by key or key prefix, with the structural reason. */
const INERT: readonly [RegExp, string][] = [
  [/^gpgpu_ptx_|^gpgpu_stack_size_limit$|^gpgpu_heap_size_limit$|^gpgpu_runtime_sync|^gpgpu_runtime_pending|^gpgpu_compute_capability_|^save_embedded_ptx$|^keep$|^gpgpu_local_mem_map$|^gpgpu_max_simulated_rt_kernels$/, 'PTX / CUDA front-end or runtime switch: no PTX here'],
  [/^gpgpu_kernel_launch_latency$|^gpgpu_TB_launch_latency$/, 'Vulkan-Sim\'s gpu_sim_cycle counts the kernel without its launch latency, as vvision does'],
  [/^gpgpu_occupancy_sm_number$|^gpgpu_registers_per_block$|^gpgpu_shader_cta_size$|^gpgpu_shader_registers_per_cta$|^gpgpu_ignore_resources_limitation$|^gpgpu_max_cta$|^gpgpu_concurrent_kernel_sm$/, 'occupancy calculator input; residency limits are gpgpu_shader_registers / gpgpu_shader_cta / gpgpu_shader_core_pipeline'],
  [/shmem|smem|^gpgpu_unified_l1d_size$|^gpgpu_adaptive_cache_config$|dl1Pref/, 'shared memory: no ray tracing shader has a shared-memory instruction'],
  [/^gpgpu_coalesce_arch$/, 'the coalescer is the sm_75 one (32 B sectors of 128 B lines, per-sector MSHRs)'],
  [/^gpgpu_perf_sim_memcpy$|^gpgpu_flush_l1_cache$|^gpgpu_flush_l2_cache$/, 'one launch from cold caches, as after Vulkan-Sim\'s flush'],
  [/^gpgpu_max_cycle$|^gpgpu_max_insn$|^gpgpu_max_completed_cta$/, 'simulation limit, not reached'],
  [/^enable_ptx_file_line_stats$|^visualizer_|^gpgpu_runtime_stat$|^gpgpu_cflog_interval$|^gpgpu_memlatency_stat$|power|^steady_|wattch|^gpgpu_clock_gated/, 'statistics / power output only'],
  [/^gpgpu_rt_coherence_engine$|^gpgpu_rt_coherence_engine_config$|^gpgpu_simd_rec_time_out$|^gpgpu_simd_st_size$|^gpgpu_simd_rec_size$|^gpgpu_simd_model$/, 'research option off in this file (coherence engine 0; SIMD model without reconvergence table)'],
  [/^ptx_opcode_latency_dp$|^ptx_opcode_initiation_dp$|tensor|tesnor|^trace_opcode_latency_initiation_dp$/, 'no double-precision or tensor-core instruction in these shaders'],
  [/^trace_opcode_latency_initiation_/, 'Accel-Sim trace-driven table; execution-driven runs use ptx_opcode_*'],
  [/^gpgpu_num_rt_core_units$/, 'one RT unit per SM, as modelled'],
  [/^gpgpu_reg_bank_use_warp_id$/, 'Vulkan-Sim\'s operand collector adds the warp id to the register bank whatever this says (opndcoll_rfu_t::init), as modelled'],
  [/^specialized_unit_\d$/, 'no instruction of these shaders goes to a specialized unit'],
  [/^gpgpu_mem_address_mask$|^gpgpu_mem_addr_test$/, 'gpgpu_mem_addr_mapping is given (and modelled): it replaces every mask gpgpu_mem_address_mask sets (GPGPU-Sim addrdec_parseoption); gpgpu_mem_addr_test only checks the mapping'],
];

/** The treatment an ignored option's configured value implies, where it depends on the value (undefined: use INERT / not modelled). */
function byValue(key: string, v: ConfigValues): Treatment | undefined {
  switch (key) {
    case 'gpgpu_tex_cache:l1':
      return { kind: 'inert', why: 'no texture instruction in this frame: Vulkan-Sim\'s own stats count none (gpgpu_n_tex_insn 0, gpgpu_n_mem_texture 0), and vvision\'s shaders sample no image here' };
    case 'gpgpu_inst_fetch_throughput':
      return v.num('gpgpu_perfect_inst_const_cache') === 1 && v.num(key) >= v.num('gpgpu_num_sched_per_core') * v.num('gpgpu_max_insn_issue_per_warp')
        ? { kind: 'inert', why: `with a perfect I-cache every fetch hits, and ${v.num(key)} fetch-decode rounds per cycle (shader_core_ctx::cycle) refill every instruction buffer the ${v.num('gpgpu_num_sched_per_core')} schedulers can empty in a cycle, in that cycle` }
        : undefined;
    case 'gpgpu_gmem_skip_L1D':
      return v.num(key) === 0 ? { kind: 'inert', why: 'value 0: global accesses go through the L1D, as modelled' } : undefined;
    case 'gpgpu_cache:dl2_texture_only':
      return v.num(key) === 0 ? { kind: 'inert', why: 'value 0: the L2 caches every access, as modelled' } : undefined;
    case 'gpgpu_const_cache:l1':
      return v.num('gpgpu_perfect_inst_const_cache') === 1
        ? { kind: 'inert', why: 'gpgpu_perfect_inst_const_cache 1 in this file: every constant-cache access hits, so its geometry is never used' }
        : undefined;
    case 'dram_dual_bus_interface':
    case 'dram_seperate_write_queue_enable':
      return v.num(key) === 0 ? { kind: 'inert', why: 'value 0: off in this file' } : undefined;
    default:
      return undefined;
  }
}

/**
 * A row-interleaved alternative to the file's mapping, with its bit counts: bits 7..0 (burst, the
 * line's column bits, the sub-partition bank bit) stay; above the chip bits come the other bank
 * bits, then the row bits, then the column bits, so consecutive 256 B chunks of a channel go to
 * other banks and rows and no row-buffer hit spans two chunks (close to the map vvision had before
 * gpgpu_mem_addr_mapping was modelled).
 */
function rowInterleaved(mapping: string): string | undefined {
  const m = /^(dramid@\d+;)(.*)$/.exec(mapping.trim());
  if (!m) return undefined;
  const bits = m[2]!.replace(/[.| ]/g, '');
  if (bits.length !== 64) return undefined;
  const low = bits.slice(56); // bits 7..0 stay: burst, the line's column bits and the sub-partition bank bit
  const high = bits.slice(0, 56);
  const count = (c: string): number => [...high].filter((x) => x === c).length;
  const r = count('R');
  const b = count('B');
  const c = count('C') + count('S');
  const used = r + b + c;
  if (used === 0 || count('D') > 0) return undefined;
  // From bit 8 up: the bank bits, then the rows, then the column bits.
  const order = `${'0'.repeat(56 - used)}${'C'.repeat(c)}${'R'.repeat(r)}${'B'.repeat(b)}`;
  const grouped = (order + low).match(/.{8}/g)!.join('.');
  return `${m[1]}${grouped}`;
}

interface Perturbation { key: string; value: string; to: string; note: string }

/** Modelled options perturbed for comparison (undefined where the file's value makes the perturbation meaningless). */
function perturbations(v: ConfigValues): Perturbation[] {
  const out: Perturbation[] = [];
  const add = (key: string, to: string | undefined, note: string): void => {
    if (to !== undefined && to !== v.text(key)) out.push({ key, value: v.text(key), to, note });
  };
  const scaled = (key: string, f: number): string => v.text(key).split(',').map((x) => Math.max(1, Math.round(Number(x) * f))).join(',');
  add('gpgpu_perfect_inst_const_cache', v.num('gpgpu_perfect_inst_const_cache') === 1 ? '0' : '1', 'the I-cache (gpgpu_cache:il1) modelled instead of perfect, or the reverse');
  add('gpgpu_l1_banks', '1', 'one L1D bank: one access per cycle');
  add('dram_data_command_freq_ratio', String(Math.max(1, v.num('dram_data_command_freq_ratio') / 2)), 'half the DRAM data rate per command clock');
  add('gpgpu_mem_addr_mapping', rowInterleaved(v.text('gpgpu_mem_addr_mapping')), 'row-interleaved: the same bits, consecutive 256 B chunks of a channel in other banks and rows (columns at the top)');
  add('gpgpu_rt_traversal_data_loads', v.num('gpgpu_rt_traversal_data_loads') === 1 ? '0' : '1', 'gl_WorldRayOrigin / Direction as registers instead of Traversal_data loads, or the reverse');
  add('gpgpu_l1_latency', scaled('gpgpu_l1_latency', 2), 'x2');
  add('gpgpu_l2_rop_latency', scaled('gpgpu_l2_rop_latency', 0.5), '/2');
  add('dram_latency', scaled('dram_latency', 0.5), '/2');
  add('network_mode', v.num('network_mode') === 2 ? '1' : '2', 'the flit crossbar (per-port flits, icnt_latency each way) instead of GPGPU-Sim\'s local crossbar, or the reverse');
  if (v.num('network_mode') !== 2) add('icnt_latency', scaled('icnt_latency', 2), 'x2');
  add('gpgpu_dram_partition_queues', v.text('gpgpu_dram_partition_queues').split(':').map((x) => Math.max(4, Math.round(Number(x) / 2))).join(':'), '/2');
  add('gpgpu_rt_max_warps', scaled('gpgpu_rt_max_warps', 2), 'x2');
  add('gpgpu_rt_intersection_latency', scaled('gpgpu_rt_intersection_latency', 2), 'x2');
  add('ptx_opcode_latency_sfu', scaled('ptx_opcode_latency_sfu', 0.5), '/2');
  add('ptx_opcode_latency_fp', scaled('ptx_opcode_latency_fp', 2), 'x2');
  add('gpgpu_reg_file_port_throughput', v.num('gpgpu_reg_file_port_throughput') > 1 ? '1' : '2', 'one operand collector step per cycle, or two');
  add('gpgpu_sub_core_model', v.num('gpgpu_sub_core_model') === 1 ? '0' : '1', 'schedulers share every ID_OC slot and register bank, or the reverse');
  add('gpgpu_num_reg_banks', String(Math.max(v.num('gpgpu_num_sched_per_core'), v.num('gpgpu_num_reg_banks') / 2)), '/2');
  add('gpgpu_operand_collector_num_units_gen', v.num('gpgpu_operand_collector_num_units_gen') > 1 ? String(v.num('gpgpu_operand_collector_num_units_gen') / 2) : undefined, '/2');
  add('gpgpu_num_int_units', v.num('gpgpu_num_int_units') > 0 ? '0' : undefined, 'no INT units: integer and untyped ALU ops on the SP units');
  add('gpgpu_frfcfs_dram_sched_queue_size', scaled('gpgpu_frfcfs_dram_sched_queue_size', 0.5), '/2');
  add('gpgpu_dram_return_queue_size', v.num('gpgpu_dram_return_queue_size') > 0 ? scaled('gpgpu_dram_return_queue_size', 0.5) : '96', 'half the DRAM return queue (fewer credits per channel)');
  add('gpgpu_n_cluster_ejection_buffer_size', '1', 'a one-packet ejection FIFO: the cluster takes a reply off the network only once the last has gone to the SM');
  add('gpgpu_n_ldst_response_buffer_size', '1', 'a one-packet LD/ST response queue');
  return out;
}

const args = process.argv.slice(2);
let sizes = [64, 128];
let workers = 1;
let config = defaultCalibrationConfig();
let jobDir: string | undefined;
let out = join(repoRoot, 'docs', 'generated', 'config-sensitivity.md');
let plan = false;
let effectsOut = join(repoRoot, 'src', 'sim', 'config', 'presets', IGNORED_EFFECTS_FILE);
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === '--sizes') sizes = args[++i]!.split(',').map(Number);
  else if (a === '--workers') workers = Number(args[++i]);
  else if (a === '--config') config = args[++i]!;
  else if (a === '--job-dir') jobDir = args[++i]!;
  else if (a === '--out') out = args[++i]!;
  else if (a === '--effects-out') effectsOut = args[++i]!;
  else if (a === '--plan') plan = true;
  else throw new Error(`sensitivity: unknown argument ${a} (--sizes 64,128 --workers N --config X --job-dir D --out F --effects-out F)`);
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
  const treatment: Treatment = byValue(key, v) ?? (inert ? { kind: 'inert', why: inert[1] } : { kind: 'not modelled', why: reason });
  ignoredRows.push({ key, value, treatment });
}
const modelledRows = perturbations(v).map((p) => ({ ...p, override: `${p.key}=${p.to}` }));

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
if (plan) {
  for (const r of ignoredRows) process.stdout.write(`${r.treatment.kind}\t${r.key}\t${r.value}\t${r.treatment.kind === 'alternative' ? r.treatment.overrides.join(' ') : r.treatment.why}\n`);
  for (const r of runs) process.stdout.write(`run\t${r.width}x${r.height}\t${r.overrides.join(' ')}\n`);
  process.exit(0);
}
// Each run on its own, so one that fails (a timing-model deadlock is a modelling bug, issue 26
// part 6) is reported in its cells instead of ending the study; failed runs are not cached.
const log = (s: string): void => void process.stderr.write(`  ${s}\n`);
const outcomes: (number | string)[] = new Array(runs.length);
let next = 0;
await Promise.all(Array.from({ length: Math.max(1, workers) }, async () => {
  while (next < runs.length) {
    const i = next++;
    try {
      const [res] = await runWknd([runs[i]!], { workers: 1, ...(jobDir ? { jobDir } : {}), log });
      outcomes[i] = res!.values.gpu_sim_cycle!;
    } catch (e) {
      const msg = (e as Error).message;
      const dl = /timing model deadlock: .*?now cycle (\d+)/.exec(msg);
      outcomes[i] = dl ? `deadlock at cycle ${Number(dl[1]).toLocaleString('en-US')}` : 'run failed';
      log(`failed  ${describe(runs[i]!)}: ${msg.split('\n').find((l) => /deadlock|Error/.test(l)) ?? msg.split('\n')[0]}`);
    }
  }
}));
const outcome = (size: number, overrides: string[]): number | string => outcomes[runIndex.get(`${size}|${overrides.join(' ')}`)!]!;
const ratio = (size: number, overrides: string[]): number | string => {
  const base = outcome(size, []);
  const o = outcome(size, overrides);
  if (typeof o === 'string') return o;
  if (typeof base === 'string') return `baseline: ${base}`;
  return o / base;
};
const effect = (size: number, overrides: string[]): string => {
  const r = ratio(size, overrides);
  if (typeof r === 'string') return r;
  const d = r - 1;
  return `${d >= 0 ? '+' : ''}${(100 * d).toFixed(1)}%`;
};
const under1 = (overrides: string[]): string => {
  const rs = sizes.map((s) => ratio(s, overrides));
  if (rs.some((r) => typeof r === 'string')) return 'unknown';
  return rs.every((r) => Math.abs((r as number) - 1) < 0.01) ? 'yes' : '**no**';
};

const commit = commitKey();
const cols = sizes.map((s) => `${s}x${s}`);
const lines: string[] = [
  '# Config sensitivity on the calibration frame (generated)',
  '',
  `Generated by \`npm run bench -- sensitivity --sizes ${sizes.join(',')}\`; do not edit. Method: bench/sensitivity.ts (header comment) and docs/calibration.md.`,
  '',
  generatedBegin('config-sensitivity', 'npm run bench -- sensitivity', commit),
  '',
  `LumiBench WKND, ${spp} spp, on \`${configFile(config).replace(/^.*\/(?=[^/]+$)/, '')}\`. Baseline cycles: ${sizes.map((s) => { const b = outcome(s, []); return `${s}x${s} ${typeof b === 'number' ? b.toLocaleString('en-US') : b}`; }).join(', ')}.`,
  'Effect = cycles with the alternative / baseline cycles - 1. "under 1%" means at every size run (the bar for listing an option as ignored, issue 26 part 3). A cell "deadlock at cycle N" is a run the timing model stopped with a deadlock report: no figure, a modelling bug to fix (issue 26 part 6).',
  '',
  '## Options the model ignores (the loader lists them in config-ignored.txt)',
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
const short = (x: string): string => `\`${x.length > 40 ? `${x.slice(0, 37)}...` : x}\``;
for (const m of modelledRows) lines.push(`| ${m.key} | ${short(m.value)} | ${m.to.length > 40 ? `\`--set ${m.override}\`` : short(m.to)} (${m.note}) | ${sizes.map((s) => effect(s, [m.override])).join(' | ')} |`);
lines.push('', generatedEnd('config-sensitivity'), '');
mkdirSync(join(out, '..'), { recursive: true });
writeFileSync(out, lines.join('\n'));

// The measured figures of the ignored options, for config-ignored.txt (src/sim/config/ignored-effects.ts).
const effects: IgnoredEffects = {
  generator: 'npm run bench -- sensitivity',
  commit,
  config: basename(configFile(config)),
  frame: `lumibench-wknd ${spp} spp`,
  effects: Object.fromEntries(ignoredRows.flatMap((r) => (r.treatment.kind === 'alternative'
    ? [[r.key, { alternative: r.treatment.overrides.map((o) => `--set ${o}`).join(' '), sizes: Object.fromEntries(sizes.map((s) => [`${s}x${s}`, effect(s, (r.treatment as { overrides: string[] }).overrides)])) }]]
    : []))),
};
writeFileSync(effectsOut, `${JSON.stringify(effects, null, 2)}\n`);
process.stdout.write(`${lines.join('\n')}\nwrote ${out}\n`);
