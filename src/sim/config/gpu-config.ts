/**
 * The typed GPU configuration the timing model reads, built from declared defaults, a preset or
 * config file, and `--set` overrides (in that order; later wins). `loadConfig` is the one entry
 * point: a preset name (`baseline`, `mobile`, `treelet`, `predictor`, `rtx2060`) or a path to a
 * gpgpusim.config-style file.
 *
 * Invariants: every field is validated at load time (a bad value is a ConfigError naming the key
 * and where it came from), so the timing model never re-checks configuration.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CacheGeometry, parseCacheConfig } from './cache-config.js';
import { ConfigError } from './config-error.js';
import { type RawSetting, applyOverrides, readConfigText } from './config-file.js';
import { type DramTiming, parseDramTiming } from './dram-timing.js';
import { parseAddressMapping } from './address-mapping.js';
import { MAX_INT_PARAM, PARAMS, type ParamDecl, findParam } from './params.js';
import type { PredictorConfig, RayHashFunction, ReplacementPolicy } from './predictor-config.js';

/** gpgpu_rt_thread_state: where the RT pipeline's per-thread state lives (src/sim/timing/rt-thread-state.ts). */
export type RtThreadStateMode = 'per_thread' | 'interleaved';

export interface GpuConfig {
  /** The preset or file it came from, plus overrides, for reports. */
  source: string;
  numSms: number;
  warpSize: number;
  maxWarpsPerSm: number;
  maxCtasPerSm: number;
  registersPerSm: number;
  registersPerThread: number;
  clocks: { coreMhz: number; icntMhz: number; l2Mhz: number; dramMhz: number };
  schedulersPerSm: number;
  scheduler: 'gto' | 'lrr';
  maxIssuePerWarp: number;
  units: { sp: number; sfu: number; mem: number; int: number; dp: number };
  /** Indexed by OpClass (warp-step.ts): Alu, Sfu, Memory, Texture, Rt, Control, Register (Alu and Sfu instructions are timed by ptxLatency instead). */
  opLatency: number[];
  opInitiation: number[];
  /** Latency and initiation interval per PTX op (ptx-op.ts), from the ptx_opcode_* lists. */
  ptxLatency: number[];
  ptxInitiation: number[];
  /** The issue stage between the schedulers and the units (operand-collector.ts). */
  issue: IssueStageConfig;
  ldstQueueSize: number;
  il1: CacheGeometry;
  icacheMissLatency: number;
  /** gpgpu_perfect_inst_const_cache: every instruction fetch hits. */
  perfectInstCache: boolean;
  l1d: CacheGeometry;
  l1Latency: number;
  /** gpgpu_l1_banks, its interleaving (bytes) and bank hash. */
  l1Banks: { count: number; interleaveBytes: number; hash: 'linear' | 'xor' | 'ipoly' };
  l2: CacheGeometry;
  l2Latency: number;
  /** gpgpu_dram_partition_queues: the queues of a memory sub-partition (memory-partition.ts). */
  partitionQueues: { icntToL2: number; l2ToDram: number; dramToL2: number; l2ToIcnt: number };
  /** The interconnect: `mode` 1 the flit crossbar, 2 GPGPU-Sim's local crossbar (network.ts). */
  icnt: { mode: 1 | 2; latency: number; flitBytes: number; bufferPackets: number; outBufferPackets: number; arbiter: 0 | 1; grantCycles: number };
  /** The reply path into an SM (reply-ejection.ts): the cluster's ejection FIFO and the LD/ST unit's response queue, in packets. */
  ejection: { clusterBuffer: number; ldstResponseBuffer: number };
  numMemChannels: number;
  subPartitionsPerChannel: number;
  dram: DramTiming & {
    busBytesPerChip: number; chipsPerChannel: number; burstLength: number; dataCommandRatio: number;
    frfcfs: boolean; queueSize: number; returnLatency: number;
    /** gpgpu_dram_return_queue_size (0 = unlimited). */
    returnQueueSize: number;
    /** dram_bnkgrp_indexing_policy: 0 higher bank bits, 1 lower. */
    bankGroupIndexing: number;
    /** false under dram_elimnate_rw_turnaround. */
    rwTurnaround: boolean;
  };
  /** gpgpu_mem_addr_mapping and the partition / bank index hashes (address-map.ts). */
  addressMapping: { mapping: string; partitionIndexing: number; bankIndexing: number; rowLayoutChannels: number };
  perfectMem: boolean;
  rt: {
    maxWarps: number; maxMshr: number; memQueueSize: number;
    /** Requests sent and not yet answered that the RT unit's response FIFO can hold; 0 = unbounded (Vulkan-Sim). */
    responseFifoSize: number;
    /** structure, internal, instance leaf, primitive leaf descriptor, quad leaf, quad leaf hit, procedural leaf. */
    latency: number[];
    opUnits: number; stackEntries: number; threadState: RtThreadStateMode; scheduler: 'access' | 'warp'; intersectionTableStores: boolean; cacheHitLatency: number; useL1: boolean; rtCache: CacheGeometry; disableRtCache: boolean; perfectMem: boolean;
    coalesceWarps: boolean; chunkBytes: number;
    /** gpgpu_rt_traversal_data_loads: gl_WorldRayOrigin / Direction are global loads from Traversal_data. */
    traversalDataLoads: boolean;
    predictor: PredictorConfig;
  };
  /** Virtualized treelet queues (paper 001); see params.ts `rt_ray_virtualization` / `rt_treelet_*`. */
  treelet: TreeletConfig;
  statsSampleInterval: number;
  /** Between two launches of a multi-frame run: invalidate the L1D / RT caches, the L2 (gpgpu_flush_l1_cache / gpgpu_flush_l2_cache). */
  flushL1: boolean;
  flushL2: boolean;
  /** Cycles without progress after which the run stops as deadlocked; Infinity when detection is off. */
  deadlockWindow: number;
  /** Every parameter's final raw text, by name (for dumps and reproducibility). */
  raw: Record<string, string>;
  /** GPGPU-Sim options in the file that this model does not have, as `file:line: key`. */
  ignored: string[];
}

export interface TreeletConfig {
  virtualization: boolean;
  raysPerSm: number;
  /** Registers saved per thread of a terminated CTA; 0 = the values live across the traceRay (else gpgpu_registers_per_thread). */
  savedRegisters: number;
  simtStackBytes: number;
  queues: boolean;
  l1Fraction: number;
  divergenceThreshold: number;
  queueThreshold: number;
  groupUnderpopulated: boolean;
  repackThreshold: number;
  preload: boolean;
  preloadThreshold: number;
  countTableEntries: number;
  queueTableEntries: number;
  rayBytes: number;
}

export const PRESETS = ['baseline', 'mobile', 'treelet', 'predictor', 'rtx2060'] as const;

function presetDir(): string {
  return join(dirname(fileURLToPath(import.meta.url)), 'presets');
}

export function presetPath(name: string): string {
  return join(presetDir(), `${name}.config`);
}

/** Loads a preset by name or a gpgpusim.config-style file, then applies `key=value` overrides. */
export function loadConfig(presetOrPath: string, overrides: readonly string[] = []): GpuConfig {
  const isPreset = (PRESETS as readonly string[]).includes(presetOrPath);
  const path = isPreset ? presetPath(presetOrPath) : presetOrPath;
  if (!existsSync(path)) {
    throw new ConfigError(`no preset or config file "${presetOrPath}" (presets: ${PRESETS.join(', ')})`, presetOrPath);
  }
  const ignored: string[] = [];
  const raw = readConfigText(readFileSync(path, 'utf8'), path, new Map(), ignored);
  applyOverrides(overrides, raw);
  const source = overrides.length ? `${presetOrPath} ${overrides.map((o) => `--set ${o}`).join(' ')}` : presetOrPath;
  return { ...buildGpuConfig(raw, source), ignored };
}

/** Builds a config from config-file text (and overrides) without touching the file system. */
export function configFromText(text: string, overrides: readonly string[] = [], file = '<config>'): GpuConfig {
  const ignored: string[] = [];
  const raw = readConfigText(text, file, new Map(), ignored);
  applyOverrides(overrides, raw);
  return { ...buildGpuConfig(raw, file), ignored };
}

export function buildGpuConfig(settings: Map<string, RawSetting>, source: string): GpuConfig {
  const rawText = (name: string): [string, string | undefined] => {
    const s = settings.get(name);
    return s ? [s.value, s.origin] : [decl(name).default, undefined];
  };
  const fail = (name: string, origin: string | undefined, why: string): never => {
    const [file, line] = splitOrigin(origin);
    throw new ConfigError(`${name}: ${why}`, name, file, line);
  };
  const int = (name: string, min = 0): number => {
    const [v, o] = rawText(name);
    const n = Number(v);
    const own = decl(name).max;
    if (!Number.isInteger(n) || n < min) fail(name, o, `"${v}" is not an integer >= ${min}`);
    if (n > (own ?? MAX_INT_PARAM)) {
      fail(name, o, `${v} is over ${own ?? MAX_INT_PARAM}, the largest value vvision accepts for it (${own !== undefined ? "about ten times the largest real GPU's; params.ts declares it" : 'a 32-bit signed integer'})`);
    }
    const d = decl(name);
    if (d.choices && !d.choices.includes(String(n))) fail(name, o, `${n} is not one of ${d.choices.join(', ')} (the values this model implements)`);
    return n;
  };
  const pow2 = (name: string): number => {
    const n = int(name, 1);
    if ((n & (n - 1)) !== 0) fail(name, rawText(name)[1], `${n} is not a power of two`);
    return n;
  };
  const bool = (name: string): boolean => {
    const [v, o] = rawText(name);
    if (v !== '0' && v !== '1') fail(name, o, `"${v}" is not 0 or 1`);
    return v === '1';
  };
  const list = (name: string): number[] => {
    const [v, o] = rawText(name);
    const d = decl(name);
    const xs = v.split(',').map((s) => Number(s.trim()));
    if (xs.some((x) => !Number.isInteger(x) || x < 0)) fail(name, o, `"${v}" is not a list of non-negative integers`);
    if (d.listLength !== undefined && !d.listLength.includes(xs.length)) fail(name, o, `expects ${d.listLength.join(' or ')} comma-separated values, got ${xs.length}`);
    return xs;
  };
  const fraction = (name: string): number => {
    const [v, o] = rawText(name);
    const x = Number(v);
    if (!(x > 0 && x <= 1)) fail(name, o, `"${v}" is not a number in (0, 1]`);
    return x;
  };
  const float = (name: string): number => {
    const [v, o] = rawText(name);
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < 0) fail(name, o, `"${v}" is not a non-negative number`);
    return n;
  };
  const str = (name: string): string => {
    const [v, o] = rawText(name);
    const d = decl(name);
    if (d.choices && !d.choices.includes(v)) fail(name, o, `"${v}" is not one of ${d.choices.join(', ')}`);
    return v;
  };
  const withOrigin = <T>(name: string, parse: (v: string) => T): T => {
    const [v, o] = rawText(name);
    try {
      return parse(v);
    } catch (e) {
      if (e instanceof ConfigError) fail(name, o, e.message.replace(`${name}: `, ''));
      throw e;
    }
  };

  const pipeline = withOrigin('gpgpu_shader_core_pipeline', (v) => {
    const [t, w] = v.split(':').map(Number);
    if (!Number.isInteger(t) || !Number.isInteger(w) || t! <= 0 || w! <= 0 || t! % w! !== 0) {
      throw new ConfigError(`"${v}" is not <threads>:<warp size> with threads a multiple of the warp size`);
    }
    return { threads: t!, warp: w! };
  });
  if (pipeline.warp !== 32) fail('gpgpu_shader_core_pipeline', rawText('gpgpu_shader_core_pipeline')[1], 'only 32-lane warps are supported (the warp-step contract uses 32-bit lane masks)');
  const clocks = withOrigin('gpgpu_clock_domains', (v) => {
    const xs = v.split(':').map(Number);
    if (xs.length !== 4 || xs.some((x) => !(x > 0))) throw new ConfigError(`"${v}" is not <core>:<icnt>:<l2>:<dram> MHz`);
    return { coreMhz: xs[0]!, icntMhz: xs[1]!, l2Mhz: xs[2]!, dramMhz: xs[3]! };
  });
  const partitionQueues = withOrigin('gpgpu_dram_partition_queues', (v) => {
    const xs = v.split(':').map(Number);
    if (xs.length !== 4 || xs.some((x) => !Number.isInteger(x) || x < 4 || x > 1048576)) {
      throw new ConfigError(`"${v}" is not <icnt-to-L2>:<L2-to-DRAM>:<DRAM-to-L2>:<L2-to-icnt>, four integers from 4 to 1048576`);
    }
    return { icntToL2: xs[0]!, l2ToDram: xs[1]!, dramToL2: xs[2]!, l2ToIcnt: xs[3]! };
  });
  const intLat = list('ptx_opcode_latency_int');
  const intIni = list('ptx_opcode_initiation_int');
  const sfuLat = int('ptx_opcode_latency_sfu', 1);
  const sfuIni = int('ptx_opcode_initiation_sfu', 1);
  const ctl = int('gpgpu_control_latency', 1);
  const reg = int('gpgpu_register_op_latency', 1);
  const rtLatency = list('gpgpu_rt_intersection_latency');

  const raw: Record<string, string> = {};
  for (const d of PARAMS) raw[d.name] = rawText(d.name)[0];

  return {
    source,
    numSms: int('gpgpu_n_clusters', 1) * int('gpgpu_n_cores_per_cluster', 1),
    warpSize: pipeline.warp,
    maxWarpsPerSm: pipeline.threads / pipeline.warp,
    maxCtasPerSm: int('gpgpu_shader_cta', 1),
    registersPerSm: int('gpgpu_shader_registers', 1),
    registersPerThread: int('gpgpu_registers_per_thread', 1),
    clocks,
    schedulersPerSm: int('gpgpu_num_sched_per_core', 1),
    scheduler: str('gpgpu_scheduler') as 'gto' | 'lrr',
    maxIssuePerWarp: int('gpgpu_max_insn_issue_per_warp', 1),
    units: {
      sp: int('gpgpu_num_sp_units', 1), sfu: int('gpgpu_num_sfu_units', 1), mem: int('gpgpu_num_mem_units', 1),
      int: int('gpgpu_num_int_units'), dp: int('gpgpu_num_dp_units'),
    },
    // Memory / texture / RT instructions occupy the issue slot for one cycle; their real latency
    // comes from the memory system and the RT unit.
    opLatency: [Math.max(1, intLat[0]!), sfuLat, 1, 1, 1, ctl, reg],
    opInitiation: [Math.max(1, intIni[0]!), sfuIni, 1, 1, 1, 1, 1],
    ...ptxTables(intLat, intIni, list('ptx_opcode_latency_fp'), list('ptx_opcode_initiation_fp'), list('ptx_opcode_latency_dp'), list('ptx_opcode_initiation_dp'), sfuLat, sfuIni),
    issue: issueStage(int, bool, list('gpgpu_pipeline_widths'), int('gpgpu_num_sched_per_core', 1), fail, rawText),
    ldstQueueSize: int('gpgpu_ldst_queue_size', 1),
    il1: withOrigin('gpgpu_cache:il1', (v) => parseCacheConfig(v, 'gpgpu_cache:il1')),
    icacheMissLatency: int('gpgpu_icache_miss_latency'),
    perfectInstCache: bool('gpgpu_perfect_inst_const_cache'),
    l1d: withOrigin('gpgpu_cache:dl1', (v) => parseCacheConfig(v, 'gpgpu_cache:dl1')),
    l1Latency: int('gpgpu_l1_latency', 1),
    l1Banks: {
      count: pow2('gpgpu_l1_banks'),
      interleaveBytes: pow2('gpgpu_l1_banks_byte_interleaving'),
      hash: (['linear', 'xor', 'ipoly'] as const)[int('gpgpu_l1_banks_hashing_function')]!,
    },
    l2: withOrigin('gpgpu_cache:dl2', (v) => parseCacheConfig(v, 'gpgpu_cache:dl2')),
    l2Latency: int('gpgpu_l2_rop_latency', 1),
    partitionQueues,
    icnt: {
      mode: int('network_mode', 1) as 1 | 2, latency: int('icnt_latency', 1), flitBytes: int('icnt_flit_size', 1), bufferPackets: int('icnt_in_buffer_limit', 1),
      outBufferPackets: int('icnt_out_buffer_limit', 1), arbiter: int('icnt_arbiter_algo', 0) as 0 | 1, grantCycles: int('icnt_grant_cycles', 1),
    },
    ejection: { clusterBuffer: int('gpgpu_n_cluster_ejection_buffer_size', 1), ldstResponseBuffer: int('gpgpu_n_ldst_response_buffer_size', 1) },
    numMemChannels: int('gpgpu_n_mem', 1),
    subPartitionsPerChannel: int('gpgpu_n_sub_partition_per_mchannel', 1),
    dram: {
      ...withOrigin('gpgpu_dram_timing_opt', (v) => parseDramTiming(v, 'gpgpu_dram_timing_opt')),
      busBytesPerChip: int('gpgpu_dram_buswidth', 1),
      chipsPerChannel: int('gpgpu_n_mem_per_ctrlr', 1),
      burstLength: int('gpgpu_dram_burst_length', 1),
      dataCommandRatio: int('dram_data_command_freq_ratio', 1),
      bankGroupIndexing: int('dram_bnkgrp_indexing_policy'),
      rwTurnaround: !bool('dram_elimnate_rw_turnaround'),
      frfcfs: int('gpgpu_dram_scheduler') === 1,
      queueSize: int('gpgpu_frfcfs_dram_sched_queue_size', 1),
      returnQueueSize: int('gpgpu_dram_return_queue_size'),
      returnLatency: int('dram_latency'),
    },
    addressMapping: {
      mapping: withOrigin('gpgpu_mem_addr_mapping', (v) => (parseAddressMapping(v, 'gpgpu_mem_addr_mapping'), v)),
      partitionIndexing: int('gpgpu_memory_partition_indexing'),
      bankIndexing: int('dram_bnk_indexing_policy'),
      rowLayoutChannels: int('zatel_target_n_mem'),
    },
    perfectMem: bool('gpgpu_perfect_mem'),
    rt: {
      maxWarps: int('gpgpu_rt_max_warps', 1),
      maxMshr: int('gpgpu_rt_max_mshr', 1),
      memQueueSize: int('gpgpu_rt_mem_queue_size', 1),
      responseFifoSize: int('gpgpu_rt_response_fifo_size'),
      latency: rtLatency.map((x) => Math.max(1, x)),
      opUnits: int('gpgpu_rt_op_units', 1),
      stackEntries: int('gpgpu_rt_stack_entries', 1),
      threadState: str('gpgpu_rt_thread_state') as RtThreadStateMode,
      intersectionTableStores: bool('gpgpu_rt_intersection_table_stores'),
      scheduler: str('gpgpu_rt_scheduler') as 'access' | 'warp',
      cacheHitLatency: int('gpgpu_rt_cache_hit_latency', 0),
      useL1: bool('gpgpu_rt_use_l1'),
      rtCache: withOrigin('gpgpu_rt_cache:l1', (v) => parseCacheConfig(v, 'gpgpu_rt_cache:l1')),
      disableRtCache: bool('gpgpu_rt_disable_rt_cache'),
      perfectMem: bool('gpgpu_rt_perfect_mem'),
      coalesceWarps: bool('gpgpu_rt_coalesce_warps'),
      chunkBytes: int('gpgpu_rt_chunk_bytes', 1),
      traversalDataLoads: bool('gpgpu_rt_traversal_data_loads'),
      predictor: {
        enabled: bool('gpgpu_rt_predictor'),
        entries: int('gpgpu_rt_predictor_entries', 1),
        ways: int('gpgpu_rt_predictor_ways', 1),
        nodesPerEntry: int('gpgpu_rt_predictor_nodes_per_entry', 1),
        tagBits: int('gpgpu_rt_predictor_tag_bits', 1),
        entryReplacement: str('gpgpu_rt_predictor_replacement') as ReplacementPolicy,
        nodeReplacement: str('gpgpu_rt_predictor_node_replacement') as ReplacementPolicy,
        hash: {
          fn: str('gpgpu_rt_predictor_hash') as RayHashFunction,
          originBits: int('gpgpu_rt_predictor_origin_bits', 1),
          directionBits: int('gpgpu_rt_predictor_direction_bits', 0),
          twoPointRatio: float('gpgpu_rt_predictor_two_point_ratio'),
        },
        goUpLevel: int('gpgpu_rt_predictor_go_up_level', 0),
        ports: int('gpgpu_rt_predictor_ports', 1),
        latency: int('gpgpu_rt_predictor_latency', 0),
        repack: bool('gpgpu_rt_predictor_repack'),
        collectorSize: int('gpgpu_rt_predictor_collector_size', 32),
        collectorTimeout: int('gpgpu_rt_predictor_collector_timeout', 0),
        extraWarps: int('gpgpu_rt_predictor_extra_warps', 0),
        oracle: str('gpgpu_rt_predictor_oracle') as PredictorConfig['oracle'],
        closestHit: bool('gpgpu_rt_predictor_closest_hit'),
      },
    },
    treelet: {
      virtualization: bool('rt_ray_virtualization'),
      raysPerSm: int('rt_virtual_rays_per_sm', pipeline.warp),
      savedRegisters: int('rt_cta_saved_registers'),
      simtStackBytes: int('rt_cta_simt_stack_bytes'),
      queues: bool('rt_treelet_queues'),
      l1Fraction: fraction('rt_treelet_l1_fraction'),
      divergenceThreshold: int('rt_treelet_divergence_threshold', 1),
      queueThreshold: int('rt_treelet_queue_threshold'),
      groupUnderpopulated: bool('rt_treelet_group_underpopulated'),
      repackThreshold: int('rt_treelet_repack_threshold'),
      preload: bool('rt_treelet_preload'),
      preloadThreshold: int('rt_treelet_preload_threshold'),
      countTableEntries: int('rt_treelet_count_table_entries', 1),
      queueTableEntries: int('rt_treelet_queue_table_entries', 1),
      rayBytes: int('rt_treelet_ray_bytes', 1),
    },
    statsSampleInterval: int('gpgpu_stats_sample_interval', 1),
    flushL1: bool('gpgpu_flush_l1_cache'),
    flushL2: bool('gpgpu_flush_l2_cache'),
    deadlockWindow: bool('gpgpu_deadlock_detect') ? int('gpgpu_deadlock_window', 1) : Infinity,
    raw,
    ignored: [],
  };
}

function decl(name: string): ParamDecl {
  const d = findParam(name);
  if (!d) throw new Error(`internal: parameter ${name} is read but not declared`);
  return d;
}

function splitOrigin(origin: string | undefined): [string | undefined, number | undefined] {
  if (!origin || origin === '--set') return [origin, undefined];
  const i = origin.lastIndexOf(':');
  return [origin.slice(0, i), Number(origin.slice(i + 1))];
}

/** GPGPU-Sim's issue stage, as operand-collector.ts models it. */
export interface IssueStageConfig {
  subCore: boolean;
  regBanks: number;
  /** Operand collector steps per cycle (gpgpu_reg_file_port_throughput). */
  portThroughput: number;
  dualIssueDiffUnits: boolean;
  /** ID_OC and OC_EX register widths per IssueUnit (SP, INT, SFU, DP, MEM), and the EX_WB width. */
  idOcWidth: number[];
  ocExWidth: number[];
  exWbWidth: number;
  /** Collector unit sets: units, input ports, dispatch units, and the IssueUnits they serve. */
  collectorSets: { units: number; inPorts: number; outPorts: number; serves: number[] }[];
}

/** Per PtxOp (ptx-op.ts order) latency and interval, from the int / fp / dp / sfu lists. */
function ptxTables(intLat: number[], intIni: number[], fpLat: number[], fpIni: number[], dpLat: number[], dpIni: number[], sfuLat: number, sfuIni: number): { ptxLatency: number[]; ptxInitiation: number[] } {
  const shflLat = intLat[5] ?? 32;
  const shflIni = intIni[5] ?? 4;
  const at = (xs: number[], k: number): number => Math.max(1, xs[k]!);
  const latency = [1, at(intLat, 0), at(intLat, 1), at(intLat, 2), at(intLat, 3), at(intLat, 4), Math.max(1, shflLat),
    at(fpLat, 0), at(fpLat, 1), at(fpLat, 2), at(fpLat, 3), at(fpLat, 4), at(dpLat, 0), at(dpLat, 1), at(dpLat, 2), at(dpLat, 3), at(dpLat, 4), Math.max(1, sfuLat)];
  const initiation = [1, at(intIni, 0), at(intIni, 1), at(intIni, 2), at(intIni, 3), at(intIni, 4), Math.max(1, shflIni),
    at(fpIni, 0), at(fpIni, 1), at(fpIni, 2), at(fpIni, 3), at(fpIni, 4), at(dpIni, 0), at(dpIni, 1), at(dpIni, 2), at(dpIni, 3), at(dpIni, 4), Math.max(1, sfuIni)];
  return { ptxLatency: latency, ptxInitiation: initiation };
}

function issueStage(
  int: (name: string, min?: number) => number,
  bool: (name: string) => boolean,
  widths: number[],
  schedulers: number,
  fail: (name: string, origin: string | undefined, why: string) => never,
  rawText: (name: string) => [string, string | undefined],
): IssueStageConfig {
  // gpgpu_pipeline_widths order: ID_OC_SP, ID_OC_DP, ID_OC_INT, ID_OC_SFU, ID_OC_MEM, OC_EX_SP, OC_EX_DP, OC_EX_INT, OC_EX_SFU, OC_EX_MEM, EX_WB, ...
  const idOc = [widths[0]!, widths[2]!, widths[3]!, widths[1]!, widths[4]!];
  const ocEx = [widths[5]!, widths[7]!, widths[8]!, widths[6]!, widths[9]!];
  const subCore = bool('gpgpu_sub_core_model');
  const regBanks = int('gpgpu_num_reg_banks', 1);
  if (subCore && regBanks % schedulers !== 0) {
    fail('gpgpu_num_reg_banks', rawText('gpgpu_num_reg_banks')[1], `${regBanks} banks do not divide among ${schedulers} schedulers (gpgpu_sub_core_model 1 gives each scheduler an equal share, as GPGPU-Sim asserts)`);
  }
  // IssueUnit order: Sp 0, Int 1, Sfu 2, Dp 3, Mem 4.
  const sets: IssueStageConfig['collectorSets'] = [];
  if (bool('gpgpu_enable_specialized_operand_collector')) {
    const spec = (unit: string, serves: number): void => {
      const units = int(`gpgpu_operand_collector_num_units_${unit}`);
      if (units > 0) sets.push({ units, inPorts: Math.max(1, int(`gpgpu_operand_collector_num_in_ports_${unit}`)), outPorts: Math.max(1, int(`gpgpu_operand_collector_num_out_ports_${unit}`)), serves: [serves] });
    };
    spec('sp', 0);
    spec('int', 1);
    spec('sfu', 2);
    spec('dp', 3);
    spec('mem', 4);
  }
  const gen = int('gpgpu_operand_collector_num_units_gen');
  if (gen > 0) sets.push({ units: gen, inPorts: Math.max(1, int('gpgpu_operand_collector_num_in_ports_gen')), outPorts: Math.max(1, int('gpgpu_operand_collector_num_out_ports_gen')), serves: [0, 1, 2, 3, 4] });
  // A unit class with units but no collector set would never receive an instruction (GPGPU-Sim stalls for ever).
  const unitKeys = ['gpgpu_num_sp_units', 'gpgpu_num_int_units', 'gpgpu_num_sfu_units', 'gpgpu_num_dp_units', 'gpgpu_num_mem_units'];
  unitKeys.forEach((key, u) => {
    if (int(key) > 0 && !sets.some((s) => s.serves.includes(u))) {
      fail('gpgpu_operand_collector_num_units_gen', rawText('gpgpu_operand_collector_num_units_gen')[1], `no operand collector unit serves the ${int(key)} units of ${key}: give it a specialized set or generic units`);
    }
  });
  return {
    subCore, regBanks, portThroughput: int('gpgpu_reg_file_port_throughput', 1), dualIssueDiffUnits: bool('gpgpu_dual_issue_diff_exec_units'),
    idOcWidth: idOc, ocExWidth: ocEx, exWbWidth: widths[10]!, collectorSets: sets,
  };
}
