/** `--frames` and `--frame-range` (issue 24) as run options, and their usage errors. */
import test from 'ava';
import { parseRunOptions } from '../../src/cli/run-options.js';
import { CliUsageError } from '../../src/cli/user-errors.js';

test('--frames N and --frame-range A..B', (t) => {
  t.deepEqual(parseRunOptions({ frames: '4' }), { frames: 4 });
  t.deepEqual(parseRunOptions({ frameRange: '2..5' }), { firstFrame: 2, frames: 6 });
  t.deepEqual(parseRunOptions({ frameRange: '3..3', frames: '4' }), { firstFrame: 3, frames: 4 });
  t.throws(() => parseRunOptions({ frames: '0' }), { instanceOf: CliUsageError, message: /--frames: expected an integer in \[1, 100000\]/ });
  t.throws(() => parseRunOptions({ frameRange: '5..2' }), { instanceOf: CliUsageError, message: /first <= last/ });
  t.throws(() => parseRunOptions({ frameRange: '1-2' }), { instanceOf: CliUsageError });
  t.throws(() => parseRunOptions({ frameRange: '0..1', frames: '5' }), { instanceOf: CliUsageError, message: /give one of them/ });
});
