import test from 'ava';
import { divergenceCharacterization } from '../../../src/analytics/divergence-characterization.js';
import { readDump } from '../../../src/analytics/dump-reader.js';
import { simtEfficiency } from '../../../src/analytics/simt-efficiency.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { earlyReturns } from '../../../src/passes/instrument/divergence.js';
import { instrumentModule } from '../../../src/passes/instrument/instrument-module.js';
import { addGlobal } from '../../../src/ir/builder.js';
import { T } from '../../../src/ir/types.js';
import { branchShader, earlyReturnShader, shaderModule, work } from '../../primitives/ir-fixture.js';
import { bytesOf, runLaunch } from './run-instrumented.js';

test('divergence: warp id, shader entry, blocks, early return and both sides of traceRay', (t) => {
  const f = earlyReturnShader();
  const early = f.fn.blocks.find((b) => b.id === f.blocks.early)!.insts.at(-1)!.id;
  t.deepEqual(earlyReturns(f.fn), [early]);
  const meta = instrumentModule(f.m, 'divergence');
  t.deepEqual(verifyModule(f.m), []);
  t.deepEqual(meta.sites.map((s) => [s.kind, s.block, s.primitive]), [
    ['warpId', f.blocks.entry, 'CreateWarpId'],
    ['shaderEntry', f.blocks.entry, 'WarpUpdate'],
    ['block', f.blocks.early, 'WarpUpdate'],
    ['block', f.blocks.trace, 'WarpUpdate'],
    ['earlyReturn', f.blocks.early, 'WarpUpdate'],
    ['preTraceRay', f.blocks.trace, 'WarpUpdate'],
    ['postTraceRay', f.blocks.trace, 'WarpUpdate'],
  ]);
});

test('divergence end to end: early-returned lanes idle through the rest of the raygen shader', (t) => {
  const f = earlyReturnShader();
  const sizes = new Map(f.fn.blocks.map((b) => [b.id as number, b.insts.length]));
  const meta = instrumentModule(f.m, 'divergence');
  const dump = readDump(bytesOf(runLaunch(f.m, 64)), meta);
  const d = divergenceCharacterization(dump, meta);
  const nEntry = sizes.get(f.blocks.entry)!;
  const nEarly = sizes.get(f.blocks.early)!;
  const nTrace = sizes.get(f.blocks.trace)!;
  // Per warp: 8 lanes (x % 4 == 0) return early, 24 trace.
  t.is(d.totalSlots, 2 * 32 * (nEntry + nEarly + nTrace));
  t.is(d.earlyReturn, 2 * 8 * nTrace);
  t.is(d.controlFlow, 2 * 24 * nEarly);
  t.is(d.indirectFunctionCall, 0);
  t.is(d.activeSlots, 2 * (32 * nEntry + 8 * nEarly + 24 * nTrace));
  // The same dump feeds SIMT efficiency.
  t.is(simtEfficiency(dump, meta).overall.warpExecutions, 6);
});

test('divergence: executeCallable is bracketed like traceRay', (t) => {
  const f = shaderModule('raygen', 'calls.rgen');
  const { b, m } = f;
  const data = addGlobal(m, { name: 'light', type: T.ptr(m.types, 'callableData', T.f32(m.types)), storage: 'callableData', location: 0, loc: { file: 0, line: 1, column: 1 } });
  work(f, 2, 1);
  b.loc = { file: 0, line: 3, column: 3 };
  const call = b.emitVoid('executeCallable', { sbtIndex: b.constU32(0), callableData: data });
  b.emitVoid('return', {});
  const meta = instrumentModule(m, 'divergence');
  t.deepEqual(verifyModule(m), []);
  t.deepEqual(meta.sites.map((s) => s.kind), ['warpId', 'shaderEntry', 'preExecuteCallable', 'postExecuteCallable']);
  const insts = f.fn.blocks.flatMap((x) => x.insts);
  const at = insts.findIndex((i) => i.id === call);
  t.true(insts.slice(0, at).some((i) => i.op === 'subgroup' && i.kind === 'ballot'));
  t.true(insts.slice(at + 1).some((i) => i.op === 'subgroup' && i.kind === 'ballot'));
});

test('divergence end to end: 2-way branch with 12/20 lanes gives the hand-computed control-flow slots', (t) => {
  const f = branchShader(12);
  const size = (id: number) => f.fn.blocks.find((b) => b.id === id)!.insts.length;
  const nThen = size(f.blocks.then);
  const nElse = size(f.blocks.else);
  const meta = instrumentModule(f.m, 'divergence');
  const d = divergenceCharacterization(readDump(bytesOf(runLaunch(f.m, 64)), meta), meta);
  t.is(d.controlFlow, 2 * (20 * nThen + 12 * nElse));
  t.is(d.earlyReturn, 0);
  t.is(d.indirectFunctionCall, 0);
  t.is(d.totalSlots - d.activeSlots, d.controlFlow);
});
