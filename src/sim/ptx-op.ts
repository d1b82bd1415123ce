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

/** The functional unit a PTX op issues to (GPGPU-Sim's op_type: SP_OP, INTP_OP / ALU_OP, SFU_OP, DP_OP). */
export const enum PtxUnit {
  Sp = 0,
  Int = 1,
  Sfu = 2,
  Dp = 3,
}

export function ptxUnitOf(op: PtxOp): PtxUnit {
  if (op === PtxOp.Sfu || op === PtxOp.IntDiv || op === PtxOp.FpDiv) return PtxUnit.Sfu;
  if (op >= PtxOp.DpAdd && op <= PtxOp.DpDiv) return op === PtxOp.DpDiv ? PtxUnit.Sfu : PtxUnit.Dp;
  if (op >= PtxOp.FpAdd && op <= PtxOp.FpMad) return PtxUnit.Sp;
  return PtxUnit.Int;
}

export const PTX_OP_NAMES: readonly string[] = [
  'other (mov, setp, selp, cvt, logic, shifts, branches)', 'int add', 'int min/max', 'int mul', 'int mad', 'int div', 'shfl',
  'fp add', 'fp min/max', 'fp mul', 'fp mad', 'fp div', 'dp add', 'dp min/max', 'dp mul', 'dp mad', 'dp div', 'sfu',
];
