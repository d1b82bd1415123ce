/**
 * How tests run the real `vvision` command in a child process: `[process.execPath, ...VVISION,
 * ...args]`. The built CLI (build/cli/main.js, what `npx vvision` runs) when build/ is up to date
 * with src/ (scripts/build-stamp.mjs: a fresh clone after `npm ci`, whose `prepare` builds), and
 * the sources through tsx otherwise, so a test run after an edit never exercises stale code. The
 * built CLI starts in about a fifth of the CPU time (docs/performance.md), and the suite starts
 * dozens of them.
 */
import { join } from 'node:path';
import { buildIsFresh } from '../../scripts/build-stamp.mjs';
import { REPO_ROOT } from '../repo-root.js';

/**
 * The node arguments that run vvision's CLI: the script, and the loader when it is TypeScript.
 * Compiled by `npm test` (scripts/test.mjs), this file runs the CLI compiled beside it, from the
 * same sources as the tests.
 */
export const VVISION: readonly string[] = import.meta.url.endsWith('.js')
  ? [join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.js')]
  : buildIsFresh(REPO_ROOT)
    ? [join(REPO_ROOT, 'build', 'cli', 'main.js')]
    : ['--import', import.meta.resolve('tsx'), join(REPO_ROOT, 'src', 'cli', 'main.ts')];
