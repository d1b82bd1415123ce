/**
 * The per-instruction register scoreboard of a warp context inside one step (GPGPU-Sim's
 * scoreboard, per step): instruction i may issue once every result it reads is written back. An
 * ALU / SFU result is ready at its writeback (operand-collector.ts); a loaded value once the
 * load's last response is back (`settle`), Infinity until then. Dependencies on earlier steps are
 * the SM's cross-step register table.
 *
 * Invariants: per context, a ring of the ready cycle of recent instructions, with more entries
 * than the longest op latency, so a producer that fell out of the ring was ready already (a load
 * still outstanding after a ring of instructions is the exception this accepts); each ring entry's
 * owner tag names the step and instruction it belongs to, so a late `settle` never overwrites a
 * newer one, and a new step needs no wipe of the ring (`startStep` counts the context's steps);
 * `readyInst[c]` is an instruction of the context's current step found ready at some cycle (-1
 * after `startStep`): its producers are all written back, and that does not change before it
 * issues, so it stays ready while it waits for a unit or the LD/ST queue. A ring entry is a pair
 * (owner tag, ready cycle) side by side in one Float64Array, so a probe reads one cache line; tag 0
 * is no owner, so the rings of contexts never used stay untouched (zero) memory. A step has fewer
 * than STEP_SPAN instructions.
 */
import { DepField, type StepDeps } from '../step-deps-layout.js';

/** Owner tags of one step: step * STEP_SPAN + instruction + 1, exact in a double for 2^29 steps per context. */
const STEP_SPAN = 2 ** 24;

export class InstructionScoreboard {
  /** Per context, a ring of (owner tag, ready cycle) pairs. */
  private readonly ring: Float64Array;
  private readonly mask: number;
  private readonly readyInst: Int32Array;
  /** Per context: the owner tag of its current step's instruction 0 less one (step * STEP_SPAN). */
  private readonly stepBase: Float64Array;

  constructor(contexts: number, longestLatency: number) {
    const ring = 2 ** Math.ceil(Math.log2(longestLatency + 2));
    this.mask = ring - 1;
    this.ring = new Float64Array(contexts * ring * 2);
    this.readyInst = new Int32Array(contexts).fill(-1);
    this.stepBase = new Float64Array(contexts);
  }

  /** Context c starts a step (or resumes one): no instruction of it is known ready yet. */
  startStep(c: number): void {
    this.readyInst[c] = -1;
    this.stepBase[c]! += STEP_SPAN;
  }

  /** Instruction i of context c issued; its result is ready at `done` (Infinity: a load, until `settle`). */
  issued(c: number, i: number, done: number): void {
    const e = (c * (this.mask + 1) + (i & this.mask)) * 2;
    this.ring[e] = this.stepBase[c]! + i + 1;
    this.ring[e + 1] = done;
  }

  /** Load instruction i of the context's current step has its data back: ready at `done`. */
  settle(c: number, i: number, done: number): void {
    const e = (c * (this.mask + 1) + (i & this.mask)) * 2;
    if (this.ring[e] === this.stepBase[c]! + i + 1) this.ring[e + 1] = done;
  }

  /**
   * The cycle instruction i of context c may issue as far as its operands go (Infinity while one
   * is a load not yet back). `now`: an answer not after it is remembered (0 next time).
   */
  readyAt(c: number, deps: StepDeps, i: number, now: number): number {
    if (this.readyInst[c] === i) return 0;
    let ready = 0;
    const ring = this.mask + 1;
    const base = this.stepBase[c]! + 1;
    const r = deps[i]!;
    for (let k = deps[r + DepField.Deps]!, end = deps[r + DepField.Chain]!; k < end; k++) {
      const p = deps[k]!;
      if (i - p < ring) {
        const e = (c * ring + (p & this.mask)) * 2;
        if (this.ring[e] === base + p && this.ring[e + 1]! > ready) ready = this.ring[e + 1]!;
      }
    }
    if (ready <= now) this.readyInst[c] = i;
    return ready;
  }
}
