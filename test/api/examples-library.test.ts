/**
 * examples/library is a separate npm project that depends on vvision by path (`file:../..`) and
 * imports it by name: this test installs it (npm links the path, offline), type-checks it against
 * the package's own .d.ts (through the `exports` map, as any consumer would), runs it with plain
 * node and checks what it printed against the workload.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsFresh } from '../../scripts/build-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const example = join(root, 'examples', 'library');

/** The package as a consumer gets it: build/ (with .d.ts) up to date with src/. */
function ensureBuilt(): void {
  if (!buildIsFresh(root)) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe' });
}

test.serial('examples/library installs vvision by path, type-checks against its .d.ts and runs with node', (t) => {
  t.timeout(600_000);
  ensureBuilt();
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: example, stdio: 'pipe' });
  t.true(existsSync(join(example, 'node_modules', 'vvision', 'package.json')));
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', example], { stdio: 'pipe' });
  const out = JSON.parse(execFileSync(process.execPath, [join(example, 'dist', 'profile.js')], { cwd: example, encoding: 'utf8' }));
  t.is(out.workload, 'tri');
  t.is(out.threads, 32 * 8);
  // tri: every thread traces one primary ray, which runs closest-hit or miss once.
  t.is(out.rays, out.threads);
  t.is(out.shaderEntries['raygen.rgen'], out.threads);
  t.is((out.shaderEntries['miss.rmiss'] ?? 0) + (out.shaderEntries['closesthit.rchit'] ?? 0), out.rays);
  t.true(out.dumpEntries > out.threads);
  t.true(out.simtEfficiency > 0 && out.simtEfficiency <= 1);
});

test.serial('the package exposes only its entry point: deep imports are refused', (t) => {
  ensureBuilt();
  const probe = "import('vvision/build/driver/run-dir.js').then(() => console.log('open'), (e) => console.log(e.code))";
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: example, encoding: 'utf8' }).trim();
  t.is(out, 'ERR_PACKAGE_PATH_NOT_EXPORTED');
});
