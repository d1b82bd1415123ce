#!/usr/bin/env node
/**
 * `npm test`: type-checks and compiles the project (src/, test/, bench/, fuzz/) into .test-build/
 * with tsc, then runs ava on the compiled test files (ava.compiled.config.js). Arguments go to
 * ava (`npm test -- --match 'x*'`); a test file named by its source (`npm test -- test/x.test.ts`)
 * runs compiled.
 *
 * Why compiled: every ava worker that loads TypeScript through tsx starts tsx's loader-hooks thread
 * and sends every import through it, about 0.85 CPU-s per test file on these machines (0.44 for an
 * empty test file, the rest for importing the simulator), a fifth of the suite
 * (docs/performance.md, "Round 5"). The type check this command always ran compiles the same files
 * anyway; emitting them costs a few seconds more. `npx ava FILE.test.ts` still runs one file from
 * its sources through tsx (ava.config.js).
 *
 * .test-build/ is laid out as the checkout itself, so that every path a test or the simulator
 * computes from its own location resolves as it does in the checkout: the compiled files at their
 * sources' places, and beside them every other file of the checkout as a hard link (fixtures,
 * presets, golden files, workloads, the TypeScript sources that tests read as text), in real
 * folders; node_modules/, build/ and other large or generated folders are linked whole. A path above the
 * root (../shared) cannot: .test-build/.. is the checkout, not its parent. So tests start them from
 * test/repo-root.ts, and this command names the calibration folder in VVISION_CALIBRATION_DIR (unless
 * it is set), which the simulator would otherwise look for beside the compiled tree.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layOutTestTree, OUT } from './test-tree.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, OUT);
rmSync(out, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json'), '--noEmit', 'false', '--outDir', out, '--rootDir', root], {
    cwd: root,
    stdio: 'inherit',
  });
} catch {
  // tsc has printed its diagnostics.
  process.exit(1);
}
layOutTestTree(root, out);
// The calibration data sits beside the checkout (../shared/calibration), which from the compiled
// tree's place would be the checkout itself: name it, as a user may (load-manifest.ts).
const env = { ...process.env, VVISION_CALIBRATION_DIR: process.env.VVISION_CALIBRATION_DIR ?? resolve(root, '..', 'shared', 'calibration') };
// ava's package exports only its library entry; its command line sits beside it.
const ava = join(dirname(createRequire(import.meta.url).resolve('ava')), 'cli.mjs');
const args = process.argv.slice(2).map((a) => (/^(\.\/)?test\/.*\.test\.ts$/.test(a) ? join(OUT, a.replace(/^\.\//, '').replace(/\.ts$/, '.js')) : a));
const run = spawnSync(process.execPath, [ava, '--config', 'ava.compiled.config.js', ...args], { cwd: root, env, stdio: 'inherit' });
process.exit(run.status ?? 1);
