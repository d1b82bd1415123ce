import test from 'ava';
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { calibrationDir } from '../src/sim/workload/load-manifest.js';
import { REPO_ROOT } from './repo-root.js';

// npm test runs this file compiled into .test-build/ (scripts/test.mjs), npx ava from its source:
// both must see the checkout, and the tests that need ../shared must find it where it is.
test('the repository root is the checkout, from the source or compiled', (t) => {
  t.is(realpathSync(REPO_ROOT), realpathSync(process.cwd()));
});

test('the calibration data is found when ../shared holds it', (t) => {
  const beside = join(REPO_ROOT, '..', 'shared', 'calibration');
  if (!existsSync(beside)) return t.pass('no ../shared/calibration beside this checkout');
  t.true(existsSync(join(calibrationDir(), 'lumibench-wknd')), `calibrationDir() = ${calibrationDir()}`);
});
