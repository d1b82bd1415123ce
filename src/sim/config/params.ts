/**
 * Every timing-model parameter, declared exactly once: name, default, unit and a one-line
 * description (gem5 `Param` style). Where GPGPU-Sim / Vulkan-Sim has the same knob the name is
 * kept verbatim, so a researcher's `gpgpusim.config` lines can be read as they are.
 *
 * Invariants:
 * - Names are unique (checked at module load).
 * - Defaults are strings in the exact syntax a config file uses, so the same parser handles
 *   defaults, files and `--set` overrides.
 * - Defaults describe Vulkan-Sim Table III `baseline`; presets override what differs.
 */

/** How a parameter's text value is parsed. */
export type ParamKind =
  | 'int' // integer
  | 'float' // real number
  | 'bool' // 0 / 1
  | 'string' // free text / enum (validated by `choices`)
  | 'intList' // comma-separated integers
  | 'cache' // GPGPU-Sim cache string, see cache-config.ts
  | 'dramTiming' // GPGPU-Sim `nbk=16:CCD=2:...` string, see dram-timing.ts
  | 'clockDomains' // core:icnt:l2:dram MHz
  | 'pipeline'; // <threads per SM>:<warp size>

export interface ParamDecl {
  readonly name: string;
  readonly kind: ParamKind;
  readonly default: string;
  readonly unit: string;
  readonly description: string;
  /** For enum-like strings: the accepted values. */
  readonly choices?: readonly string[];
  /** For intList: the accepted numbers of elements. */
  readonly listLength?: readonly number[];
  /**
   * For int: the largest value accepted (MAX_INT_PARAM when absent). Counts of hardware (SMs,
   * memory channels, units, table entries) are bounded near ten times the largest real GPU's, so
   * a typo such as `gpgpu_n_clusters=1000000000` is a ConfigError, not an allocation of a billion SMs.
   */
  readonly max?: number;
}

/** The largest value of an int parameter without its own `max`: latencies, windows, intervals. */
export const MAX_INT_PARAM = 2 ** 31 - 1;

function p(
  name: string,
  kind: ParamKind,
  def: string,
  unit: string,
  description: string,
  extra: { choices?: readonly string[]; listLength?: readonly number[]; max?: number } = {},
): ParamDecl {
  return { name, kind, default: def, unit, description, ...extra };
}

export const PARAMS: readonly ParamDecl[] = [
  // --- GPU organisation
  p('gpgpu_n_clusters', 'int', '30', 'clusters', 'number of SIMT core clusters', { max: 1024 }),
  p('gpgpu_n_cores_per_cluster', 'int', '1', 'SMs', 'SIMT cores (SMs) per cluster', { max: 64 }),
  p('gpgpu_shader_core_pipeline', 'pipeline', '1024:32', 'threads:lanes', 'max resident threads per SM : warp size'),
  p('gpgpu_shader_cta', 'int', '32', 'CTAs', 'max resident CTAs per SM', { max: 1024 }),
  p('gpgpu_shader_registers', 'int', '65536', 'registers', 'registers per SM', { max: 4194304 }),
  p('gpgpu_registers_per_thread', 'int', '32', 'registers', 'registers each thread of the kernel needs (ptxas would report it)', { max: 255 }),
  p('gpgpu_clock_domains', 'clockDomains', '1365.0:1365.0:1365.0:3500.0', 'MHz', 'core:interconnect:L2:DRAM clocks'),
  p('gpgpu_num_sched_per_core', 'int', '4', 'schedulers', 'warp schedulers per SM, each issuing up to one instruction per cycle', { max: 64 }),
  p('gpgpu_scheduler', 'string', 'gto', '', 'warp scheduling policy', { choices: ['gto', 'lrr'] }),
  p('gpgpu_max_insn_issue_per_warp', 'int', '1', 'insts/cycle', 'instructions one warp may issue per cycle', { max: 64 }),
  // --- functional units (per SM)
  p('gpgpu_num_sp_units', 'int', '4', 'units', 'ALU (SP) pipelines per SM', { max: 64 }),
  p('gpgpu_num_sfu_units', 'int', '4', 'units', 'special-function pipelines per SM', { max: 64 }),
  p('gpgpu_num_mem_units', 'int', '1', 'units', 'load/store units per SM', { max: 64 }),
  p('gpgpu_num_int_units', 'int', '4', 'units', 'integer pipelines per SM: integer and untyped ALU ops (mov, setp, selp, logic, branches) issue here, fp ops to the SP units (GPGPU-Sim INTP_OP / ALU_OP); 0 = everything on the SP units. Default: the tested SM75 config', { max: 64 }),
  p('gpgpu_num_dp_units', 'int', '0', 'units', 'double-precision pipelines per SM; 0 = double ops issue to the SFU units, as GPGPU-Sim does', { max: 64 }),
  // Per-opcode latency (ptx-op.ts, GPGPU-Sim ptx_instruction::set_opcode_and_latency); opcodes it
  // does not list (mov, setp, selp, cvt, logic, shifts, branches) take 1 cycle. Defaults where
  // Table III is silent: the tested SM75_RTX2060 config's values.
  p('ptx_opcode_latency_int', 'intList', '4,13,4,5,145,32', 'cycles', 'integer latency add,max,mul,mad,div[,shfl] (a missing shfl entry: 32)', { listLength: [5, 6] }),
  p('ptx_opcode_initiation_int', 'intList', '2,2,2,2,8,4', 'cycles', 'integer initiation interval add,max,mul,mad,div[,shfl] (a missing shfl entry: 4)', { listLength: [5, 6] }),
  p('ptx_opcode_latency_fp', 'intList', '4,13,4,5,39', 'cycles', 'single-precision latency add,max,mul,mad,div', { listLength: [5] }),
  p('ptx_opcode_initiation_fp', 'intList', '2,2,2,2,4', 'cycles', 'single-precision initiation interval add,max,mul,mad,div', { listLength: [5] }),
  p('ptx_opcode_latency_dp', 'intList', '8,19,8,8,330', 'cycles', 'double-precision latency add,max,mul,mad,div', { listLength: [5] }),
  p('ptx_opcode_initiation_dp', 'intList', '4,4,4,4,130', 'cycles', 'double-precision initiation interval add,max,mul,mad,div', { listLength: [5] }),
  p('ptx_opcode_latency_sfu', 'int', '21', 'cycles', 'SFU latency: sqrt, rsqrt, rcp, sin, cos, ex2, lg2'),
  p('ptx_opcode_initiation_sfu', 'int', '8', 'cycles', 'SFU initiation interval'),
  p('gpgpu_control_latency', 'int', '1', 'cycles', 'branch / call / vote latency (GPGPU-Sim: 1, the default of set_opcode_and_latency)'),
  p('gpgpu_register_op_latency', 'int', '1', 'cycles', 'latency of register-promoted local loads and stores (movs in PTX: 1)'),
  // --- issue stage: ID_OC registers, operand collector, register banks (operand-collector.ts).
  // Defaults where Table III is silent: the tested SM75_RTX2060 config's values.
  p('gpgpu_pipeline_widths', 'intList', '4,0,4,4,4,4,0,4,4,4,8,4,4,4,4', 'slots', 'pipeline register widths ID_OC_SP,ID_OC_DP,ID_OC_INT,ID_OC_SFU,ID_OC_MEM,OC_EX_SP,OC_EX_DP,OC_EX_INT,OC_EX_SFU,OC_EX_MEM,EX_WB[,ID_OC_TENSOR_CORE,OC_EX_TENSOR_CORE,ID_OC_RT,OC_EX_RT] (tensor and RT entries read, not used: the RT unit accepts its instruction at issue)', { listLength: [11, 13, 15] }),
  p('gpgpu_sub_core_model', 'bool', '1', '', 'each warp scheduler owns one slot of every ID_OC register and a quarter of the register banks (GPGPU-Sim sub_core_model)'),
  p('gpgpu_enable_specialized_operand_collector', 'bool', '0', '', 'per-unit operand collector sets (gpgpu_operand_collector_num_units_sp/_sfu/_mem/_dp/_int) beside the generic set'),
  p('gpgpu_operand_collector_num_units_gen', 'int', '8', 'units', 'generic collector units per SM (serve every unit class)', { max: 1024 }),
  p('gpgpu_operand_collector_num_in_ports_gen', 'int', '8', 'ports', 'generic collector input ports: each allocates one instruction per operand collector step', { max: 1024 }),
  p('gpgpu_operand_collector_num_out_ports_gen', 'int', '8', 'ports', 'generic collector dispatch units: each dispatches one ready collector unit per step', { max: 1024 }),
  p('gpgpu_operand_collector_num_units_sp', 'int', '4', 'units', 'specialized SP collector units', { max: 1024 }),
  p('gpgpu_operand_collector_num_units_sfu', 'int', '4', 'units', 'specialized SFU collector units', { max: 1024 }),
  p('gpgpu_operand_collector_num_units_mem', 'int', '2', 'units', 'specialized MEM collector units', { max: 1024 }),
  p('gpgpu_operand_collector_num_units_dp', 'int', '0', 'units', 'specialized DP collector units', { max: 1024 }),
  p('gpgpu_operand_collector_num_units_int', 'int', '0', 'units', 'specialized INT collector units', { max: 1024 }),
  p('gpgpu_operand_collector_num_in_ports_sp', 'int', '1', 'ports', 'specialized SP collector input ports', { max: 1024 }),
  p('gpgpu_operand_collector_num_out_ports_sp', 'int', '1', 'ports', 'specialized SP collector dispatch units', { max: 1024 }),
  p('gpgpu_operand_collector_num_in_ports_sfu', 'int', '1', 'ports', 'specialized SFU collector input ports', { max: 1024 }),
  p('gpgpu_operand_collector_num_out_ports_sfu', 'int', '1', 'ports', 'specialized SFU collector dispatch units', { max: 1024 }),
  p('gpgpu_operand_collector_num_in_ports_mem', 'int', '1', 'ports', 'specialized MEM collector input ports', { max: 1024 }),
  p('gpgpu_operand_collector_num_out_ports_mem', 'int', '1', 'ports', 'specialized MEM collector dispatch units', { max: 1024 }),
  p('gpgpu_operand_collector_num_in_ports_dp', 'int', '0', 'ports', 'specialized DP collector input ports', { max: 1024 }),
  p('gpgpu_operand_collector_num_out_ports_dp', 'int', '0', 'ports', 'specialized DP collector dispatch units', { max: 1024 }),
  p('gpgpu_operand_collector_num_in_ports_int', 'int', '0', 'ports', 'specialized INT collector input ports', { max: 1024 }),
  p('gpgpu_operand_collector_num_out_ports_int', 'int', '0', 'ports', 'specialized INT collector dispatch units', { max: 1024 }),
  p('gpgpu_num_reg_banks', 'int', '16', 'banks', 'register file banks per SM: one read per bank per operand collector step (register r of warp w in bank (r + w) mod banks, within the scheduler\'s share under the sub-core model)', { max: 1024 }),
  p('gpgpu_reg_file_port_throughput', 'int', '2', 'steps/cycle', 'operand collector steps per cycle (GPGPU-Sim steps the collector this many times in each LD/ST unit cycle)', { max: 16 }),
  p('gpgpu_dual_issue_diff_exec_units', 'bool', '1', '', 'with gpgpu_max_insn_issue_per_warp > 1, a warp\'s second instruction in a cycle must go to another unit class'),
  p('gpgpu_ldst_queue_size', 'int', '64', 'requests', 'coalesced requests waiting for the L1D per SM; a memory instruction stalls when full', { max: 1048576 }),
  // --- caches
  p('gpgpu_cache:il1', 'cache', 'N:64:128:16,L:R:f:N:L,S:2:48,4', 'cache', 'instruction cache per SM (Table III: 128KB 16-way)'),
  p('gpgpu_icache_miss_latency', 'int', '20', 'cycles', 'extra fetch cycles of an instruction cache miss'),
  p('gpgpu_perfect_inst_const_cache', 'bool', '0', '', 'perfect instruction (and constant) cache: every fetch hits, gpgpu_cache:il1 is not consulted (GPGPU-Sim shader_core_ctx::fetch)'),
  p('gpgpu_cache:dl1', 'cache', 'N:1:128:512,L:L:m:N:L,A:256:8,16:0,32', 'cache', 'L1 data cache per SM (Table III: 64KB fully assoc. LRU)'),
  p('gpgpu_l1_latency', 'int', '20', 'cycles', 'L1D hit latency'),
  p('gpgpu_l1_banks', 'int', '1', 'banks', 'L1D banks: the LD/ST unit sends at most one access per bank per cycle into the L1D latency pipeline, and stalls at the first bank conflict (GPGPU-Sim ldst_unit::process_memory_access_queue_l1cache)'),
  p('gpgpu_l1_banks_byte_interleaving', 'int', '32', 'bytes', 'L1D bank interleaving granularity (32: one sector per bank, as Volta/Turing)'),
  p('gpgpu_l1_banks_hashing_function', 'int', '0', '', 'L1D bank index function: 0 = linear, 1 = bitwise XOR, 2 = IPOLY (GPGPU-Sim cache_config::hash_function)', { choices: ['0', '1', '2'] }),
  p('gpgpu_cache:dl2', 'cache', 'S:64:128:16,L:B:m:L:L,A:192:4,32:0,32', 'cache', 'L2 bank per memory sub-partition (Table III: 3MB total, 16-way LRU)'),
  p('gpgpu_l2_rop_latency', 'int', '160', 'cycles', 'L2 access latency (ROP queue)'),
  p('gpgpu_dram_partition_queues', 'string', '64:64:64:64', 'requests', 'per memory sub-partition: icnt-to-L2 : L2-to-DRAM : DRAM-to-L2 : L2-to-icnt queue sizes (GPGPU-Sim memory_sub_partition); the ROP delay queue in front of icnt-to-L2 is unbounded, and the sub-partition takes a request off the network only while icnt-to-L2 has room for a request\'s four sectors'),
  // --- interconnect
  p('network_mode', 'int', '1', '', 'interconnect model: 1 = vvision\'s flit crossbar (stands in for GPGPU-Sim\'s BookSim network: per-port flit bandwidth, a fixed latency, per-destination buffers), 2 = GPGPU-Sim\'s local crossbar (local_interconnect.cc: input and output FIFOs per node, one packet per output per cycle, iSLIP or round-robin arbitration)', { choices: ['1', '2'] }),
  p('icnt_latency', 'int', '8', 'cycles', 'network_mode 1: one-way interconnect latency between an SM and a memory sub-partition (not a GPGPU-Sim option; mode 2 takes two cycles, as GPGPU-Sim\'s cycle order gives)'),
  p('icnt_flit_size', 'int', '40', 'bytes', 'network_mode 1: bytes an interconnect port moves per cycle (mode 2 moves a packet of any size in one cycle, as GPGPU-Sim\'s local crossbar does)', { max: 65536 }),
  p('icnt_in_buffer_limit', 'int', '64', 'packets', 'packets buffered per interconnect destination (mode 1), per input FIFO (mode 2)', { max: 1048576 }),
  p('icnt_out_buffer_limit', 'int', '64', 'packets', 'network_mode 2: packets buffered per output FIFO', { max: 1048576 }),
  p('gpgpu_n_cluster_ejection_buffer_size', 'int', '8', 'packets', 'per SM cluster: replies taken off the interconnect wait in this FIFO, and the cluster hands its head to the SM one per cycle (GPGPU-Sim simt_core_cluster::icnt_cycle)', { max: 1048576 }),
  p('gpgpu_n_ldst_response_buffer_size', 'int', '2', 'packets', 'per SM: the LD/ST unit\'s response queue; a load reply leaves the cluster\'s ejection FIFO only while it has room, and it fills the L1D one per cycle when the fill port is free (GPGPU-Sim ldst_unit::cycle); RT-unit replies wait for its room too but go to the RT unit', { max: 1048576 }),
  p('icnt_subnets', 'int', '2', 'subnets', 'network_mode 2: 1 = requests and replies share one crossbar, 2 = one each; the same here, since requests and replies use disjoint input and output nodes', { choices: ['1', '2'] }),
  p('icnt_arbiter_algo', 'int', '1', '', 'network_mode 2: crossbar arbiter, 0 = naive round robin, 1 = iSLIP', { choices: ['0', '1'] }),
  p('icnt_grant_cycles', 'int', '1', 'cycles', 'network_mode 2 with iSLIP: active cycles between moves of an output\'s round-robin pointer', { max: 1048576 }),
  // --- memory partitions and DRAM
  p('gpgpu_n_mem', 'int', '12', 'channels', 'memory channels (partitions)', { max: 1024 }),
  p('gpgpu_n_sub_partition_per_mchannel', 'int', '2', 'sub-partitions', 'L2 banks per memory channel', { max: 64 }),
  p('gpgpu_dram_timing_opt', 'dramTiming', 'nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=1:CCDL=0:RTPL=0', 'DRAM cycles', 'DRAM bank timing'),
  p('gpgpu_dram_buswidth', 'int', '4', 'bytes', 'DRAM data bus width per chip', { max: 1024 }),
  p('gpgpu_n_mem_per_ctrlr', 'int', '2', 'chips', 'DRAM chips per memory controller', { max: 64 }),
  p('gpgpu_dram_burst_length', 'int', '8', 'beats', 'DRAM burst length', { max: 1024 }),
  p('gpgpu_dram_scheduler', 'int', '1', '', '0 = FIFO, 1 = FR-FCFS'),
  p('gpgpu_frfcfs_dram_sched_queue_size', 'int', '64', 'requests', 'DRAM scheduler queue per channel', { max: 1048576 }),
  p('gpgpu_dram_return_queue_size', 'int', '0', 'requests', 'DRAM return queue per channel: completed reads wait here for their sub-partition\'s DRAM-to-L2 queue; while it is full the channel issues no column command, and it bounds the requests a channel may hold (credits = scheduler queue + return queue); 0 = unlimited (GPGPU-Sim dram.cc returnq, arbitration_metadata)', { max: 1048576 }),
  p('dram_data_command_freq_ratio', 'int', '2', 'ratio', 'DRAM data bus clock / command clock: a column command moves an atom of burst x bus width x chips bytes in burst / ratio command clocks (GPGPU-Sim dram.cc)'),
  p('gpgpu_mem_addr_mapping', 'string', 'dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS', '', 'address to DRAM chip / bank / row / column bits, GPGPU-Sim addrdec syntax (R row, B bank, C column, S burst, D chip, 0 unused; dramid@N puts the chip bits at bit N); the low bank bits pick the sub-partition'),
  p('gpgpu_memory_partition_indexing', 'int', '0', '', 'memory partition (chip) index: 0 = consecutive, 1 = bitwise XOR with higher bits, 2 = IPOLY hash', { choices: ['0', '1', '2'] }),
  p('dram_bnk_indexing_policy', 'int', '0', '', 'DRAM bank index: 0 = the mapping\'s bank bits, 1 = XOR with the row bits, 2 = IPOLY with the row bits', { choices: ['0', '1', '2'] }),
  p('zatel_target_n_mem', 'int', '0', 'channels', 'Zatel scale models (paper 004): the memory channels of the GPU this one is a 1/K scale model of; DRAM bank, row and column are decoded as that GPU decodes them, its channel number above its row bits, so a DRAM row holds the addresses a row of one of its channels holds (gpgpu_n_mem still picks the channel); 0 = this GPU\'s own layout. vvision only (GPGPU-Sim has no such knob)', { max: 1024 }),
  p('dram_bnkgrp_indexing_policy', 'int', '0', '', 'DRAM bank group of a bank: 0 = its higher bits, 1 = its lower bits', { choices: ['0', '1'] }),
  p('dram_elimnate_rw_turnaround', 'bool', '0', '', 'set the read-to-write and write-to-read turnarounds (tRTW, tWTR) to 0 (GPGPU-Sim spelling)'),
  p('dram_latency', 'int', '100', 'cycles', 'fixed return latency added to every DRAM access (core cycles)'),
  p('gpgpu_perfect_mem', 'bool', '0', '', 'limit study: every memory access completes after the L1 latency'),
  // --- RT unit (Vulkan-Sim III-C)
  p('gpgpu_rt_max_warps', 'int', '4', 'warps', 'warps resident in the RT unit warp buffer', { max: 1024 }),
  p('gpgpu_rt_max_mshr', 'int', '64', 'entries', 'outstanding unique RT memory requests per RT unit, with gpgpu_rt_use_l1 = 0 (the MSHRs of the RT cache, Vulkan-Sim\'s L0 complet); with the L1D path Vulkan-Sim never binds it (its check reads the unused L0 complet) and neither does vvision', { max: 1048576 }),
  p('gpgpu_rt_mem_queue_size', 'int', '64', 'chunks', 'RT memory access queue entries', { max: 1048576 }),
  p('gpgpu_rt_response_fifo_size', 'int', '0', 'entries', 'RT response FIFO entries: requests (chunk loads and intersection-table stores) the RT unit may have sent whose response is not yet popped; 0 = unbounded, as Vulkan-Sim\'s rt_unit m_response_fifo (a list nothing bounds: the L1D alone refuses requests). Not a Vulkan-Sim option', { max: 1048576 }),
  p('gpgpu_rt_intersection_latency', 'intList', '4,20,20,4,31,31,4', 'cycles', 'BVH structure, internal node, instance leaf, primitive leaf descriptor, quad leaf, quad leaf hit, procedural leaf', { listLength: [7] }),
  p('gpgpu_rt_op_units', 'int', '32', 'units', 'pipelined operation units of each kind per RT unit', { max: 4096 }),
  p('gpgpu_rt_stack_entries', 'int', '8', 'entries', 'short traversal stack entries per ray; the functional traversal (shortStackSize) records deeper pushes/pops as stackSpill transactions', { max: 4096 }),
  p('gpgpu_rt_cache_hit_latency', 'int', '0', 'cycles', 'cycles from an RT-unit chunk access that hits in the L1D / RT cache to its response; 0 = in the cycle of the access, without the Response FIFO, as Vulkan-Sim\'s rt_unit::process_cache_access answers a hit (not a Vulkan-Sim option; misses pay the memory path)'),
  p('gpgpu_rt_use_l1', 'bool', '1', '', 'RT unit accesses go through the L1D (0: through the dedicated RT cache gpgpu_rt_cache:l1)'),
  p('gpgpu_rt_cache:l1', 'cache', 'S:32:128:16,L:R:m:L:P,A:256:256,32:0,32', 'cache', 'dedicated RT cache per SM, used when gpgpu_rt_use_l1 = 0 (Vulkan-Sim: 64KB 16-way)'),
  p('gpgpu_rt_disable_rt_cache', 'bool', '0', '', 'with gpgpu_rt_use_l1 = 0: the RT unit has no cache at all and every chunk goes to the L2'),
  p('gpgpu_rt_perfect_mem', 'bool', '0', '', 'limit study: BVH node accesses complete in one cycle (Perfect BVH)'),
  p('gpgpu_rt_coalesce_warps', 'bool', '0', '', 'merge identical RT requests across warps, not only within a warp'),
  p('gpgpu_rt_thread_state', 'string', 'per_thread', '', 'where payloads, hit attributes and callable data live: per_thread = Vulkan-Sim\'s own global allocation per thread and variable, scalar accesses, stores written through to the L2; interleaved = CUDA-style local memory, one line per warp access, written back in the L1D', { choices: ['per_thread', 'interleaved'] }),
  p('gpgpu_rt_intersection_table_stores', 'bool', '1', '', 'Vulkan-Sim\'s delayed intersection shaders: each procedural-leaf candidate writes two 32 B intersection-table entries through the L1D, and the warp leaves the RT unit after their write acks'),
  p('gpgpu_rt_scheduler', 'string', 'access', '', 'RT-unit memory scheduling: access = Vulkan-Sim\'s (one unique node address per new access, for the oldest warp with a ray ready, only once the previous access\'s chunks and queued stores are out; an access\'s chunks go before stores queued meanwhile); warp = greedy-then-oldest warp, all its ready rays\' chunks queued at once, stores before chunks', { choices: ['access', 'warp'] }),
  p('gpgpu_rt_traversal_data_loads', 'bool', '1', '', 'Vulkan-Sim\'s Traversal_data: each traceRay allocates a fresh 256 B block per thread, and hit / miss shaders read gl_WorldRayOrigin / gl_WorldRayDirection from it with global loads (one 32-bit load per component, each a request per thread; compulsory misses); 0 = the built-ins are registers'),
  p('gpgpu_rt_chunk_bytes', 'int', '32', 'bytes', 'RT requests are split into chunks of this size', { max: 4096 }),
  // --- Virtualized treelet queues (paper 001, "Treelet Accelerated Ray Tracing on GPUs"); all off by default
  p('rt_ray_virtualization', 'bool', '0', '', 'ray virtualization (paper 001 Sec. 3.1, 4.1): a CTA whose warps all sit in the RT unit is terminated, its state saved to memory, and resumed through the CTA scheduler (prioritised) when all its rays finish'),
  p('rt_virtual_rays_per_sm', 'int', '4096', 'rays', 'rays in flight per SM under ray virtualization (paper 001 Sec. 5: 4096)', { max: 1048576 }),
  p('rt_cta_saved_registers', 'int', '0', 'registers', 'registers saved and restored per thread of a terminated CTA; 0 = the register words live across the raygen shader\'s traceRay (SSA liveness, the most over its traceRays, at most gpgpu_registers_per_thread), or gpgpu_registers_per_thread when the timing model is not given them; paper 001 Sec. 5 saves the ptxas register count (conservative: set it to that)', { max: 1048576 }),
  p('rt_cta_simt_stack_bytes', 'int', '128', 'bytes', 'SIMT stack saved and restored per warp of a terminated CTA (paper 001 Sec. 4.1; the paper gives no size: 8 entries of PC, reconvergence PC, mask, 16 B each)', { max: 1048576 }),
  p('rt_treelet_queues', 'bool', '0', '', 'dynamic treelet queues in the RT unit (paper 001 Sec. 3.2, 4.2): initial ray-stationary phase, treelet-stationary processing of the largest treelet queue, final ray-stationary phase'),
  p('rt_treelet_l1_fraction', 'float', '0.5', 'of L1D', 'treelet size as a fraction of the L1D (paper 001 Sec. 4.3, 5: half, so the next treelet can be preloaded while one is traversed); the BVH is laid out treelet by treelet'),
  p('rt_treelet_divergence_threshold', 'int', '1', 'treelets', 'initial phase: a warp is terminated into the treelet queues once its active rays need more than this many distinct treelets (paper 001 Sec. 3.2 step 1: "until rays within a warp start to diverge past a threshold"; the paper gives no value: 1 = as soon as they split)'),
  p('rt_treelet_queue_threshold', 'int', '128', 'rays', 'a treelet queue with fewer rays is underpopulated: treelet-stationary processing starts only on a queue of at least this many (paper 001 Sec. 4.4, Fig. 12: 128)', { max: 1048576 }),
  p('rt_treelet_group_underpopulated', 'bool', '1', '', 'group underpopulated treelet queues into ray-stationary warps (paper 001 Sec. 4.4); 0 = naive treelet queues, every queue processed treelet-stationary'),
  p('rt_treelet_repack_threshold', 'int', '22', 'rays', 'warp repacking (paper 001 Sec. 4.5, Fig. 13): a ray-stationary warp with fewer active rays is refilled with rays from the underpopulated queues (22 = the paper\'s best); 0 = no repacking'),
  p('rt_treelet_preload', 'bool', '1', '', 'treelet preloading (paper 001 Sec. 4.3): the next largest treelet is fetched into the L1D while the current treelet queue drains'),
  p('rt_treelet_preload_threshold', 'int', '32', 'rays', 'preload the next treelet when the current treelet queue holds this many rays or fewer (paper 001 Sec. 4.3; the paper estimates it from latencies, one warp here)'),
  p('rt_treelet_count_table_entries', 'int', '600', 'entries', 'treelet count table entries per RT unit (paper 001 Sec. 6.5: 600, 2.2 KB)', { max: 1048576 }),
  p('rt_treelet_queue_table_entries', 'int', '128', 'entries', 'treelet queue table entries of 32 ray ids, held in the L1D (paper 001 Sec. 4.2, 6.5: 4096 rays / 32 = 128, 6.29 KB); excess entries spill to memory', { max: 1048576 }),
  p('rt_treelet_ray_bytes', 'int', '32', 'bytes', 'ray data per ray (origin, direction, tmin, tmax) stored in a reserved L2 region and loaded, bypassing the L1D, when a ray joins a treelet or repacked warp (paper 001 Sec. 4.2, 6.5)', { max: 4096 }),
  // --- ray intersection predictor (Intersection Prediction, paper 002; defaults from its Table 3)
  p('gpgpu_rt_predictor', 'bool', '0', '', 'ray intersection predictor per SM (paper 002 Sec. 4): occlusion rays look up a table of previously hit BVH nodes and traverse from the prediction first'),
  p('gpgpu_rt_predictor_entries', 'int', '1024', 'entries', 'predictor table entries per SM (paper 002 Sec. 4.1, Table 6)', { max: 16777216 }),
  p('gpgpu_rt_predictor_ways', 'int', '4', 'ways', 'placement: 1 = direct-mapped, 2/4/8-way set-associative (paper 002 Sec. 6.1.2, Table 7)', { max: 1024 }),
  p('gpgpu_rt_predictor_nodes_per_entry', 'int', '1', 'nodes', 'predicted nodes per entry (paper 002 Sec. 6.1.1, Table 6)', { max: 1024 }),
  p('gpgpu_rt_predictor_tag_bits', 'int', '15', 'bits', 'ray-hash tag bits per entry (paper 002 Sec. 4.1)', { max: 32 }),
  p('gpgpu_rt_predictor_replacement', 'string', 'lru', '', 'entry replacement within a set (paper 002 Table 3)', { choices: ['lru', 'lfu', 'lru-k'] }),
  p('gpgpu_rt_predictor_node_replacement', 'string', 'lru', '', 'node replacement within an entry: LRU, LFU or LRU-K with K = 2 (paper 002 Sec. 6.1.3)', { choices: ['lru', 'lfu', 'lru-k'] }),
  p('gpgpu_rt_predictor_hash', 'string', 'grid-spherical', '', 'ray hash function (paper 002 Sec. 4.2, Fig. 6)', { choices: ['grid-spherical', 'two-point'] }),
  p('gpgpu_rt_predictor_origin_bits', 'int', '5', 'bits', 'n: quantisation bits per origin axis in the scene box (paper 002 Sec. 4.2, Table 8)', { max: 10 }),
  p('gpgpu_rt_predictor_direction_bits', 'int', '3', 'bits', 'm: bits of theta; phi gets m + 1 (Grid Spherical, paper 002 Sec. 4.2.1, Table 8a)', { max: 10 }),
  p('gpgpu_rt_predictor_two_point_ratio', 'float', '0.15', 'ratio', 'r: estimated hit distance as a fraction of the scene box\'s largest extent (Two Point, paper 002 Sec. 4.2.2, Table 8b)'),
  p('gpgpu_rt_predictor_go_up_level', 'int', '3', 'levels', 'k: the table stores the k-th ancestor of the hit leaf (paper 002 Sec. 4.3, Fig. 14)'),
  p('gpgpu_rt_predictor_ports', 'int', '4', 'accesses/cycle', 'lookup-queue and update-queue ports each (paper 002 Sec. 4.1, Table 3)', { max: 1024 }),
  p('gpgpu_rt_predictor_latency', 'int', '1', 'cycles', 'predictor table access latency (paper 002 Table 3, Fig. 17)'),
  p('gpgpu_rt_predictor_repack', 'bool', '1', '', 'warp repacking: predicted rays leave their warp for the partial warp collector (paper 002 Sec. 4.4)'),
  p('gpgpu_rt_predictor_collector_size', 'int', '64', 'rays', 'partial warp collector capacity in ray ids (paper 002 Sec. 4.4.1)', { max: 1048576 }),
  p('gpgpu_rt_predictor_collector_timeout', 'int', '16', 'cycles', 'a partial warp leaves the collector this long after its first ray arrived (paper 002 Sec. 4.4.1: 5-30 cycles differ insignificantly)'),
  p('gpgpu_rt_predictor_extra_warps', 'int', '0', 'warps', 'additional repacked warps the RT unit may hold beyond gpgpu_rt_max_warps (paper 002 Sec. 4.4.2, Fig. 15 "Repack 4")', { max: 1024 }),
  p('gpgpu_rt_predictor_oracle', 'string', 'none', '', 'limit studies (paper 002 Sec. 6.3, Fig. 2): lookup = the table entry that verifies, if any; training = any node a prior ray hit (unbounded table); update = training with updates at lookup time; never = every ray looked up, none predicted (the lookup pipeline\'s cost alone, not in the paper)', { choices: ['none', 'lookup', 'training', 'update', 'never'] }),
  p('gpgpu_rt_predictor_closest_hit', 'bool', '0', '', 'also predict closest-hit rays: a verified prediction trims tmax before the full traversal (paper 002 Sec. 6.4, global illumination)'),
  // --- statistics
  p('gpgpu_stats_sample_interval', 'int', '1000', 'cycles', 'period of the time series (RT occupancy over time)'),
  p('gpgpu_flush_l1_cache', 'bool', '0', '', 'multi-frame runs: invalidate every L1D (and RT cache) line between two launches; 0 keeps them warm'),
  p('gpgpu_flush_l2_cache', 'bool', '0', '', 'multi-frame runs: invalidate every L2 line between two launches; 0 keeps them warm'),
  // --- deadlock detection (GPGPU-Sim gpgpu_sim::cycle checks every 50,000 cycles that an instruction was issued)
  p('gpgpu_deadlock_detect', 'bool', '1', '', 'stop the run with a deadlock report when nothing makes progress for gpgpu_deadlock_window cycles'),
  p('gpgpu_deadlock_window', 'int', '50000', 'cycles', 'cycles with no warp issuing and no memory request retiring that count as a deadlock'),
];

const byName = new Map<string, ParamDecl>();
for (const d of PARAMS) {
  if (byName.has(d.name)) throw new Error(`duplicate parameter declaration ${d.name}`);
  byName.set(d.name, d);
}

export function findParam(name: string): ParamDecl | undefined {
  return byName.get(name);
}

export const PARAM_NAMES: readonly string[] = PARAMS.map((d) => d.name);
