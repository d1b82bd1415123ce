import test from 'ava';
import { readDump } from '../../../src/analytics/dump-reader.js';
import { itsEvidence } from '../../../src/analytics/its-evidence.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { instrumentModule } from '../../../src/passes/instrument/instrument-module.js';
import { bounceLoopShader, earlyReturnShader } from '../../primitives/ir-fixture.js';
import { bytesOf, runLaunch } from './run-instrumented.js';

test('its: several returns are merged into one exit block holding the exit probe', (t) => {
  const f = earlyReturnShader();
  const meta = instrumentModule(f.m, 'its');
  t.deepEqual(verifyModule(f.m), []);
  t.deepEqual(meta.sites.map((s) => s.kind), ['pipelineEntry', 'pipelineExit']);
  t.is(meta.sites[1]!.block, f.blocks.trace);
  const returns = f.fn.blocks.flatMap((b) => b.insts.filter((i) => i.op === 'return'));
  t.is(returns.length, 1);
});

test('its end to end under a SIMT stack: exits / entries = 1 despite the early return', (t) => {
  const f = earlyReturnShader();
  const meta = instrumentModule(f.m, 'its');
  const r = itsEvidence(readDump(bytesOf(runLaunch(f.m, 64)), meta), meta);
  t.deepEqual(r, { entryExecutions: 2, exitExecutions: 2, exitPerEntry: 1 });
});

test('its: a single return gets the exit probe in place', (t) => {
  const f = bounceLoopShader();
  const blocks = f.fn.blocks.length;
  const meta = instrumentModule(f.m, 'its');
  t.deepEqual(verifyModule(f.m), []);
  t.is(meta.sites[1]!.block, f.blocks.exit);
  t.false(f.fn.blocks.some((b) => b.name === 'vv.pipeline.exit'));
  t.true(f.fn.blocks.length > blocks);
});
