/**
 * Timing statistics, grouped per component, named as Vulkan-Sim / GPGPU-Sim print them, with
 * units and one-line descriptions; derived ratios are computed from the raw counters here and
 * nowhere else. Also the distributions behind Vulkan-Sim's figures: RT warp latency (Fig. 13),
 * L1D/L2 accesses by source and outcome (Fig. 14), the RT roofline point (Fig. 12), the SIMT
 * efficiency histogram (VI-B) and RT occupancy over time (Fig. 18).
 *
 * Invariant: `TimingStats` is plain JSON-able data (numbers, arrays, records).
 */
import type { MemLatencyStats } from './mem-latency-stats.js';
import { CacheStats, FailCause, OUTCOME_NAMES, OUTCOMES } from './cache.js';
import type { DramStats } from './dram.js';
import type { IcntCounters } from './gpu.js';
import type { PredictorStats } from './predictor/intersection-predictor.js';
import type { RtStats } from './rt/rt-stats.js';
import type { SmStats } from './sm-stats.js';
import type { VirtualizationStats } from './ray-virtualization.js';
import type { treeletTableArea } from './treelets/treelet-queues.js';
import { MODE_NAMES, type TreeletStats } from './treelets/treelet-stats.js';
import { IssueUnit } from '../ptx-op.js';

export interface StatMeta {
  unit: string;
  description: string;
}

export const STAT_META: Record<string, StatMeta> = {
  gpu_sim_cycle: { unit: 'cycles', description: 'core cycles until the last warp finished' },
  gpu_sim_insn: { unit: 'thread insts', description: 'thread instructions executed (warp instructions x active lanes)' },
  gpu_warp_insn: { unit: 'warp insts', description: 'warp instructions issued (the PTX instructions Vulkan-Sim would run: ptx-ops-of.ts)' },
  vvision_ir_warp_insn: { unit: 'warp insts', description: 'IR warp instructions the functional core executed and the timing model issued (each stands for 0 or more PTX instructions)' },
  vvision_ir_thread_insn: { unit: 'thread insts', description: 'IR thread instructions the functional core executed and the timing model issued' },
  gpu_ipc: { unit: 'thread insts/cycle', description: 'gpu_sim_insn / gpu_sim_cycle' },
  gpu_occupancy: { unit: '%', description: 'average resident warps / max warps over all SMs and cycles' },
  gpu_simt_efficiency: { unit: '%', description: 'average active lanes per issued warp instruction / 32' },
  gpu_total_sim_rate: { unit: 'thread insts/s', description: 'simulation speed: gpu_sim_insn per wall-clock second' },
  gpu_sim_cycle_rate: { unit: 'cycles/s', description: 'simulated cycles per wall-clock second' },
  gpu_warp_insn_rate: { unit: 'warp insts/s', description: 'warp instructions per wall-clock second' },
  gpu_sim_wall_seconds: { unit: 's', description: 'wall-clock time of the timing simulation' },
  issue_sp_ops: { unit: 'warp insts', description: 'PTX warp instructions issued to the SP units (each holds a unit for its initiation interval, ptx_opcode_initiation_fp)' },
  issue_int_ops: { unit: 'warp insts', description: 'PTX warp instructions issued to the INT units (movs, setp, integer ops; the SP units on a GPU without INT units)' },
  issue_sfu_ops: { unit: 'warp insts', description: 'PTX warp instructions issued to the SFUs (transcendentals, divisions)' },
  issue_dp_ops: { unit: 'warp insts', description: 'PTX warp instructions issued to the DP units' },
  issue_ldst_ops: { unit: 'warp insts', description: 'memory and texture warp instructions issued to the LD/ST unit' },
  issue_sp_unit_cycles: { unit: 'unit-cycles', description: 'cycles the SP units were held by issued instructions: each its initiation interval (ptx_opcode_initiation_*); over gpgpu_num_sp_units, a lower bound on the cycles they need' },
  issue_int_unit_cycles: { unit: 'unit-cycles', description: 'cycles the INT units were held by issued instructions: each its initiation interval (ptx_opcode_initiation_int, 1 for movs and setp)' },
  issue_sfu_unit_cycles: { unit: 'unit-cycles', description: 'cycles the SFUs were held by issued instructions: each its initiation interval (ptx_opcode_initiation_sfu)' },
  issue_dp_unit_cycles: { unit: 'unit-cycles', description: 'cycles the DP units were held by issued instructions: each its initiation interval (ptx_opcode_initiation_dp)' },
  gpu_sim_truncated: { unit: 'bool', description: '1 if maxCycles stopped the simulation early' },
  L1I_total_cache_accesses: { unit: 'accesses', description: 'instruction cache line lookups' },
  L1I_total_cache_miss_rate: { unit: 'ratio', description: 'instruction cache misses / accesses' },
  L1D_total_cache_accesses: { unit: 'accesses', description: 'L1D (and RT cache) accesses, excluding reservation-fail retries' },
  L1D_total_cache_misses: { unit: 'accesses', description: 'L1D misses (compulsory + capacity/conflict)' },
  L1D_total_cache_miss_rate: { unit: 'ratio', description: 'L1D misses / accesses' },
  L1D_total_cache_reservation_fails: { unit: 'attempts', description: 'L1D accesses refused (MSHR or miss queue full) and retried' },
  gpgpu_n_global_load_insn: { unit: 'thread loads', description: 'active lanes of issued load instructions, one per 32-bit component as NIR-to-PTX scalarises them (an image load one), every memory space (GPGPU-Sim gpgpu_n_global_load_insn; Vulkan-Sim puts them all in global memory)' },
  gpgpu_n_global_store_insn: { unit: 'thread stores', description: 'active lanes of issued store instructions, one per 32-bit component stored (an image store one), every memory space (GPGPU-Sim gpgpu_n_global_store_insn)' },
  gpgpu_n_mem_read_global: { unit: 'requests', description: 'read requests the L1Ds (shader and RT unit) sent into the interconnect (GPGPU-Sim: packets injected with GLOBAL_ACC_R)' },
  gpgpu_n_mem_write_global: { unit: 'requests', description: 'write requests the L1Ds sent into the interconnect: stores written through, RT result stores, write-backs (GPGPU-Sim: GLOBAL_ACC_W and L1_WRBK_ACC packets)' },
  L1D_bank_conflicts: { unit: 'cycles', description: 'cycles the LD/ST unit stopped at an L1D bank conflict (gpgpu_l1_banks; GPGPU-Sim BK_CONF)' },
  gpgpu_n_stall_shd_mem: { unit: 'cycles', description: "SM-cycles the LD/ST unit ended with an issued access still waiting to enter the L1D pipelines: a bank conflict, or an instruction of more accesses than one cycle takes (GPGPU-Sim's count of cycles its LD/ST dispatch register held an unfinished memory instruction)" },
  L2_total_cache_accesses: { unit: 'accesses', description: 'L2 accesses, excluding reservation-fail retries' },
  L2_total_cache_misses: { unit: 'accesses', description: 'L2 misses' },
  L2_total_cache_miss_rate: { unit: 'ratio', description: 'L2 misses / accesses' },
  L2_total_cache_reservation_fails: { unit: 'attempts', description: 'L2 accesses refused and retried' },
  L2_reservation_fail_mshr_entry: { unit: 'attempts', description: 'L2 refusals: no free MSHR entry (GPGPU-Sim MSHR_ENRTY_FAIL)' },
  L2_reservation_fail_mshr_merge: { unit: 'attempts', description: "L2 refusals: the sector's MSHR entry merges its maximum (MSHR_MERGE_ENRTY_FAIL)" },
  L2_reservation_fail_miss_queue: { unit: 'attempts', description: 'L2 refusals: the miss queue is full (MISS_QUEUE_FULL)' },
  L2_reservation_fails_until_cycle: { unit: 'cycles', description: 'end of the last sample interval (gpgpu_stats_sample_interval) with an L2 refusal: when the refusals stop (l2_reservation_fails_over_time has them per interval)' },
  icnt_total_packets: { unit: 'packets', description: 'packets through the request and reply networks' },
  icnt_total_bytes: { unit: 'bytes', description: 'bytes through the request and reply networks' },
  maxmflatency: { unit: 'cycles', description: 'the longest creation-to-response time of any request (GPGPU-Sim maxmflatency); a frame reports the run so far' },
  max_icnt2mem_latency: { unit: 'cycles', description: 'the longest creation-to-L2 time of any request (GPGPU-Sim max_icnt2mem_latency)' },
  max_icnt2sh_latency: { unit: 'cycles', description: 'the longest time a response spent in the reply network (GPGPU-Sim max_icnt2sh_latency)' },
  Req_Network_injected_packets_num: { unit: 'packets', description: 'requests pushed into the local crossbar (GPGPU-Sim Req_Network_injected_packets_num; network_mode 2 only)' },
  Req_Network_conflicts_per_cycle_util: { unit: 'packets', description: 'per cycle in which an SM\'s input FIFO held a request: inputs whose head request is for a sub-partition an earlier input\'s head is for (GPGPU-Sim Req_Network_conflicts_per_cycle_util)' },
  Req_Bank_Level_Parallism: { unit: 'packets', description: 'per cycle in which an SM\'s input FIFO held a request: requests moved to the sub-partitions\' output FIFOs (GPGPU-Sim Req_Bank_Level_Parallism)' },
  Reply_Network_injected_packets_num: { unit: 'packets', description: 'replies pushed into the local crossbar (GPGPU-Sim Reply_Network_injected_packets_num)' },
  Reply_Network_conflicts_per_cycle_util: { unit: 'packets', description: 'per cycle in which a sub-partition\'s input FIFO held a reply: inputs whose head reply is for an SM an earlier input\'s head is for (GPGPU-Sim Reply_Network_conflicts_per_cycle_util)' },
  Reply_Bank_Level_Parallism: { unit: 'packets', description: 'per cycle in which a sub-partition\'s input FIFO held a reply: replies moved to the SMs\' output FIFOs (GPGPU-Sim Reply_Bank_Level_Parallism)' },
  Req_Network_in_buffer_avg_util: { unit: 'packets', description: 'requests waiting in an SM\'s input FIFO of the local crossbar, per SM, per cycle (GPGPU-Sim Req_Network_in_buffer_avg_util; network_mode 2 only)' },
  Req_Network_out_buffer_avg_util: { unit: 'packets', description: 'requests waiting in a sub-partition\'s output FIFO of the local crossbar, per sub-partition, per cycle (GPGPU-Sim Req_Network_out_buffer_avg_util)' },
  Reply_Network_in_buffer_avg_util: { unit: 'packets', description: 'replies waiting in a sub-partition\'s input FIFO of the local crossbar, per sub-partition, per cycle (GPGPU-Sim Reply_Network_in_buffer_avg_util)' },
  Reply_Network_out_buffer_avg_util: { unit: 'packets', description: 'replies waiting in an SM\'s output FIFO of the local crossbar, per SM, per cycle (GPGPU-Sim Reply_Network_out_buffer_avg_util)' },
  Req_Network_in_buffer_avg_wait: { unit: 'cycles', description: 'mean cycles a request waits in its SM\'s input FIFO of the local crossbar, by Little\'s law from GPGPU-Sim\'s counters: Req_Network_in_buffer_avg_util x SMs x cycles / Req_Network_injected_packets_num (vvision)' },
  Reply_Network_in_buffer_avg_wait: { unit: 'cycles', description: 'mean cycles a reply waits in its sub-partition\'s input FIFO of the local crossbar, by Little\'s law: Reply_Network_in_buffer_avg_util x sub-partitions x cycles / Reply_Network_injected_packets_num (vvision)' },
  averagemflatency: { unit: 'cycles', description: 'mean cycles from a request\'s creation (shader: entry into the L1D latency pipeline) to its response (load reply or write ack) reaching the SM (GPGPU-Sim averagemflatency)' },
  avg_icnt2mem_latency: { unit: 'cycles', description: 'cycles from a request\'s creation to the L2 taking it off the network, summed over requests and divided by the responses (GPGPU-Sim avg_icnt2mem_latency)' },
  avg_l1_to_icnt_latency: { unit: 'cycles', description: 'mean cycles from a request\'s creation to the L1 handing it to the network (L1D latency pipeline and miss queue), over requests from SMs' },
  avg_icnt2sh_latency: { unit: 'cycles', description: 'mean cycles from the L2 pushing a response into the network to the SM taking it (GPGPU-Sim avg_icnt2sh_latency)' },
  dram_reads: { unit: 'requests', description: 'DRAM read requests' },
  dram_writes: { unit: 'requests', description: 'DRAM write requests (L2 write-backs)' },
  dram_row_buffer_hit_rate: { unit: 'ratio', description: 'DRAM accesses that found their row open' },
  dram_avg_read_latency: { unit: 'cycles', description: 'DRAM read latency from scheduler queue to data return' },
  dram_activates: { unit: 'commands', description: 'DRAM row activations (GPGPU-Sim n_act)' },
  dram_column_commands: { unit: 'commands', description: 'DRAM read and write column commands, one per atom of burst x bus width x chips bytes' },
  dram_eff: { unit: 'ratio', description: 'cycles transferring data / cycles with requests pending at the DRAM scheduler (VI-C)' },
  bwutil: { unit: 'ratio', description: 'cycles transferring data / all cycles, averaged over channels (VI-C)' },
  dram_channel_imbalance: { unit: 'ratio', description: 'the busiest channel\'s DRAM requests over the mean per channel: 1 = requests spread evenly, higher = partition camping (stats.txt lists each channel\'s requests, row-buffer hit rate and efficiency: dram_channel_*)' },
  rt_total_warps: { unit: 'warps', description: 'warps that went through the RT units' },
  rt_total_rays: { unit: 'rays', description: 'rays traversed' },
  rt_writes: { unit: 'writes', description: 'stores of the RT units, as Vulkan-Sim counts them: intersection-table stores (two 32 B writes per procedural-leaf candidate) and a 32 B result store per triangle test that hit' },
  rt_avg_efficiency: { unit: 'ratio', description: 'RT-unit SIMT efficiency as Vulkan-Sim defines it: per warp, the sum of its rays\' RT cycles / (32 x the warp\'s RT latency), averaged over warps' },
  rt_avg_active_rays: { unit: 'rays/cycle', description: 'rays still traversing per RT-unit cycle with a resident warp' },
  rt_avg_warp_occupancy: { unit: 'ratio', description: 'warp-buffer occupancy as Vulkan-Sim defines it: summed warp RT latency / RT-active cycles / gpgpu_rt_max_warps' },
  rt_avg_warp_latency: { unit: 'cycles', description: 'cycles from a warp entering the RT unit to its last ray finishing' },
  rt_avg_thread_latency: { unit: 'cycles', description: 'per warp, the sum of its rays\' cycles from entering the RT unit to finishing / 32, averaged over warps (Vulkan-Sim\'s definition)' },
  rt_avg_warp_ray_fraction: { unit: 'ratio', description: 'per warp, its rays / 32, averaged over warps: the lanes that trace together, which the shader\'s control flow decides (the first factor of rt_avg_efficiency; under treelet queues every ray that passed through the warp counts, refills included, so it can exceed 1)' },
  rt_avg_warp_latency_uniformity: { unit: 'ratio', description: 'per warp, the sum of its rays\' RT cycles / (its rays x the warp\'s RT latency), averaged over warps with a ray: how nearly together its rays finish, which the timing decides (the second factor of rt_avg_efficiency; a warp\'s efficiency is the product of the two)' },
  rt_avg_ray_latency: { unit: 'cycles', description: 'per ray, its cycles from entering the RT unit to finishing, averaged over rays; the next three split it' },
  rt_avg_ray_memory_cycles: { unit: 'cycles', description: 'per ray, cycles waiting for chunk responses (from its requests\' queueing or merging to the last response), summed over its transactions' },
  rt_avg_ray_op_cycles: { unit: 'cycles', description: 'per ray, cycles in intersection operations (a queued start included), summed over its transactions' },
  rt_avg_ray_wait_cycles: { unit: 'cycles', description: 'per ray, the rest: ready but not yet scheduled (the one-request-per-cycle port, the warp scheduler, a policy\'s queues)' },
  rt_avg_nodes_per_ray: { unit: 'nodes', description: 'BVH node fetches per ray' },
  rt_total_transactions: { unit: 'transactions', description: 'memory transactions of the traversals: nodes, BVH headers, leaf descriptors, stack spills (Vulkan-Sim gpgpu_n_rt_access_insn)' },
  rt_total_ops: { unit: 'ops', description: 'intersection tests and transforms' },
  rt_total_requests: { unit: 'chunks', description: 'unique 32 B requests the RT units sent to the cache' },
  rt_merged_in_warp: { unit: 'chunks', description: 'RT requests merged with an identical request of the same warp' },
  rt_merged_across_warps: { unit: 'chunks', description: 'RT requests merged with an identical request of another warp' },
  rt_stack_spills: { unit: 'accesses', description: 'traversal-stack spill / fill accesses' },
  rt_fcc_buffer_accesses: { unit: 'accesses', description: 'function call coalescing: coalescing-buffer reads by the RT unit (0 without --fcc)' },
  rt_op_intensity: { unit: 'ops/block', description: 'roofline operational intensity: operations per cache block fetched (Fig. 12)' },
  rt_avg_performance: { unit: 'stages/cycle', description: 'roofline performance: operation-unit pipeline stages occupied per RT-active cycle (Fig. 12)' },
  rt_active_cycle_fraction: { unit: 'ratio', description: 'fraction of cycles with at least one warp in an RT unit (averaged over SMs)' },
  rt_simt_efficiency: { unit: 'ratio', description: 'active rays / 32 per resident RT warp, averaged over RT warp-cycles (paper 001 Fig. 13b)' },
  // Virtualized treelet queues (paper 001), present only when rt_treelet_queues or rt_ray_virtualization is on.
  treelet_cycles_initial: { unit: 'entry-cycles', description: 'warp-buffer entry-cycles in the initial ray-stationary phase (Fig. 14)' },
  treelet_cycles_treelet: { unit: 'entry-cycles', description: 'warp-buffer entry-cycles in treelet-stationary mode (Fig. 14)' },
  treelet_cycles_ray: { unit: 'entry-cycles', description: 'warp-buffer entry-cycles in the final ray-stationary mode (grouped underpopulated queues, repacked warps) (Fig. 14)' },
  treelet_tests_initial: { unit: 'tests', description: 'node intersection tests (box and primitive) in the initial phase (Fig. 15)' },
  treelet_tests_treelet: { unit: 'tests', description: 'node intersection tests in treelet-stationary mode (Fig. 15)' },
  treelet_tests_ray: { unit: 'tests', description: 'node intersection tests in the final ray-stationary mode (Fig. 15)' },
  treelet_warps_initial: { unit: 'warps', description: 'initial-phase warps (one per accepted traceRay)' },
  treelet_warps_treelet: { unit: 'warps', description: 'treelet warps formed from treelet queues' },
  treelet_warps_ray: { unit: 'warps', description: 'ray-stationary warps formed from underpopulated queues (or, without queues, from traceRays)' },
  treelet_diverged_warps: { unit: 'warps', description: 'initial-phase warps terminated into the queues for divergence (Sec. 3.2 step 1)' },
  treelet_repacks: { unit: 'warps', description: 'warp repacking events (Sec. 4.5)' },
  treelet_repacked_rays: { unit: 'rays', description: 'rays brought into warps by repacking' },
  treelet_queued_rays: { unit: 'rays', description: 'rays put into treelet queues' },
  treelet_ray_data_stores: { unit: 'lines', description: '128 B ray-data stores at traceRay (Sec. 4.2 step 1)' },
  treelet_ray_data_loads: { unit: 'lines', description: 'ray-data loads bypassing the L1D (Sec. 4.2 step 5, repacking)' },
  treelet_activated: { unit: 'treelets', description: 'treelets made current (treelet-stationary)' },
  treelet_preloaded: { unit: 'treelets', description: 'treelets preloaded while the previous queue drained (Sec. 4.3)' },
  treelet_line_loads: { unit: 'lines', description: 'L1D line loads of whole treelets (load on activation and preload)' },
  treelet_peak_queue_entries: { unit: 'entries', description: 'peak treelet queue table entries in use in one RT unit' },
  treelet_peak_treelets: { unit: 'treelets', description: 'peak treelets with queued rays in one RT unit (count table entries)' },
  treelet_queue_entry_spills: { unit: 'entries', description: 'queue-table entries allocated beyond the on-chip table (held in memory)' },
  treelet_count_table_overflows: { unit: 'inserts', description: 'new treelets inserted while the count table was full' },
  treelet_max_hash_chain: { unit: 'treelets', description: 'longest hash chain of the queue table (Sec. 4.2: two in the paper)' },
  treelet_count_table_bytes: { unit: 'bytes', description: 'treelet count table storage per RT unit (Sec. 6.5: 2.2 KB)' },
  treelet_queue_table_bytes: { unit: 'bytes', description: 'treelet queue table storage per RT unit, held in the L1D (Sec. 6.5: 6.29 KB)' },
  virt_ctas_suspended: { unit: 'CTAs', description: 'CTAs terminated after all their warps issued traceRay (Sec. 4.1)' },
  virt_ctas_resumed: { unit: 'CTAs', description: 'terminated CTAs resumed through the CTA scheduler' },
  virt_saved_bytes: { unit: 'bytes', description: 'CTA state (registers, SIMT stacks) stored' },
  virt_restored_bytes: { unit: 'bytes', description: 'CTA state loaded on resume' },
  virt_peak_suspended: { unit: 'CTAs', description: 'peak CTAs terminated at once (GPU-wide)' },
  virt_saved_registers: { unit: 'registers/thread', description: 'register words saved per thread: live across the raygen\'s traceRay, or rt_cta_saved_registers' },
  rt_predictor_table_bytes: { unit: 'bytes', description: 'intersection predictor table storage per SM: entries x (valid + tag + nodes x 27 bits) (paper 002 Sec. 6.1.1)' },
  rt_predictor_lookups: { unit: 'rays', description: 'rays looked up in the predictor (occlusion rays; all rays with gpgpu_rt_predictor_closest_hit)' },
  rt_predictor_hit_rays: { unit: 'rays', description: 'looked-up rays that intersect the scene (only they can be verified)' },
  rt_predictor_predicted: { unit: 'rays', description: 'rays the table returned a prediction for (paper 002 Sec. 3)' },
  rt_predictor_verified: { unit: 'rays', description: 'predicted rays that found an intersection from the predicted nodes' },
  rt_predictor_mispredicted: { unit: 'rays', description: 'predicted rays that did not, and restarted from the root' },
  rt_predictor_predicted_rate: { unit: 'ratio', description: 'predicted / looked-up rays (Table 7)' },
  rt_predictor_verified_rate: { unit: 'ratio', description: 'verified / looked-up rays (Table 7, Fig. 2 right)' },
  rt_predictor_mispredicted_rate: { unit: 'ratio', description: 'mispredicted / looked-up rays' },
  rt_predictor_nodes: { unit: 'nodes', description: 'node fetches of the looked-up rays with the predictor (N x rays, Eq. 1)' },
  rt_predictor_baseline_nodes: { unit: 'nodes', description: 'node fetches the same rays make traversing from the root (n x rays, Eq. 1)' },
  rt_predictor_prediction_nodes: { unit: 'nodes', description: 'node fetches spent traversing from predicted nodes (k m x predicted rays)' },
  rt_predictor_misprediction_nodes: { unit: 'nodes', description: 'the part of those on mispredicted rays (wasted, Fig. 13)' },
  rt_predictor_node_fetch_savings: { unit: 'ratio', description: '(baseline nodes - nodes) / baseline nodes: node fetches of the looked-up rays saved against their full traversals (Eq. 1\'s (n - N) / n, Table 5)' },
  rt_predictor_memory_savings: {
    unit: 'ratio',
    description: 'memory savings as paper 002 measures them against the baseline RT unit (Sec. 6, Fig. 13: 13%): (the baseline run\'s RT-unit memory requests - this run\'s) / the baseline\'s, ' +
      'counting the node-chunk requests the RT unit sends to the memory system (rt_total_requests); a comparison of two runs, so it is given where a baseline run is at hand ' +
      '(a sweep whose first point has no predictor, bench/predictor.ts), never in one run\'s stats',
  },
  rt_predictor_updates: { unit: 'updates', description: 'predictor table updates (hit rays, Go Up Level ancestor of the hit leaf)' },
  rt_predictor_repacked_warps: { unit: 'warps', description: 'warps formed by the partial warp collector (Sec. 4.4.1)' },
  rt_predictor_collector_timeouts: { unit: 'warps', description: 'of those, partial warps that left on the collector timeout' },
  rt_predictor_avg_lookup_queue_cycles: { unit: 'cycles', description: 'cycles a ray waits in the lookup queue (4 ports by default)' },
  rt_predictor_avg_pretraversal_cycles: { unit: 'cycles', description: 'cycles from a looked-up ray\'s entry into the RT unit to its first chance to traverse: lookup queue, its warp\'s other lookups, the partial warp collector and the wait for a Warp Buffer entry' },
  rt_predictor_repacked_rays: { unit: 'rays', description: 'rays the partial warp collector moved into repacked warps' },
  rt_predictor_avg_collector_cycles: { unit: 'cycles', description: 'cycles a repacked ray spent in the partial warp collector (timeout, and the wait for a Warp Buffer entry)' },
  rt_predictor_latency_not_predicted: { unit: 'cycles', description: 'RT-unit latency (entry to finish) of a looked-up ray the table did not predict' },
  rt_predictor_latency_verified: { unit: 'cycles', description: 'RT-unit latency of a verified ray' },
  rt_predictor_latency_mispredicted: { unit: 'cycles', description: 'RT-unit latency of a mispredicted ray' },
  rt_predictor_requests_not_predicted: { unit: 'requests', description: 'RT chunk requests sent by looked-up rays the table did not predict (part of rt_total_requests)' },
  rt_predictor_requests_verified: { unit: 'requests', description: 'RT chunk requests sent by verified rays (traversal from the predicted nodes)' },
  rt_predictor_requests_mispredicted_prediction: { unit: 'requests', description: 'RT chunk requests sent by mispredicted rays while traversing from the predicted nodes (wasted)' },
  rt_predictor_requests_mispredicted_restart: { unit: 'requests', description: 'RT chunk requests sent by mispredicted rays in their restart from the root' },
  rt_predictor_merged_not_predicted: { unit: 'chunks', description: 'chunks of not-predicted rays merged into a pending request instead of sent (part of rt_merged_in_warp)' },
  rt_predictor_merged_verified: { unit: 'chunks', description: 'chunks of verified rays merged into a pending request' },
  rt_predictor_merged_mispredicted_prediction: { unit: 'chunks', description: 'chunks of mispredicted rays\' traversals from the predicted nodes merged into a pending request' },
  rt_predictor_merged_mispredicted_restart: { unit: 'chunks', description: 'chunks of mispredicted rays\' restarts merged into a pending request' },
};

export type CacheBreakdown = Record<'shader' | 'rt', Record<(typeof OUTCOME_NAMES)[number], number>>;

export interface TimingStats {
  /** Config source string (preset / file and overrides). */
  config: string;
  /** Scalars by Vulkan-Sim / GPGPU-Sim name (see STAT_META), grouped per component. */
  groups: { name: string; stats: Record<string, number> }[];
  /** Flat view of every scalar in `groups`. */
  values: Record<string, number>;
  distributions: {
    /** Fig. 13: histogram of per-warp RT latency. */
    rtWarpLatency: { binCycles: number; counts: number[] };
    /** Fig. 14: accesses by source and outcome. */
    cacheBreakdown: { L1D: CacheBreakdown; L2: CacheBreakdown };
    /** Fig. 12: the workload's point and the two bounds (per RT unit). */
    roofline: { opIntensity: number; performance: number; computeBound: number; memoryBoundBlocksPerCycle: number };
    /** VI-B: issued warp instructions by active lanes, index 0..32. */
    simtHistogram: number[];
    /** Fig. 18: rays and warps in all RT units, sampled every `intervalCycles`. */
    rtOccupancy: { intervalCycles: number; rays: number[]; warps: number[] };
    /** Paper 001 Fig. 11: the RT unit's L1D miss rate per `rtOccupancy.intervalCycles`. */
    rtL1MissRate: number[];
    /** L2 reservation fails per sample interval. */
    l2Fails: number[];
    /**
     * Per memory channel, in channel order (GPGPU-Sim prints the same per DRAM[i]): requests
     * (reads + writes), row-buffer hits, activates, and the cycles that make `dram_eff` and
     * `bwutil` (busy, pending). Shows channel load imbalance (partition camping) and each
     * channel's row locality, which the GPU-wide sums hide.
     */
    dramChannels: { requests: number[]; rowHits: number[]; activates: number[]; busBusy: number[]; pendingCycles: number[] };
  };
}

export interface StatsInput {
  config: string;
  cycles: number;
  wallSeconds: number;
  truncated: boolean;
  numSms: number;
  maxWarpsPerSm: number;
  numChannels: number;
  /** gpgpu_rt_max_warps (occupancy is a fraction of it). */
  rtMaxWarps: number;
  /** # operation units x # pipeline stages per unit, summed over unit kinds. */
  rtComputeBound: number;
  /** Intersection predictor table bytes per SM; 0 when the predictor is off (no predictor stats). */
  rtPredictorTableBytes: number;
  sm: SmStats;
  l1d: CacheStats;
  l2: CacheStats;
  dram: DramStats;
  /** Each memory channel's DRAM counters, in channel order (`dram` is their sum). */
  dramChannels: DramStats[];
  rt: RtStats;
  icntPackets: number;
  icntBytes: number;
  icntCounters: IcntCounters | null;
  numSubPartitions: number;
  memLatency: MemLatencyStats;
  sampleInterval: number;
  samplesRays: number[];
  samplesWarps: number[];
  /** Fig. 11 (paper 001): RT-unit L1D miss rate per sample interval. */
  rtL1MissRate: number[];
  /** L2 reservation fails per sample interval (all banks, all causes). */
  l2Fails: number[];
  /** Paper 001's mechanisms, when on. */
  treelet?: { stats: TreeletStats; virtualization: VirtualizationStats | null; area: ReturnType<typeof treeletTableArea> };
}

const div = (a: number, b: number): number => (b > 0 ? a / b : 0);

function breakdown(c: CacheStats): CacheBreakdown {
  const one = (src: 0 | 1) => Object.fromEntries(OUTCOME_NAMES.map((n, o) => [n, c.counts[src * OUTCOMES + o]!])) as CacheBreakdown['rt'];
  return { shader: one(0), rt: one(1) };
}

/** 1 + the index of the last non-zero entry (0 when there is none). */
function lastNonZero(series: readonly number[]): number {
  for (let i = series.length - 1; i >= 0; i--) if (series[i]! > 0) return i + 1;
  return 0;
}

export function buildStats(x: StatsInput): TimingStats {
  const cycles = x.cycles;
  const gpu = {
    gpu_sim_cycle: cycles,
    gpu_sim_insn: x.sm.threadInsts,
    gpu_warp_insn: x.sm.warpInsts,
    vvision_ir_warp_insn: x.sm.irWarpInsts,
    vvision_ir_thread_insn: x.sm.irThreadInsts,
    gpu_ipc: div(x.sm.threadInsts, cycles),
    gpu_occupancy: 100 * div(x.sm.residentWarpCycles, cycles * x.numSms * x.maxWarpsPerSm),
    gpu_simt_efficiency: 100 * div(x.sm.threadInsts, x.sm.warpInsts * 32),
    gpu_total_sim_rate: div(x.sm.threadInsts, x.wallSeconds),
    gpu_sim_cycle_rate: div(cycles, x.wallSeconds),
    gpu_warp_insn_rate: div(x.sm.warpInsts, x.wallSeconds),
    gpu_sim_wall_seconds: x.wallSeconds,
    gpu_sim_truncated: x.truncated ? 1 : 0,
    issue_sp_ops: x.sm.unitOps[IssueUnit.Sp]!,
    issue_int_ops: x.sm.unitOps[IssueUnit.Int]!,
    issue_sfu_ops: x.sm.unitOps[IssueUnit.Sfu]!,
    issue_dp_ops: x.sm.unitOps[IssueUnit.Dp]!,
    issue_ldst_ops: x.sm.unitOps[IssueUnit.Mem]!,
    issue_sp_unit_cycles: x.sm.unitCycles[IssueUnit.Sp]!,
    issue_int_unit_cycles: x.sm.unitCycles[IssueUnit.Int]!,
    issue_sfu_unit_cycles: x.sm.unitCycles[IssueUnit.Sfu]!,
    issue_dp_unit_cycles: x.sm.unitCycles[IssueUnit.Dp]!,
  };
  const l1 = {
    L1I_total_cache_accesses: x.sm.icacheAccesses,
    L1I_total_cache_miss_rate: div(x.sm.icacheMisses, x.sm.icacheAccesses),
    L1D_total_cache_accesses: x.l1d.accesses(),
    L1D_total_cache_misses: x.l1d.misses(),
    L1D_total_cache_miss_rate: div(x.l1d.misses(), x.l1d.accesses()),
    L1D_total_cache_reservation_fails: x.l1d.get(0, 4) + x.l1d.get(1, 4),
    L1D_bank_conflicts: x.sm.l1BankConflicts,
    gpgpu_n_stall_shd_mem: x.sm.ldstStallCycles,
    gpgpu_n_global_load_insn: x.sm.loadThreads,
    gpgpu_n_global_store_insn: x.sm.storeThreads,
    gpgpu_n_mem_read_global: x.l1d.sentBelow[0]!,
    gpgpu_n_mem_write_global: x.l1d.sentBelow[1]!,
  };
  const l2 = {
    L2_total_cache_accesses: x.l2.accesses(),
    L2_total_cache_misses: x.l2.misses(),
    L2_total_cache_miss_rate: div(x.l2.misses(), x.l2.accesses()),
    L2_total_cache_reservation_fails: x.l2.get(0, 4) + x.l2.get(1, 4),
    L2_reservation_fail_mshr_entry: x.l2.failCauses[FailCause.MshrEntry]!,
    L2_reservation_fail_mshr_merge: x.l2.failCauses[FailCause.MshrMerge]!,
    L2_reservation_fail_miss_queue: x.l2.failCauses[FailCause.MissQueue]!,
    L2_reservation_fails_until_cycle: lastNonZero(x.l2Fails) * x.sampleInterval,
  };
  const m = x.memLatency;
  const icnt = {
    icnt_total_packets: x.icntPackets,
    icnt_total_bytes: x.icntBytes,
    averagemflatency: div(m.responseLatencySum, m.responses),
    avg_icnt2mem_latency: div(m.icnt2memSum, m.responses),
    avg_icnt2sh_latency: div(m.icnt2shSum, m.responses),
    avg_l1_to_icnt_latency: div(m.l1ToIcntSum, m.requests),
    maxmflatency: m.maxResponseLatency,
    max_icnt2mem_latency: m.maxIcnt2mem,
    max_icnt2sh_latency: m.maxIcnt2sh,
    // GPGPU-Sim's local crossbar buffer utilisation: packets per input (output) FIFO, per cycle.
    ...(x.icntCounters ? {
      Req_Network_injected_packets_num: x.icntCounters.req.packets,
      Req_Network_conflicts_per_cycle_util: div(x.icntCounters.req.conflictsActive, x.icntCounters.req.activeCycles),
      Req_Bank_Level_Parallism: div(x.icntCounters.req.movedActive, x.icntCounters.req.activeCycles),
      Req_Network_in_buffer_avg_util: div(x.icntCounters.req.inSum, x.cycles * x.numSms),
      Req_Network_out_buffer_avg_util: div(x.icntCounters.req.outSum, x.cycles * x.numSubPartitions),
      Reply_Network_injected_packets_num: x.icntCounters.reply.packets,
      Reply_Network_conflicts_per_cycle_util: div(x.icntCounters.reply.conflictsActive, x.icntCounters.reply.activeCycles),
      Reply_Bank_Level_Parallism: div(x.icntCounters.reply.movedActive, x.icntCounters.reply.activeCycles),
      Reply_Network_in_buffer_avg_util: div(x.icntCounters.reply.inSum, x.cycles * x.numSubPartitions),
      Reply_Network_out_buffer_avg_util: div(x.icntCounters.reply.outSum, x.cycles * x.numSms),
      Req_Network_in_buffer_avg_wait: div(x.icntCounters.req.inSum, x.icntCounters.req.packets),
      Reply_Network_in_buffer_avg_wait: div(x.icntCounters.reply.inSum, x.icntCounters.reply.packets),
    } : {}),
  };
  const d = x.dram;
  const dram = {
    dram_reads: d.reads,
    dram_writes: d.writes,
    dram_row_buffer_hit_rate: div(d.rowHits, d.rowHits + d.rowMisses),
    dram_avg_read_latency: div(d.readLatencySum, d.reads),
    dram_activates: d.activates,
    dram_column_commands: d.columnCommands,
    dram_eff: div(d.busBusy, d.pendingCycles),
    bwutil: div(d.busBusy, cycles * x.numChannels),
    dram_channel_imbalance: div(Math.max(0, ...x.dramChannels.map((c) => c.reads + c.writes)) * x.dramChannels.length, d.reads + d.writes),
  };
  const r = x.rt;
  const rt = {
    rt_total_warps: r.warpsCompleted,
    rt_total_rays: r.raysCompleted,
    rt_avg_efficiency: div(r.warpEfficiencySum, r.warpsCompleted),
    rt_avg_active_rays: div(r.activeRayCycles, r.activeCycles),
    rt_avg_warp_occupancy: div(r.warpLatencySum, r.activeCycles * x.rtMaxWarps),
    rt_avg_warp_latency: div(r.warpLatencySum, r.warpsCompleted),
    rt_avg_thread_latency: div(r.warpThreadLatencySum, r.warpsCompleted),
    rt_avg_warp_ray_fraction: div(r.warpRayFractionSum, r.warpsCompleted),
    rt_avg_warp_latency_uniformity: div(r.warpUniformitySum, r.warpsWithRays),
    rt_avg_ray_latency: div(r.rayLatencySum, r.raysCompleted),
    rt_avg_ray_memory_cycles: div(r.rayMemoryCycles, r.raysCompleted),
    rt_avg_ray_op_cycles: div(r.rayOpCycles, r.raysCompleted),
    rt_avg_ray_wait_cycles: div(r.rayLatencySum - r.rayMemoryCycles - r.rayOpCycles, r.raysCompleted),
    rt_avg_nodes_per_ray: div(r.nodes, r.raysCompleted),
    rt_total_transactions: r.transactions,
    rt_total_ops: r.ops,
    rt_total_requests: r.chunkRequests,
    rt_merged_in_warp: r.mergedInWarp,
    rt_merged_across_warps: r.mergedAcrossWarps,
    rt_stack_spills: r.stackSpills,
    rt_fcc_buffer_accesses: r.coalescingAccesses,
    rt_writes: r.stores,
    rt_op_intensity: div(r.ops, r.chunkRequests),
    rt_avg_performance: div(r.opStageCycles, r.activeCycles),
    rt_active_cycle_fraction: div(r.activeCycles, cycles * x.numSms),
    rt_simt_efficiency: div(r.activeRayCycles, 32 * r.warpCycles),
  };
  const groups: { name: string; stats: Record<string, number> }[] = [
    { name: 'gpu', stats: gpu },
    { name: 'l1', stats: l1 },
    { name: 'l2', stats: l2 },
    { name: 'icnt', stats: icnt },
    { name: 'dram', stats: dram },
    { name: 'rt', stats: rt },
  ];
  if (x.treelet) groups.push({ name: 'treelet', stats: treeletGroup(x.treelet) });
  if (x.rtPredictorTableBytes > 0) groups.push({ name: 'rt_predictor', stats: predictorStats(r.predictor, x.rtPredictorTableBytes) });
  const values: Record<string, number> = {};
  for (const g of groups) Object.assign(values, g.stats);
  return {
    config: x.config,
    groups,
    values,
    distributions: {
      rtWarpLatency: latencyHistogram(r.warpLatencies),
      cacheBreakdown: { L1D: breakdown(x.l1d), L2: breakdown(x.l2) },
      roofline: {
        opIntensity: rt.rt_op_intensity,
        performance: rt.rt_avg_performance,
        computeBound: x.rtComputeBound,
        memoryBoundBlocksPerCycle: 1,
      },
      simtHistogram: Array.from(x.sm.simtHistogram),
      rtOccupancy: { intervalCycles: x.sampleInterval, rays: x.samplesRays, warps: x.samplesWarps },
      rtL1MissRate: x.rtL1MissRate,
      l2Fails: x.l2Fails,
      dramChannels: {
        requests: x.dramChannels.map((c) => c.reads + c.writes),
        rowHits: x.dramChannels.map((c) => c.rowHits),
        activates: x.dramChannels.map((c) => c.activates),
        busBusy: x.dramChannels.map((c) => c.busBusy),
        pendingCycles: x.dramChannels.map((c) => c.pendingCycles),
      },
    },
  };
}

function treeletGroup(t: NonNullable<StatsInput['treelet']>): Record<string, number> {
  const s = t.stats;
  const out: Record<string, number> = {};
  MODE_NAMES.forEach((m, i) => {
    out[`treelet_cycles_${m}`] = s.modeWarpCycles[i]!;
    out[`treelet_tests_${m}`] = s.modeTests[i]!;
    out[`treelet_warps_${m}`] = s.modeWarps[i]!;
  });
  Object.assign(out, {
    treelet_diverged_warps: s.divergedWarps,
    treelet_repacks: s.repacks,
    treelet_repacked_rays: s.repackedRays,
    treelet_queued_rays: s.queuedRays,
    treelet_ray_data_stores: s.rayDataStores,
    treelet_ray_data_loads: s.rayDataLoads,
    treelet_activated: s.treeletsActivated,
    treelet_preloaded: s.treeletsPreloaded,
    treelet_line_loads: s.treeletLineLoads,
    treelet_peak_queue_entries: s.queues.peakEntries,
    treelet_peak_treelets: s.queues.peakTreelets,
    treelet_queue_entry_spills: s.queues.entrySpills,
    treelet_count_table_overflows: s.queues.countTableOverflows,
    treelet_max_hash_chain: s.queues.maxChain,
    treelet_count_table_bytes: t.area.countTableBytes,
    treelet_queue_table_bytes: t.area.queueTableBytes,
  });
  const v = t.virtualization;
  if (v) {
    Object.assign(out, {
      virt_ctas_suspended: v.ctasSuspended,
      virt_ctas_resumed: v.ctasResumed,
      virt_saved_bytes: v.savedBytes,
      virt_restored_bytes: v.restoredBytes,
      virt_peak_suspended: v.peakSuspended,
      virt_saved_registers: v.registersPerThread,
    });
  }
  return out;
}

/**
 * The intersection predictor's figures, in the paper's terms (paper 002 Sec. 3): shares of the
 * considered rays predicted / verified / mispredicted, and the node fetches saved against the same
 * rays' full traversals (Eq. 1's n - N). The paper's memory savings compare the RT unit's memory
 * requests with a baseline run's: predictorMemorySavings.
 */
function predictorStats(p: PredictorStats, tableBytes: number): Record<string, number> {
  return {
    rt_predictor_table_bytes: tableBytes,
    rt_predictor_lookups: p.lookups,
    rt_predictor_hit_rays: p.hitRays,
    rt_predictor_predicted: p.predicted,
    rt_predictor_verified: p.verified,
    rt_predictor_mispredicted: p.mispredicted,
    rt_predictor_predicted_rate: div(p.predicted, p.lookups),
    rt_predictor_verified_rate: div(p.verified, p.lookups),
    rt_predictor_mispredicted_rate: div(p.mispredicted, p.lookups),
    rt_predictor_nodes: p.nodes,
    rt_predictor_baseline_nodes: p.baselineNodes,
    rt_predictor_prediction_nodes: p.predictionNodes,
    rt_predictor_misprediction_nodes: p.mispredictionNodes,
    rt_predictor_node_fetch_savings: div(p.baselineNodes - p.nodes, p.baselineNodes),
    rt_predictor_updates: p.updates,
    rt_predictor_repacked_warps: p.repackedWarps,
    rt_predictor_collector_timeouts: p.collectorTimeouts,
    rt_predictor_avg_lookup_queue_cycles: div(p.lookupQueueCycles, p.lookups),
    rt_predictor_avg_pretraversal_cycles: div(p.preTraversalCycles, p.preTraversalRays),
    rt_predictor_repacked_rays: p.repackedRays,
    rt_predictor_avg_collector_cycles: div(p.collectorCycles, p.repackedRays),
    rt_predictor_latency_not_predicted: div(p.latencyNotPredicted, p.lookups - p.predicted),
    rt_predictor_latency_verified: div(p.latencyVerified, p.verified),
    rt_predictor_latency_mispredicted: div(p.latencyMispredicted, p.mispredicted),
    rt_predictor_requests_not_predicted: p.requestsNotPredicted,
    rt_predictor_requests_verified: p.requestsVerified,
    rt_predictor_requests_mispredicted_prediction: p.requestsMispredictedPrediction,
    rt_predictor_requests_mispredicted_restart: p.requestsMispredictedRestart,
    rt_predictor_merged_not_predicted: p.mergedNotPredicted,
    rt_predictor_merged_verified: p.mergedVerified,
    rt_predictor_merged_mispredicted_prediction: p.mergedMispredictedPrediction,
    rt_predictor_merged_mispredicted_restart: p.mergedMispredictedRestart,
  };
}

/**
 * `rt_predictor_memory_savings` of a run with the intersection predictor against a run of the
 * baseline RT unit on the same frame (paper 002 Sec. 5.2: "assess its effectiveness by comparing
 * results to the baseline"; Fig. 13): the share of the baseline's RT-unit memory requests
 * (`rt_total_requests`, node chunks sent to the memory system after merging) the predictor run did
 * not make; negative when it made more. Undefined unless `run` has the predictor and `baseline`
 * has not.
 */
export function predictorMemorySavings(run: Readonly<Record<string, number>>, baseline: Readonly<Record<string, number>>): number | undefined {
  if (run.rt_predictor_lookups === undefined || baseline.rt_predictor_lookups !== undefined) return undefined;
  const base = baseline.rt_total_requests ?? 0;
  return base > 0 ? (base - (run.rt_total_requests ?? 0)) / base : undefined;
}

/** 40 equal bins up to the largest latency (bin width rounded up to a whole cycle). */
function latencyHistogram(lat: readonly number[]): { binCycles: number; counts: number[] } {
  let max = 0;
  for (const l of lat) if (l > max) max = l;
  const bins = 40;
  const binCycles = Math.max(1, Math.ceil((max + 1) / bins));
  const counts = new Array<number>(bins).fill(0);
  for (const l of lat) counts[Math.min(bins - 1, Math.floor(l / binCycles))]!++;
  return { binCycles, counts };
}

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(4);
}

/** Vulkan-Sim style `name = value` lines, one group after another, then the distributions. */
export function formatStats(s: TimingStats): string {
  const out: string[] = [`# vvision timing model, config: ${s.config}`];
  for (const g of s.groups) {
    out.push(`# ---- ${g.name}`);
    for (const [k, v] of Object.entries(g.stats)) out.push(`${k} = ${fmt(v)}`);
  }
  const d = s.distributions;
  out.push('# ---- distributions');
  out.push(`rt_warp_latency_bin_cycles = ${d.rtWarpLatency.binCycles}`);
  out.push(`rt_warp_latency_histogram = ${d.rtWarpLatency.counts.join(',')}`);
  for (const level of ['L1D', 'L2'] as const) {
    for (const src of ['shader', 'rt'] as const) {
      for (const [k, v] of Object.entries(d.cacheBreakdown[level][src])) out.push(`${level}_${src}_${k} = ${v}`);
    }
  }
  out.push(`simt_histogram = ${d.simtHistogram.join(',')}`);
  out.push(`rt_occupancy_interval = ${d.rtOccupancy.intervalCycles}`);
  out.push(`rt_occupancy_rays = ${d.rtOccupancy.rays.join(',')}`);
  out.push(`rt_occupancy_warps = ${d.rtOccupancy.warps.join(',')}`);
  out.push(`rt_l1_miss_rate_over_time = ${d.rtL1MissRate.map((x) => x.toFixed(4)).join(',')}`);
  out.push(`l2_reservation_fails_over_time = ${d.l2Fails.join(',')}`);
  const ch = d.dramChannels;
  const ratio = (a: number[], b: number[]) => a.map((v, i) => fmt(div(v, b[i]!))).join(',');
  out.push(`dram_channel_requests = ${ch.requests.join(',')}`);
  out.push(`dram_channel_row_buffer_hit_rate = ${ratio(ch.rowHits, ch.requests)}`);
  out.push(`dram_channel_activates_per_request = ${ratio(ch.activates, ch.requests)}`);
  out.push(`dram_channel_eff = ${ratio(ch.busBusy, ch.pendingCycles)}`);
  out.push(`dram_channel_pending_cycles = ${ch.pendingCycles.map(Math.round).join(",")}`);
  return out.join('\n') + '\n';
}
