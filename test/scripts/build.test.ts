import test from 'ava';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const script = new URL('../../scripts/build.mjs', import.meta.url);

/** A project with scripts/build.mjs and a stand-in `tsc` that logs each call and writes build/. */
function project(): { dir: string; build: (...args: string[]) => void; tscCalls: () => number } {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-build-'));
  for (const d of ['scripts', 'src/sim/config/presets', 'node_modules/typescript/bin']) mkdirSync(join(dir, d), { recursive: true });
  copyFileSync(script, join(dir, 'scripts', 'build.mjs'));
  copyFileSync(new URL('build-stamp.mjs', script), join(dir, 'scripts', 'build-stamp.mjs'));
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'src', 'sim', 'config', 'presets', 'x.config'), '-gpgpu_n_clusters 1\n');
  for (const f of ['tsconfig.json', 'tsconfig.build.json', 'package.json']) writeFileSync(join(dir, f), '{}\n');
  writeFileSync(join(dir, 'node_modules', 'typescript', 'package.json'), '{"name": "typescript", "version": "0.0.0"}\n');
  writeFileSync(join(dir, 'node_modules', 'typescript', 'bin', 'tsc'),
    "const fs = require('node:fs'); fs.mkdirSync('build', { recursive: true }); fs.appendFileSync('tsc.log', 'x');\n");
  // Every input older than the stamp the first build writes.
  const past = new Date(Date.now() - 60_000);
  for (const f of ['scripts/build.mjs', 'scripts/build-stamp.mjs', 'src/a.ts', 'src/sim/config/presets/x.config', 'tsconfig.json', 'tsconfig.build.json', 'package.json']) utimesSync(join(dir, f), past, past);
  for (const d of ['src/sim/config/presets', 'src/sim/config', 'src/sim', 'src', 'scripts']) utimesSync(join(dir, d), past, past);
  return {
    dir,
    build: (...args) => execFileSync(process.execPath, [join(dir, 'scripts', 'build.mjs'), ...args], { cwd: dir }),
    tscCalls: () => (existsSync(join(dir, 'tsc.log')) ? readFileSync(join(dir, 'tsc.log'), 'utf8').length : 0),
  };
}

test('build --if-stale compiles and stamps a fresh checkout, then skips until a source changes', (t) => {
  const p = project();
  p.build('--if-stale');
  t.is(p.tscCalls(), 1);
  t.true(existsSync(join(p.dir, 'build', '.build-stamp')));
  t.true(existsSync(join(p.dir, 'build', 'sim', 'config', 'presets', 'x.config')), 'the presets are copied beside the compiled config');
  p.build('--if-stale');
  t.is(p.tscCalls(), 1, 'an up-to-date build is not compiled again (npx vvision runs prepare once per checkout path)');
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(p.dir, 'src', 'a.ts'), later, later);
  p.build('--if-stale');
  t.is(p.tscCalls(), 2, 'a source newer than the stamp rebuilds');
});

test('npm run build (no flag) always compiles', (t) => {
  const p = project();
  p.build();
  p.build();
  t.is(p.tscCalls(), 2);
});
