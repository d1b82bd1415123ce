#!/usr/bin/env node
/**
 * `npm run build`: compiles src/ into build/ (tsc -p tsconfig.build.json), copies the config
 * presets beside the compiled config module and stamps build/ with the time it finished.
 *
 * `prepare` runs it with --if-stale, which does nothing when the stamp is newer than every source
 * file and build setting: npm runs `prepare` not only at `npm ci` but also the first time
 * `npx vvision` is used in a checkout (npm installs the project itself into its npx cache, keyed by
 * the checkout's path), and recompiling an up-to-date build there cost about half a minute of CPU
 * on the first run of the README's main command.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsFresh, buildStampPath } from './build-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (process.argv.includes('--if-stale') && buildIsFresh(root)) process.exit(0);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
} catch {
  // tsc has printed its diagnostics.
  process.exit(1);
}
cpSync(join(root, 'src', 'sim', 'config', 'presets'), join(root, 'build', 'sim', 'config', 'presets'), { recursive: true });
writeFileSync(buildStampPath(root), `${new Date().toISOString()}\n`);
