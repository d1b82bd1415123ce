/**
 * Any-hit shaders with subgroup probes leave through one exit (defer-any-hit-exits.ts): the
 * `alpha --mode simt` hang on an H100 (issue 21).
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spirvBytes, writeSpirv } from '../../../src/backend/spirv/write-spirv.js';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import type { Inst } from '../../../src/ir/inst.js';
import { successors } from '../../../src/ir/inst.js';
import type { Function, Module } from '../../../src/ir/module.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { instrumentModule } from '../../../src/passes/instrument/instrument-module.js';
import { reachableFunctions } from '../../../src/passes/instrument/metadata.js';
import { instrumentWorkload } from '../../../src/driver/instrument-workload.js';
import { runWorkload } from '../../../src/driver/run-workload.js';

const root = join(import.meta.dirname, '../../../workloads');

function compile(file: string, source?: string): Module {
  const path = join(root, 'alpha', file);
  const c = compileGlsl(path, source ?? readFileSync(path, 'utf8'), { includeDirs: [join(root, 'common')] });
  if (!c.module) throw new Error(c.diagnostics[0]?.message);
  return c.module;
}

const entryFn = (m: Module): Function => m.functions.find((f) => f.id === m.entryPoints[0]!.function)!;
const terminators = (fn: Function, op: Inst['op']) => fn.blocks.filter((b) => b.insts.at(-1)?.op === op);

/** Blocks of `fn` from which a block ending in ignoreIntersection / terminateRay can be reached (inclusive). */
function reachesAnExit(fn: Function): Set<number> {
  const preds = new Map<number, number[]>();
  for (const b of fn.blocks) for (const s of successors(b.insts.at(-1)!)) preds.set(s, [...(preds.get(s) ?? []), b.id]);
  const seen = new Set<number>();
  const stack = fn.blocks.filter((b) => ['ignoreIntersection', 'terminateRay'].includes(b.insts.at(-1)!.op)).map((b) => b.id as number);
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(preds.get(id) ?? []));
  }
  return seen;
}

for (const file of ['shadow.rahit', 'alphatest.rahit']) {
  for (const mode of ['simt', 'divergence'] as const) {
    test(`${file} --mode ${mode}: one exit block ends the any-hit, after every subgroup operation`, (t) => {
      const m = compile(file);
      const before = entryFn(m);
      const ignores = terminators(before, 'ignoreIntersection').length;
      const terminates = terminators(before, 'terminateRay').length;
      t.true(ignores >= 1);
      const originalBlocks = reachableFunctions(m, before).reduce((n, f) => n + f.blocks.length, 0);
      const meta = instrumentModule(m, mode);
      t.deepEqual(verifyModule(m), []);
      const fn = entryFn(m);
      // One ignoreIntersection, at most one terminateRay and one return, all in the new exit blocks.
      t.deepEqual(terminators(fn, 'ignoreIntersection').map((b) => b.name), ['vv.anyhit.ignore']);
      t.deepEqual(terminators(fn, 'terminateRay').map((b) => b.name), terminates > 0 ? ['vv.anyhit.terminate'] : []);
      t.deepEqual(terminators(fn, 'return').map((b) => b.name), ['vv.anyhit.return']);
      // No block that can run before an exit is taken comes after one: every subgroup operation is
      // in a block from which the exits are still ahead.
      const ahead = reachesAnExit(fn);
      for (const b of fn.blocks) {
        if (b.insts.some((i) => i.op === 'subgroup')) t.true(ahead.has(b.id), `^b${b.id} (${b.name ?? ''})`);
        if (b.name?.startsWith('vv.anyhit.')) t.false(b.insts.some((i) => i.op === 'subgroup'));
      }
      // The sites describe the original program: one per original block (simt), none in the new blocks.
      if (mode === 'simt') t.is(meta.sites.length, originalBlocks);
      t.notThrows(() => writeSpirv(m));
    });
  }
}

test('an any-hit without subgroup probes (trace, paths) keeps its exits where they are', (t) => {
  for (const mode of ['trace', 'paths'] as const) {
    const m = compile('shadow.rahit');
    instrumentModule(m, mode);
    const fn = entryFn(m);
    t.false(fn.blocks.some((b) => b.name?.startsWith('vv.anyhit.')), mode);
    t.is(terminators(fn, 'terminateRay').length, 1);
  }
});

test('exits inside loops break out loop by loop to the one exit block (a return in a loop too)', (t) => {
  const src = readFileSync(join(import.meta.dirname, '../../device/fixtures/anyhit-loops/alphatest.rahit'), 'utf8');
  const path = join(root, 'alpha', 'loops.rahit');
  const c = compileGlsl(path, src, { includeDirs: [join(root, 'common'), join(root, 'alpha')] });
  const m = c.module!;
  instrumentModule(m, 'simt');
  t.deepEqual(verifyModule(m), []);
  const fn = entryFn(m);
  t.deepEqual(terminators(fn, 'ignoreIntersection').map((b) => b.name), ['vv.anyhit.ignore']);
  t.deepEqual(terminators(fn, 'return').map((b) => b.name), ['vv.anyhit.return']);
  // Each loop's merge checks the kind: two loops, two checks.
  t.is(fn.blocks.filter((b) => b.name === 'vv.anyhit.leaving.then').length, 2);
  t.notThrows(() => writeSpirv(m));
});

test('one loop: the exit breaks to its merge, which leaves for the exit block', (t) => {
  const src = `#version 460
#extension GL_EXT_ray_tracing : require
hitAttributeEXT vec2 attribs;
void main() {
  for (int i = 0; i < 4; i++) {
    if (attribs.x > 0.25 * float(i)) ignoreIntersectionEXT;
  }
}
`;
  const m = compile('loop.rahit', src);
  instrumentModule(m, 'simt');
  t.deepEqual(verifyModule(m), []);
  const fn = entryFn(m);
  t.deepEqual(terminators(fn, 'ignoreIntersection').map((b) => b.name), ['vv.anyhit.ignore']);
  t.is(fn.blocks.filter((b) => b.name === 'vv.anyhit.leaving.then').length, 1);
  t.notThrows(() => writeSpirv(m));
});

test('alpha --mode simt on the simulator: the frame is the uninstrumented one, and the shared exit verifies as SPIR-V', async (t) => {
  const run = (await instrumentWorkload('alpha', 'simt')).runs[0]!;
  const plain = await runWorkload('alpha');
  t.true(run.dump.entryCount > 0);
  const a = plain.image!.levels[0]!.data;
  const b = run.prepared.host.output!.levels[0]!.data;
  t.deepEqual(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  // spirv-val where it is installed (CI installs SPIRV-Tools with the Vulkan packages).
  if (spawnSync('spirv-val', ['--version']).status !== 0) return;
  const dir = mkdtempSync(join(tmpdir(), 'vv-anyhit-'));
  try {
    for (const file of ['shadow.rahit', 'alphatest.rahit']) {
      const m = compile(file);
      instrumentModule(m, 'simt');
      const f = join(dir, `${file}.spv`);
      writeFileSync(f, spirvBytes(writeSpirv(m, { targetEnv: 'vulkan1.2' })));
      const v = spawnSync('spirv-val', ['--target-env', 'vulkan1.2', '--scalar-block-layout', f], { encoding: 'utf8' });
      t.is(v.status, 0, `${file}: ${v.stderr}${v.stdout}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
