/**
 * Memory latencies as GPGPU-Sim's `gpgpu_memlatency_stat` prints them (mem_latency_stat.cc), so
 * they compare with a Vulkan-Sim stats.txt. GPGPU-Sim counts every data response an SM takes (load
 * replies and write acks, `memlatstat_read_done` in simt_core_cluster::icnt_cycle):
 * `averagemflatency` from a request's creation (a shader access's entry into the L1D latency
 * pipeline, an RT access's L1D lookup) to its response reaching the SM; `avg_icnt2mem_latency`
 * from creation to the L2 taking the request off the network, summed over requests and divided by
 * the responses; `avg_icnt2sh_latency` from the L2 pushing the response into the network to the SM
 * taking it. vvision adds the split of icnt2mem: `avg_l1_to_icnt_latency`, creation to the L1
 * handing the request to the network (pipeline and miss queue), per request from an SM.
 */
export class MemLatencyStats {
  /** Responses (load replies and write acks) delivered to SMs. */
  responses = 0;
  responseLatencySum = 0;
  icnt2memSum = 0;
  /** Requests from SMs that reached an L2. */
  requests = 0;
  /** Over those requests: creation to the L1 handing it to the network. */
  l1ToIcntSum = 0;
  icnt2shSum = 0;
  /** The longest of each (GPGPU-Sim maxmflatency, max_icnt2mem_latency, max_icnt2sh_latency). */
  maxResponseLatency = 0;
  maxIcnt2mem = 0;
  maxIcnt2sh = 0;
}
