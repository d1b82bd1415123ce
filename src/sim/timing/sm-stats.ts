/**
 * One SM's counters (sm.ts), summed over the SMs for stats.txt (stats.ts): instructions issued as
 * GPGPU-Sim counts them and as the functional core executed them, SIMT efficiency, residency,
 * instruction-cache, L1D-bank and LD/ST lane counts, and the issue units' operations and cycles.
 */
import { ISSUE_UNITS } from '../ptx-op.js';

export class SmStats {
  /** PTX-equivalent warp and thread instructions issued (GPGPU-Sim's gpu_warp_insn / gpu_sim_insn). */
  warpInsts = 0;
  threadInsts = 0;
  /** IR instructions issued: one per instruction the functional core executed. */
  irWarpInsts = 0;
  irThreadInsts = 0;
  /** Issued warp instructions by number of active lanes (index 0..32): SIMT efficiency. */
  readonly simtHistogram = new Float64Array(33);
  /** Sum over cycles of resident warps. */
  residentWarpCycles = 0;
  /** Cycles in which at least one instruction issued. */
  issueCycles = 0;
  icacheAccesses = 0;
  icacheMisses = 0;
  /** Cycles the LD/ST unit stopped at an L1D bank conflict (GPGPU-Sim BK_CONF). */
  l1BankConflicts = 0;
  /**
   * Cycles the LD/ST unit ended with an issued access still waiting to enter the L1D pipelines
   * (GPGPU-Sim gpgpu_n_stall_shd_mem: its dispatch register still held a memory instruction).
   */
  ldstStallCycles = 0;
  /** Active lanes of issued memory loads and stores (GPGPU-Sim gpgpu_n_global_load_insn / _store_insn: every space here is global memory there). */
  loadThreads = 0;
  storeThreads = 0;
  warpsFinished = 0;
  /** PTX warp instructions issued to each unit class (ptx-op.ts IssueUnit: SP, INT, SFU, DP, LD/ST). */
  readonly unitOps = new Float64Array(ISSUE_UNITS);
  /** Unit-cycles those instructions held their units: each its initiation interval. */
  readonly unitCycles = new Float64Array(ISSUE_UNITS);
  add(o: SmStats): void {
    this.warpInsts += o.warpInsts;
    this.threadInsts += o.threadInsts;
    this.irWarpInsts += o.irWarpInsts;
    this.irThreadInsts += o.irThreadInsts;
    for (let i = 0; i < 33; i++) this.simtHistogram[i]! += o.simtHistogram[i]!;
    this.residentWarpCycles += o.residentWarpCycles;
    this.issueCycles += o.issueCycles;
    this.icacheAccesses += o.icacheAccesses;
    this.icacheMisses += o.icacheMisses;
    this.l1BankConflicts += o.l1BankConflicts;
    this.ldstStallCycles += o.ldstStallCycles;
    this.loadThreads += o.loadThreads;
    this.storeThreads += o.storeThreads;
    this.warpsFinished += o.warpsFinished;
    for (let u = 0; u < ISSUE_UNITS; u++) {
      this.unitOps[u]! += o.unitOps[u]!;
      this.unitCycles[u]! += o.unitCycles[u]!;
    }
  }
}
