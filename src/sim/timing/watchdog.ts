/**
 * The timing model's deadlock detection, GPGPU-Sim's analogue (`gpgpu_deadlock_detect`; GPGPU-Sim
 * checks every 50,000 cycles that some instruction was issued): a run whose cycle counter
 * advances for `gpgpu_deadlock_window` cycles with no warp issuing, no memory reply reaching an SM
 * and no warp finishing stops with a TimingDeadlockError naming the stuck SM, warp and unit,
 * instead of spinning (or skipping events) forever.
 *
 * Each RT unit is also checked on its own: one that holds warps and in which no ray has retired a
 * transaction (and no warp entered, got a store acknowledgement or left) for the window stops the
 * run too, naming the ray and what it waits on. A lone ray that never advances is thus caught even
 * while memory replies keep arriving or other warps keep issuing (a livelock the global test
 * above cannot see). A ray with a long but advancing transaction list is not a deadlock.
 *
 * It only observes: `observe` is called once per simulated step of the main loop with the cycle,
 * the next cycle the loop would jump to, and whether anything progressed. Invariant: it never
 * changes the model's state, so a run that does not deadlock has the same cycles with or without it.
 */
import type { Sm } from './sm.js';

/** The model stopped making progress; the message says where. A user-facing error (the CLI exits 1). */
export class TimingDeadlockError extends Error {
  constructor(message: string, readonly sm: number, readonly slot: number, readonly unit: string) {
    super(message);
    this.name = 'TimingDeadlockError';
  }
}

export class DeadlockWatchdog {
  private lastProgressCycle = 0;
  private lastReplies = 0;
  private lastWarpsDone = 0;

  /** `windowCycles` = Infinity turns detection off. */
  constructor(private readonly windowCycles: number) {}

  /**
   * Records progress at cycle `now` (an issue, a memory reply delivered to an SM since the last
   * call, a warp finished); throws when the loop is about to move to `next` more than the window
   * after the last progress.
   */
  observe(now: number, next: number, issued: boolean, repliesDelivered: number, sms: readonly Sm[]): void {
    if (issued || repliesDelivered !== this.lastReplies) {
      this.lastProgressCycle = now;
      this.lastReplies = repliesDelivered;
    } else {
      let done = 0;
      for (const sm of sms) done += sm.stats.warpsFinished;
      if (done !== this.lastWarpsDone) {
        this.lastProgressCycle = now;
        this.lastWarpsDone = done;
      }
    }
    if (next - this.lastProgressCycle > this.windowCycles) throw this.report(now, next, sms);
    if (this.windowCycles === Infinity) return;
    for (const sm of sms) {
      const since = sm.rt.lastProgress;
      if (next - since <= this.windowCycles || sm.rt.residentWarps === 0) continue;
      const w = sm.rtStall()!;
      throw new TimingDeadlockError(
        `timing model deadlock: no ray of the RT unit of SM ${sm.id} advanced since cycle ${since} ` +
          `(gpgpu_deadlock_window = ${this.windowCycles} cycles; now cycle ${now}, next event at cycle ${next}): ` +
          `SM ${sm.id}, warp in slot ${w.slot} (CTA ${w.cta}) waits on ${w.unit}`,
        sm.id, w.slot, w.unit,
      );
    }
  }

  private report(now: number, next: number, sms: readonly Sm[]): TimingDeadlockError {
    const idle = next === Infinity ? 'and no component has any event pending' : `(the next event is at cycle ${next})`;
    const head =
      `timing model deadlock: no warp issued, no memory request retired and no warp finished since cycle ${this.lastProgressCycle} ` +
      `(gpgpu_deadlock_window = ${this.windowCycles} cycles; now cycle ${now}) ${idle}`;
    for (const sm of sms) {
      const stalled = sm.stalledWarps(now);
      if (stalled.length === 0) continue;
      const w = stalled[0]!;
      const others = stalled.length > 1 ? `; ${stalled.length - 1} more warps on this SM are stuck too` : '';
      return new TimingDeadlockError(`${head}: SM ${sm.id}, warp in slot ${w.slot} (CTA ${w.cta}) waits on ${w.unit}${others}`, sm.id, w.slot, w.unit);
    }
    return new TimingDeadlockError(`${head}: no warp is resident (the CTA scheduler or the memory system never drains)`, -1, -1, 'none');
  }
}
