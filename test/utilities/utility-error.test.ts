/**
 * runUtilityCode: a user hook's value comes back, what it throws becomes a UtilityError naming the
 * utility and phase, and a hook that never returns is stopped by the watchdog (issue 20.2) with a
 * UtilityError saying how to allow longer.
 */
import test from 'ava';
import { runUtilityCode, UtilityError, utilityTimeoutMs } from '../../src/utilities/utility-error.js';

test('a hook returns its value; what it throws becomes a UtilityError naming the utility and the phase', (t) => {
  t.deepEqual(runUtilityCode({ name: 'u' }, 'analyse', () => ({ x: 1 })), { x: 1 });
  const e = t.throws(() => runUtilityCode({ name: 'u' }, 'place', () => {
    throw new Error('no such block');
  }), { instanceOf: UtilityError });
  t.is(e!.message, "utility 'u' failed in place: no such block");
});

test('a hook looping forever is stopped at the deadline, in the same thread', (t) => {
  const t0 = performance.now();
  const e = t.throws(() => runUtilityCode({ name: 'spin' }, 'place', () => {
    for (;;) {
      // an endless loop in user code
    }
  }, 200), { instanceOf: UtilityError });
  t.is(e!.message, "utility 'spin' did not finish place within 0.2 s and was stopped (an endless loop?); VVISION_UTILITY_TIMEOUT_S=<seconds> allows longer");
  t.true(performance.now() - t0 < 10_000);
  // The thread is usable afterwards.
  t.is(runUtilityCode({ name: 'spin' }, 'analyse', () => 7, 200), 7);
});

test('the deadline is 120 s unless VVISION_UTILITY_TIMEOUT_S says otherwise', (t) => {
  const before = process.env.VVISION_UTILITY_TIMEOUT_S;
  delete process.env.VVISION_UTILITY_TIMEOUT_S;
  t.is(utilityTimeoutMs(), 120_000);
  process.env.VVISION_UTILITY_TIMEOUT_S = '2.5';
  t.is(utilityTimeoutMs(), 2500);
  if (before === undefined) delete process.env.VVISION_UTILITY_TIMEOUT_S;
  else process.env.VVISION_UTILITY_TIMEOUT_S = before;
});
