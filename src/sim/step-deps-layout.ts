/**
 * What the timing model's issue stage reads of one piece's instructions (StepDeps), packed into
 * one Int32Array, one record per instruction: the issue of instruction i reads one or two cache
 * lines instead of thirteen typed arrays (their headers and elements), the issue path's largest
 * share of memory stalls (issue 25.2).
 *
 * Layout: deps[i] is the offset r of instruction i's record (i < the piece's instruction count).
 * A record is a header of DepField.Header ints, then its lists; deps[r + DepField.X] for a list X
 * is where that list starts, and the list ends where the next one starts:
 *
 *   r + Ptx    the PTX op the instruction issues as (ptx-op.ts: unit, latency, initiation interval)
 *   r + Count  the PTX instructions it stands for (0: none, e.g. a register-promoted variable's
 *              load; it issues nothing), at most 255
 *   r + Dst    its destination register (-1: none), numbered by SSA value id as GPGPU-Sim numbers
 *              PTX's virtual registers (the operand collector's register banks)
 *   r + Extra  the PTX instructions after the first, by the unit class each issues to
 *              (`packExtraOps`: SP, INT, SFU, DP, 8 bits each, at most 255 per class), which
 *              take their units' initiation intervals as the first one does (issue 26)
 *   [Deps, Chain)   the earlier instructions of the step whose results it reads (in-step
 *                   producers, for the per-instruction scoreboard)
 *   [Chain, Regs)   the PTX ops that follow it on the critical path of the sequence it becomes
 *   [Regs, XSrc)    its source registers
 *   [XSrc, WKeys)   the cross-step keys it reads: SSA value ids defined before the piece, and
 *                   promoted variables not stored in the piece before it, as 2^30 + their first slot
 *   [WKeys, PhiKeys) the keys it writes: its result's id, and the promoted variables stored from it
 *   [PhiKeys, End)  the keys its block's phi movs write (the first instruction of a block's first
 *                   piece): the phis' values and the promoted variables NIR has phis for, written
 *                   back a mov's latency after it issues (translate_phi's movs, which read their
 *                   sources among its XSrc)
 *
 * Values from earlier steps are not among the in-step producers: the cross-step register table
 * (timing/register-table.ts) answers for them.
 */

/** A piece's instruction records (see the file comment). */
export type StepDeps = Int32Array;

/** Fields of an instruction's record header: offsets from the record's start. */
export const enum DepField {
  Ptx = 0,
  Count = 1,
  Dst = 2,
  Deps = 3,
  Chain = 4,
  Regs = 5,
  XSrc = 6,
  WKeys = 7,
  PhiKeys = 8,
  End = 9,
  Extra = 10,
  Header = 11,
}

/** The unit classes of `DepField.Extra`, in its byte order (ptx-op.ts IssueUnit Sp, Int, Sfu, Dp). */
export const EXTRA_CLASSES = 4;

/** Packs per-class counts (SP, INT, SFU, DP) into one `DepField.Extra` word, each clamped to 255. */
export function packExtraOps(perClass: readonly number[]): number {
  let w = 0;
  for (let c = 0; c < EXTRA_CLASSES; c++) w |= Math.min(255, Math.max(0, perClass[c] ?? 0)) << (8 * c);
  return w >>> 0;
}

/** Class `c`'s count in a packed `DepField.Extra` word. */
export function extraOpsOf(word: number, c: number): number {
  return (word >>> (8 * c)) & 255;
}

/** One instruction's entry, as the builder (functional/step-deps.ts) and tests state it. */
export interface InstDeps {
  ptx: number;
  /** PTX instructions it stands for (clamped to 255). */
  count: number;
  /** Destination register, -1 for none. */
  dst: number;
  /** The PTX instructions after the first by unit class (SP, INT, SFU, DP); absent: none. */
  extra?: readonly number[];
  deps: readonly number[];
  chain: readonly number[];
  regs: readonly number[];
  xsrc: readonly number[];
  wkeys: readonly number[];
  /** Keys its block's phi movs write (absent: none). */
  phiKeys?: readonly number[];
}

/** Packs the instructions' entries into the records of one piece. */
export function packStepDeps(insts: readonly InstDeps[]): StepDeps {
  const n = insts.length;
  let size = n;
  for (const d of insts) size += DepField.Header + d.deps.length + d.chain.length + d.regs.length + d.xsrc.length + d.wkeys.length + (d.phiKeys?.length ?? 0);
  const out = new Int32Array(size);
  let at = n;
  insts.forEach((d, i) => {
    const r = at;
    out[i] = r;
    out[r + DepField.Ptx] = d.ptx;
    out[r + DepField.Count] = Math.min(255, d.count);
    out[r + DepField.Dst] = d.dst;
    out[r + DepField.Extra] = packExtraOps(d.extra ?? []);
    at = r + DepField.Header;
    const lists: [DepField, readonly number[]][] = [
      [DepField.Deps, d.deps], [DepField.Chain, d.chain], [DepField.Regs, d.regs], [DepField.XSrc, d.xsrc], [DepField.WKeys, d.wkeys], [DepField.PhiKeys, d.phiKeys ?? []],
    ];
    for (const [field, list] of lists) {
      out[r + field] = at;
      out.set(list, at);
      at += list.length;
    }
    out[r + DepField.End] = at;
  });
  return out;
}
