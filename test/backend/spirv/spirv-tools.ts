/**
 * SPIRV-Tools (Debian `spirv-tools`) for the SPIR-V tests: `spirv-val` and `spirv-dis` on a
 * binary. Tests that need them are skipped, with a message, when they are not installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Module } from '../../../src/ir/module.js';

export const hasSpirvTools = spawnSync('spirv-val', ['--version']).status === 0 && spawnSync('spirv-dis', ['--version']).status === 0;
export const hasGlslang = spawnSync('glslangValidator', ['--version']).status === 0;

const work = mkdtempSync(join(tmpdir(), 'vv-spirv-'));
let counter = 0;

function file(bytes: Uint8Array): string {
  const p = join(work, `m${counter++}.spv`);
  writeFileSync(p, bytes);
  return p;
}

/** True when the module declares a scalar-layout block (spirv-val then needs --scalar-block-layout, as for glslang's output). */
export function usesScalarLayout(m: Module): boolean {
  return m.types.types.some((t) => t.kind === 'struct' && t.layout === 'scalar');
}

/** spirv-val --target-env vulkan1.2 (plus --scalar-block-layout when asked); '' when valid, else its message. */
export function spirvVal(bytes: Uint8Array, scalarBlockLayout: boolean, env = 'vulkan1.2'): string {
  const r = spawnSync('spirv-val', ['--target-env', env, ...(scalarBlockLayout ? ['--scalar-block-layout'] : []), file(bytes)], { encoding: 'utf8' });
  return r.status === 0 ? '' : `${r.stdout}${r.stderr}`.trim() || `spirv-val exited ${r.status}`;
}

export function spirvDis(bytes: Uint8Array): string {
  const r = spawnSync('spirv-dis', ['--raw-id', file(bytes)], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`spirv-dis failed: ${r.stderr}`);
  return r.stdout;
}
