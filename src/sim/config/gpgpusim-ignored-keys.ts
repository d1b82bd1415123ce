/**
 * GPGPU-Sim / Accel-Sim / Vulkan-Sim options that appear in their tested configs but are not
 * parameters of this model, each with the reason it is ignored. A config file may contain them
 * -- so a researcher's gpgpusim.config (e.g. Vulkan-Sim's SM75_RTX2060) reads as it is -- and the
 * loader lists them, with their reason, instead of failing. Any key neither declared in params.ts
 * nor listed here is an error.
 */
const REASONS: readonly (readonly [string, readonly string[]])[] = [
  ['PTX / CUDA front-end or runtime switch: vvision compiles GLSL to its own IR and has no PTX, ptxplus or CUDA runtime', [
    'gpgpu_ptx_sim_mode', 'gpgpu_ptx_force_max_capability', 'gpgpu_ptx_convert_to_ptxplus', 'gpgpu_ptx_save_converted_ptxplus',
    'gpgpu_ptx_instruction_classification', 'gpgpu_ptx_use_cuobjdump', 'gpgpu_stack_size_limit', 'gpgpu_heap_size_limit',
    'gpgpu_runtime_sync_depth_limit', 'gpgpu_runtime_pending_launch_count_limit', 'gpgpu_compute_capability_major',
    'gpgpu_compute_capability_minor', 'gpgpu_ptx_inst_debug_to_file', 'gpgpu_ptx_inst_debug_file',
    'gpgpu_ptx_inst_debug_thread_uid', 'save_embedded_ptx', 'keep', 'gpgpu_local_mem_map', 'gpgpu_max_simulated_rt_kernels',
  ]],
  ['kernel launch overhead: vvision simulates one vkCmdTraceRaysKHR from its first cycle (Vulkan-Sim reports gpu_sim_cycle of the kernel alone, without it)', [
    'gpgpu_kernel_launch_latency', 'gpgpu_TB_launch_latency',
  ]],
  ['occupancy calculator / resource limit already expressed by gpgpu_shader_registers, gpgpu_shader_cta and gpgpu_shader_core_pipeline', [
    'gpgpu_occupancy_sm_number', 'gpgpu_registers_per_block', 'gpgpu_shader_cta_size', 'gpgpu_shader_registers_per_cta',
    'gpgpu_ignore_resources_limitation', 'gpgpu_max_cta', 'gpgpu_concurrent_kernel_sm',
  ]],
  ['shared memory: ray tracing shaders have no workgroup shared memory, so its size, banks and latency never matter', [
    'gpgpu_shmem_size', 'gpgpu_shmem_sizeDefault', 'gpgpu_shmem_size_PrefL1', 'gpgpu_shmem_size_PrefShared',
    'gpgpu_shmem_per_block', 'gpgpu_shmem_num_banks', 'gpgpu_shmem_limited_broadcast', 'gpgpu_shmem_warp_parts',
    'gpgpu_shmem_option', 'gpgpu_smem_latency', 'gpgpu_unified_l1d_size', 'gpgpu_adaptive_cache_config',
    'gpgpu_cache:dl1PrefL1', 'gpgpu_cache:dl1PrefShared',
  ]],
  ['L1D write ratio: the unified L1D/shared carve-out ratio is not modelled (ray tracing shaders use no shared memory, so the L1D has the whole carve-out)', [
    'gpgpu_l1_cache_write_ratio',
  ]],
  ['L1D bypass switch for CUDA ld.cg: every global access of a ray tracing shader goes through the L1D here, as with the 0 Vulkan-Sim sets', [
    'gpgpu_gmem_skip_L1D',
  ]],
  ['texture / constant caches: vvision models no texture or constant cache; uniform and texture reads go through the L1D', [
    'gpgpu_tex_cache:l1', 'gpgpu_const_cache:l1', 'gpgpu_cache:dl2_texture_only',
  ]],
  ['instruction fetch throughput: fetch is modelled by the I-cache (gpgpu_cache:il1, or gpgpu_perfect_inst_const_cache) without a fetch-width limit', [
    'gpgpu_inst_fetch_throughput',
  ]],
  ['issue-stage parts no ray tracing shader reaches: tensor cores and the specialized units (no such instruction here); gpgpu_reg_bank_use_warp_id is registered but Vulkan-Sim\'s operand collector always adds the warp id to the bank (opndcoll_rfu_t::init sets the warp shift unconditionally); the RT unit takes its instruction at issue, so gpgpu_num_rt_core_units is one RT unit per SM as modelled; gpgpu_simd_model 1 is the SIMT stack modelled', [
    'gpgpu_tensor_core_avail', 'gpgpu_num_tensor_core_units', 'gpgpu_operand_collector_num_units_tensor_core',
    'gpgpu_reg_bank_use_warp_id', 'gpgpu_num_rt_core_units', 'specialized_unit_1', 'specialized_unit_2', 'specialized_unit_3', 'gpgpu_simd_model',
  ]],
  ['latency of a unit the IR never uses: no tensor-core instructions in ray tracing shaders here', [
    'ptx_opcode_latency_tesnor', 'ptx_opcode_initiation_tensor',
    'trace_opcode_latency_initiation_dp', 'trace_opcode_latency_initiation_tensor',
  ]],
  ['Accel-Sim trace-driven latency tables: vvision is execution-driven and uses the ptx_opcode_* tables', [
    'trace_opcode_latency_initiation_int', 'trace_opcode_latency_initiation_sp', 'trace_opcode_latency_initiation_sfu',
  ]],
  ['coalescing architecture switch: the coalescer always merges a warp\'s accesses into 32-byte sectors of 128-byte lines, as sm_75 (gpgpu_coalesce_arch 75) does', [
    'gpgpu_coalesce_arch',
  ]],
  ['address-mask presets and the aliasing self-test: gpgpu_mem_addr_mapping (modelled) replaces every mask gpgpu_mem_address_mask would set (GPGPU-Sim addrdec_parseoption), so it has no effect when a mapping is given; gpgpu_mem_addr_test only checks the mapping (address-map tests do the same sweep)', [
    'gpgpu_mem_address_mask', 'gpgpu_mem_addr_test',
  ]],
  ['DRAM queue detail: each channel has one FR-FCFS queue (gpgpu_frfcfs_dram_sched_queue_size) and its return queue (gpgpu_dram_return_queue_size); separate write queues and the dual bus interface are not modelled', [
    'gpgpu_l2_rop_latency_stall',
    'dram_dual_bus_interface', 'dram_seperate_write_queue_enable', 'dram_write_queue_size',
  ]],
  ['memcpy before kernels: buffers and images are in device memory before the first launch, with caches starting empty; the flush between launches is gpgpu_flush_l1_cache / gpgpu_flush_l2_cache', [
    'gpgpu_perf_sim_memcpy', 'gpgpu_fill_entire_line_on_clean',
  ]],
  ['simulation control: vvision runs the launch to completion (its watchdog is gpgpu_deadlock_detect / gpgpu_deadlock_window)', [
    'gpgpu_max_cycle', 'gpgpu_max_insn', 'gpgpu_max_completed_cta',
  ]],
  ['interconnect detail: network_mode 2 (GPGPU-Sim\'s local crossbar) is modelled as GPGPU-Sim has it; BookSim (network_mode 1) is stood in for by a flit crossbar, so its configuration file is not read', [
    'inter_config_file', 'icnt_verbose',
  ]],
  ['statistics / visualisation / power output of GPGPU-Sim: vvision writes its own stats.txt and has no power model', [
    'enable_ptx_file_line_stats', 'visualizer_enabled', 'visualizer_outputfile', 'visualizer_zlevel', 'gpgpu_runtime_stat',
    'gpgpu_cflog_interval', 'gpgpu_memlatency_stat', 'power_simulation_enabled', 'power_trace_enabled', 'power_per_cycle_dump',
    'power_trace_zlevel', 'steady_power_levels_enabled', 'steady_state_definition', 'gpuwattch_xml_file', 'accelwattch_xml_file',
    'power_simulation_mode', 'gpgpu_clock_gated_lanes', 'gpgpu_clock_gated_reg_file',
  ]],
  ['Vulkan-Sim research options that are off in this config (coherence engine, SIMD reconvergence table experiments): not modelled; a config that turns them on is still read, and this list says so', [
    'gpgpu_rt_coherence_engine', 'gpgpu_rt_coherence_engine_config', 'gpgpu_simd_rec_time_out', 'gpgpu_simd_st_size', 'gpgpu_simd_rec_size',
  ]],
];

/** Key -> why this model ignores it. */
export const IGNORED_GPGPUSIM_KEYS: ReadonlyMap<string, string> = new Map(
  REASONS.flatMap(([reason, keys]) => keys.map((k) => [k, reason] as const)),
);
