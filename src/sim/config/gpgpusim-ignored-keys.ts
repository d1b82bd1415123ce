/**
 * GPGPU-Sim / Accel-Sim / Vulkan-Sim options that appear in their tested configs but have no
 * counterpart in this model (PTX front-end switches, power models, operand collectors, shared
 * memory, texture/constant caches, visualiser, ...). A config file may contain them -- so a
 * researcher's gpgpusim.config reads as it is -- and the loader reports them as ignored instead
 * of failing. Any key neither declared nor listed here is an error.
 */
export const IGNORED_GPGPUSIM_KEYS: ReadonlySet<string> = new Set([
  'gpgpu_ptx_sim_mode', 'gpgpu_ptx_force_max_capability', 'gpgpu_ptx_convert_to_ptxplus',
  'gpgpu_ptx_save_converted_ptxplus', 'gpgpu_ptx_instruction_classification', 'gpgpu_ptx_use_cuobjdump',
  'gpgpu_simd_model', 'gpgpu_stack_size_limit', 'gpgpu_heap_size_limit', 'gpgpu_runtime_sync_depth_limit',
  'gpgpu_runtime_pending_launch_count_limit', 'gpgpu_kernel_launch_latency', 'gpgpu_TB_launch_latency',
  'gpgpu_occupancy_sm_number', 'gpgpu_compute_capability_major', 'gpgpu_compute_capability_minor',
  'gpgpu_shmem_size', 'gpgpu_shmem_sizeDefault', 'gpgpu_shmem_size_PrefL1', 'gpgpu_shmem_size_PrefShared',
  'gpgpu_shmem_per_block', 'gpgpu_shmem_num_banks', 'gpgpu_shmem_limited_broadcast', 'gpgpu_shmem_warp_parts',
  'gpgpu_shmem_option', 'gpgpu_smem_latency', 'gpgpu_unified_l1d_size', 'gpgpu_adaptive_cache_config',
  'gpgpu_l1_banks', 'gpgpu_l1_banks_byte_interleaving', 'gpgpu_l1_banks_hashing_function',
  'gpgpu_l1_cache_write_ratio', 'gpgpu_gmem_skip_L1D', 'gpgpu_cache:dl1PrefL1', 'gpgpu_cache:dl1PrefShared',
  'gpgpu_tex_cache:l1', 'gpgpu_const_cache:l1', 'gpgpu_cache:dl2_texture_only', 'gpgpu_perfect_inst_const_cache',
  'gpgpu_inst_fetch_throughput', 'gpgpu_pipeline_widths', 'gpgpu_num_dp_units', 'gpgpu_num_int_units',
  'gpgpu_tensor_core_avail', 'gpgpu_num_tensor_core_units', 'gpgpu_sub_core_model',
  'gpgpu_enable_specialized_operand_collector', 'gpgpu_operand_collector_num_units_gen',
  'gpgpu_operand_collector_num_in_ports_gen', 'gpgpu_operand_collector_num_out_ports_gen',
  'gpgpu_operand_collector_num_units_sp', 'gpgpu_operand_collector_num_units_dp',
  'gpgpu_operand_collector_num_units_sfu', 'gpgpu_operand_collector_num_units_int',
  'gpgpu_operand_collector_num_units_tensor_core', 'gpgpu_operand_collector_num_units_mem',
  'gpgpu_operand_collector_num_in_ports_sp', 'gpgpu_operand_collector_num_out_ports_sp',
  'gpgpu_num_reg_banks', 'gpgpu_reg_bank_use_warp_id', 'gpgpu_reg_file_port_throughput',
  'gpgpu_dual_issue_diff_exec_units', 'gpgpu_coalesce_arch', 'gpgpu_ignore_resources_limitation',
  'ptx_opcode_latency_fp', 'ptx_opcode_initiation_fp', 'ptx_opcode_latency_dp', 'ptx_opcode_initiation_dp',
  'ptx_opcode_latency_tesnor', 'ptx_opcode_initiation_tensor', 'trace_opcode_latency_initiation_int',
  'trace_opcode_latency_initiation_sp', 'trace_opcode_latency_initiation_dp', 'trace_opcode_latency_initiation_sfu',
  'trace_opcode_latency_initiation_tensor', 'specialized_unit_1', 'specialized_unit_2', 'specialized_unit_3',
  'gpgpu_memlatency_stat', 'gpgpu_perf_sim_memcpy', 'gpgpu_memory_partition_indexing', 'gpgpu_mem_address_mask',
  'gpgpu_mem_addr_mapping', 'gpgpu_mem_addr_test', 'gpgpu_dram_return_queue_size', 'gpgpu_dram_partition_queues',
  'gpgpu_l2_rop_latency_stall', 'dram_data_command_freq_ratio', 'dram_bnk_indexing_policy',
  'dram_bnkgrp_indexing_policy', 'dram_dual_bus_interface', 'dram_seperate_write_queue_enable',
  'dram_write_queue_size', 'dram_elimnate_rw_turnaround', 'gpgpu_flush_l1_cache', 'gpgpu_flush_l2_cache',
  'gpgpu_max_cycle', 'gpgpu_max_insn', 'gpgpu_max_cta', 'gpgpu_max_completed_cta',
  'gpgpu_concurrent_kernel_sm', 'network_mode', 'inter_config_file', 'icnt_out_buffer_limit', 'icnt_subnets',
  'icnt_arbiter_algo', 'icnt_verbose', 'icnt_grant_cycles', 'enable_ptx_file_line_stats', 'visualizer_enabled',
  'visualizer_outputfile', 'visualizer_zlevel', 'gpgpu_runtime_stat', 'gpgpu_cflog_interval', 'power_simulation_enabled',
  'power_trace_enabled', 'power_per_cycle_dump', 'power_trace_zlevel', 'steady_power_levels_enabled',
  'steady_state_definition', 'gpuwattch_xml_file', 'accelwattch_xml_file', 'power_simulation_mode',
  'gpgpu_clock_gated_lanes', 'gpgpu_clock_gated_reg_file', 'gpgpu_ptx_inst_debug_to_file',
  'gpgpu_ptx_inst_debug_file', 'gpgpu_ptx_inst_debug_thread_uid', 'save_embedded_ptx', 'keep',
  'gpgpu_n_cluster_ejection_buffer_size', 'gpgpu_n_ldst_response_buffer_size', 'gpgpu_shader_cta_size',
  'gpgpu_shader_registers_per_cta', 'gpgpu_local_mem_map', 'gpgpu_fill_entire_line_on_clean',
]);
