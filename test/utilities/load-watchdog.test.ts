/**
 * withLoadWatchdog (the CLI's deadline on loading user utilities): a load that loops past the
 * deadline ends the process with one error line on stderr and a non-zero status; a load that
 * finishes leaves the process alone. Run in a child process, since ending the process is the point.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const module = pathToFileURL(join(import.meta.dirname, '..', '..', 'src', 'utilities', 'load-watchdog.ts')).href;

/** A child that "loads" for `spinMs` of synchronous looping under a 300 ms watchdog. */
function child(spinMs: number) {
  const code = `import { withLoadWatchdog } from ${JSON.stringify(module)};
await withLoadWatchdog('spin.ts', async () => { const t = Date.now(); while (Date.now() - t < ${spinMs}) {} return 1; }, 300);
console.log('loaded');`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 120_000 });
}

test('a load looping past the deadline ends the process with one error line and no stack trace', (t) => {
  const r = child(60_000);
  t.is(r.signal, 'SIGTERM', r.stderr);
  t.is(r.stdout, '');
  t.is(r.stderr, 'vvision: error: spin.ts: loading the utility did not finish within 0.3 s (an endless loop in its top-level code?); VVISION_UTILITY_TIMEOUT_S=<seconds> allows longer\n');
});

test('a load that finishes in time is left alone', (t) => {
  const r = child(0);
  t.is(r.status, 0, r.stderr);
  t.is(r.stdout, 'loaded\n');
});
