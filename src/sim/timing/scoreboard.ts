/**
 * The per-instruction register scoreboard of a warp context inside one step (GPGPU-Sim's
 * scoreboard, per step): instruction i may issue once every result it reads is ready. An ALU /
 * SFU result is ready its op latency after issue; a loaded value when the context's loads are
 * back. Dependencies on earlier steps are not tracked: a step starts only when those are ready.
 *
 * Invariants: per context, a ring of the ready cycle of recent instructions, with more entries
 * than the longest op latency, so a producer that fell out of the ring was ready already;
 * `memBlocked` is 1 exactly while the context waits for a load a later instruction reads;
 * `readyInst[c]` is an instruction of the context's current step found ready at some cycle
 * (-1 after `startStep`): its producers have all issued and no load is outstanding, and neither
 * changes before it issues, so it stays ready while it waits for a unit or the LD/ST queue.
 */
import type { StepDeps } from '../warp-step.js';

export class InstructionScoreboard {
  private readonly doneAt: Float64Array;
  private readonly mask: number;
  private readonly memBlocked: Uint8Array;
  private readonly readyInst: Int32Array;

  constructor(contexts: number, longestLatency: number) {
    const ring = 2 ** Math.ceil(Math.log2(longestLatency + 2));
    this.mask = ring - 1;
    this.doneAt = new Float64Array(contexts * ring);
    this.memBlocked = new Uint8Array(contexts);
    this.readyInst = new Int32Array(contexts).fill(-1);
  }

  /** Context c starts a step (or resumes one): no instruction of it is known ready yet. */
  startStep(c: number): void {
    this.readyInst[c] = -1;
  }

  /** Instruction i of context c issued; its result is ready at `done`. */
  issued(c: number, i: number, done: number): void {
    this.doneAt[c * (this.mask + 1) + (i & this.mask)] = done;
  }

  /**
   * The cycle instruction i of context c may issue as far as its operands go, or Infinity while
   * one of them is a load and the context has loads outstanding (then the context is marked
   * blocked until `loadsDone`). `now`: an answer not after it is remembered (0 next time).
   */
  readyAt(c: number, deps: StepDeps, i: number, pendingLoads: number, now: number): number {
    if (this.readyInst[c] === i) return 0;
    let ready = 0;
    const ring = this.mask + 1;
    for (let k = deps.start[i]!, end = deps.start[i + 1]!; k < end; k++) {
      const p = deps.list[k]!;
      if (deps.fromMemory[p] === 1) {
        if (pendingLoads > 0) {
          this.memBlocked[c] = 1;
          return Infinity;
        }
      } else if (i - p < ring) {
        const t = this.doneAt[c * ring + (p & this.mask)]!;
        if (t > ready) ready = t;
      }
    }
    if (ready <= now) this.readyInst[c] = i;
    return ready;
  }

  /** Context c's loads are all back: true if an instruction was waiting for them. */
  loadsDone(c: number): boolean {
    if (this.memBlocked[c] !== 1) return false;
    this.memBlocked[c] = 0;
    return true;
  }
}
