import test from 'ava';
import { divergenceCharacterization } from '../../../src/analytics/divergence-characterization.js';
import { readDump } from '../../../src/analytics/dump-reader.js';
import { simtEfficiency } from '../../../src/analytics/simt-efficiency.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { earlyReturns } from '../../../src/passes/instrument/divergence.js';
import { instrumentModule } from '../../../src/passes/instrument/instrument-module.js';
import { earlyReturnShader } from '../../primitives/ir-fixture.js';
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
