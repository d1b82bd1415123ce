/**
 * The timing model's watchdog: a run that stops progressing ends with a message naming the stuck
 * SM, warp and unit (GPGPU-Sim's deadlock detection), never a hang or an internal error.
 */
import test from 'ava';
import { loadConfig, simulate, type TimingWarp } from '../../../src/sim/timing/index.js';
import { ProgressWatchdog, TimingStallError } from '../../../src/sim/timing/watchdog.js';
import type { WarpStep } from '../../../src/sim/warp-step.js';

test('the watchdog fires only after its window without progress', (t) => {
  const w = new ProgressWatchdog(100);
  w.progressed(10);
  t.notThrows(() => w.check(110, () => 'x'));
  const e = t.throws(() => w.check(111, () => 'SM 3 is stuck'), { instanceOf: TimingStallError });
  t.regex(e!.message, /no warp issued and no memory reply arrived for 101 cycles \(gpgpu_deadlock_cycles = 100\), stopped at cycle 111: SM 3 is stuck/);
});

/** A warp whose steps never issue an instruction and never finish: a livelocked model. */
class SpinningWarp implements TimingWarp {
  readonly done = false;
  step(): WarpStep {
    return { warp: 0, fn: 0, block: 0, activeMask: -1, insts: 0, opClasses: new Uint8Array(0), memory: [], done: false };
  }
}

test('a run that spins without issuing stops with the stuck SM and warp named', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_deadlock_cycles=2000']);
  const e = t.throws(() => simulate([new SpinningWarp()], cfg), { instanceOf: TimingStallError });
  t.regex(e!.message, /stalled: .* stopped at cycle \d+: 0 of 1 warps done; SM 0, warp slot 0 \(1 warps resident\): ready, but its steps issue no instructions/);
});
