/**
 * The timing model's own watchdog (GPGPU-Sim's deadlock detection, `gpgpu_deadlock_detect`): a
 * run whose cycle counter advances while no warp issues and no memory reply arrives for
 * `gpgpu_deadlock_cycles` cycles, or that has no next event while warps remain, stops with a
 * message naming the stuck SM, warp and unit instead of spinning forever or failing as an
 * internal error.
 */

/** A timing run that stopped making progress (a model or configuration problem, shown to the user). */
export class TimingStallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimingStallError';
  }
}

export class ProgressWatchdog {
  private lastProgress = 0;

  constructor(private readonly windowCycles: number) {}

  /** Something progressed at cycle `now` (an instruction issued, a reply arrived). */
  progressed(now: number): void {
    this.lastProgress = now;
  }

  /** Throws when nothing progressed for longer than the window; `describe` names what is stuck. */
  check(now: number, describe: () => string): void {
    if (now - this.lastProgress > this.windowCycles) {
      throw new TimingStallError(
        `timing model stalled: no warp issued and no memory reply arrived for ${now - this.lastProgress} cycles `
        + `(gpgpu_deadlock_cycles = ${this.windowCycles}), stopped at cycle ${now}: ${describe()}`,
      );
    }
  }
}
