/**
 * The latency rows of GPGPU-Sim's `ptx_instruction::set_opcode_and_latency` (cuda-sim.cc), which
 * Vulkan-Sim uses for the PTX its NIR-to-PTX translator emits: each PTX opcode has a latency and
 * an initiation interval from the config's `ptx_opcode_latency_*` / `ptx_opcode_initiation_*`
 * lists (ADD/SUB [0], MAX/MIN [1], MUL [2], MAD [3], DIV [4], SHFL [5]), transcendentals take
 * `ptx_opcode_latency_sfu`, and every opcode the switch does not name (mov, setp, selp, cvt,
 * and/or/xor/not, shl/shr, neg, abs, rem, branches) keeps latency 1 and interval 1.
 *
 * The functional core gives each instruction the PTX op it issues as and, for an IR instruction
 * that Vulkan-Sim's translator expands into a dependent sequence (dot, normalize, pow, clamp...),
 * the ops that follow on the sequence's critical path (`ptx-ops-of.ts`); the timing model charges
 * the first op's unit and latency and each following op's latency plus the issue-to-writeback
 * pipeline (operand-collector.ts).
 */
export const enum PtxOp {
  /** Every opcode set_opcode_and_latency leaves at its default: latency 1, interval 1. */
  Other = 0,
  IntAdd = 1,
  IntMinMax = 2,
  IntMul = 3,
  IntMad = 4,
  /** div.s32 / div.u32: SFU_OP with the integer DIV latency. */
  IntDiv = 5,
  Shfl = 6,
  FpAdd = 7,
  FpMinMax = 8,
  FpMul = 9,
  FpMad = 10,
  /** div.f32: SFU_OP with the fp DIV latency. */
  FpDiv = 11,
  DpAdd = 12,
  DpMinMax = 13,
  DpMul = 14,
  DpMad = 15,
  DpDiv = 16,
  /** sqrt, rsqrt, rcp, sin, cos, ex2, lg2: SFU_OP, ptx_opcode_latency_sfu. */
  Sfu = 17,
}

export const PTX_OP_COUNT = 18;

/**
 * The unit classes an instruction issues to (GPGPU-Sim's op_type SP_OP, INTP_OP / ALU_OP, SFU_OP,
 * DP_OP, and the LD/ST unit), which are also its ID_OC / OC_EX register sets.
 */
export const enum IssueUnit {
  Sp = 0,
  Int = 1,
  Sfu = 2,
  Dp = 3,
  Mem = 4,
}
export const ISSUE_UNITS = 5;

/** The unit class a PTX op issues to, on a GPU with INT and DP units (sm.ts folds them into SP / SFU when there are none). */
export function ptxUnitOf(op: PtxOp): IssueUnit {
  if (op === PtxOp.Sfu || op === PtxOp.IntDiv || op === PtxOp.FpDiv || op === PtxOp.DpDiv) return IssueUnit.Sfu;
  if (op >= PtxOp.DpAdd && op <= PtxOp.DpMad) return IssueUnit.Dp;
  if (op >= PtxOp.FpAdd && op <= PtxOp.FpMad) return IssueUnit.Sp;
  return IssueUnit.Int;
}
