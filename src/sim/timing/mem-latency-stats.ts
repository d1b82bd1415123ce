/**
 * Memory latencies as GPGPU-Sim's `gpgpu_memlatency_stat` prints them (mem_latency_stat.cc), so
 * they compare with a Vulkan-Sim stats.txt: `averagemflatency` from a load's creation (a shader
 * load's entry into the L1D latency pipeline, an RT load's L1D access) to its reply reaching the
 * SM; `avg_icnt2mem_latency` from creation to the L2 taking the request off the network (every
 * request, divided by the loads, as GPGPU-Sim divides it); `avg_icnt2sh_latency` from the L2
 * pushing the reply into the network to the SM taking it. vvision adds the split of icnt2mem:
 * `avg_l1_to_icnt_latency`, creation to the L1 handing the request to the network (pipeline and
 * miss queue), per request from an SM.
 */
export class MemLatencyStats {
  /** Load replies delivered to SMs. */
  reads = 0;
  readLatencySum = 0;
  icnt2memSum = 0;
  /** Requests from SMs that reached an L2. */
  requests = 0;
  /** Over those requests: creation to the L1 handing it to the network. */
  l1ToIcntSum = 0;
  icnt2shSum = 0;
}
