import test from 'ava';
import { divergenceCharacterization } from '../../src/analytics/divergence-characterization.js';
import { readDump } from '../../src/analytics/dump-reader.js';
import { AnalysisInputError } from '../../src/analytics/site-table.js';
import { DumpWriter, FixtureMeta, FULL, lanes } from './dump-fixture.js';

function pipeline() {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const ch = f.shader('closestHit', 'ch');
  const ms = f.shader('miss', 'ms');
  const s = {
    wid: f.site({ kind: 'warpId', shader: rg }),
    rgEntry: f.site({ kind: 'shaderEntry', shader: rg, insts: 4 }),
    early: f.site({ kind: 'earlyReturn', shader: rg }),
    rgBody: f.site({ kind: 'block', shader: rg, insts: 2 }),
    pre: f.site({ kind: 'preTraceRay', shader: rg, traceRay: 0 }),
    post: f.site({ kind: 'postTraceRay', shader: rg, traceRay: 0 }),
    rgTail: f.site({ kind: 'block', shader: rg, insts: 3 }),
    chEntry: f.site({ kind: 'shaderEntry', shader: ch, insts: 5 }),
    msEntry: f.site({ kind: 'shaderEntry', shader: ms, insts: 2 }),
  };
  return { f, s };
}

test('inactive slots split into early-return, indirect-call and control-flow (hand computed)', (t) => {
  const { f, s } = pipeline();
  const w = new DumpWriter(f.meta);
  w.createWarpId(0, FULL, s.wid);
  w.warpBallot(0, FULL, s.rgEntry); // 32 x 4 active
  w.warpBallot(0, lanes(0, 8), s.early); // lanes 0-7 leave the pipeline
  w.warpBallot(0, lanes(8, 32), s.rgBody); // 8 x 2 early-return
  w.warpBallot(0, lanes(8, 32), s.pre);
  w.warpBallot(0, lanes(8, 20), s.chEntry); // 8 x 5 early-return, 12 x 5 indirect call
  w.warpBallot(0, lanes(20, 32), s.msEntry); // 8 x 2 early-return, 12 x 2 indirect call
  w.warpBallot(0, lanes(8, 32), s.post);
  w.warpBallot(0, lanes(8, 16), s.rgTail); // 8 x 3 early-return, 16 x 3 control flow
  const d = divergenceCharacterization(readDump(w.bytes(), f.meta), f.meta);
  t.is(d.totalSlots, 32 * 16);
  t.is(d.activeSlots, 128 + 48 + 60 + 24 + 24);
  t.is(d.earlyReturn, 16 + 40 + 16 + 24);
  t.is(d.indirectFunctionCall, 60 + 24);
  t.is(d.controlFlow, 48);
  t.is(d.controlFlow + d.indirectFunctionCall + d.earlyReturn + d.activeSlots, d.totalSlots);
  t.deepEqual(
    d.perShader.map((x) => [x.name, x.indirectFunctionCall, x.earlyReturn, x.controlFlow]),
    [['rg', 0, 40, 48], ['ch', 60, 40, 0], ['ms', 24, 16, 0]],
  );
});

test('lanes absent from a partial warp are not slots', (t) => {
  const { f, s } = pipeline();
  const w = new DumpWriter(f.meta);
  w.createWarpId(0, lanes(0, 20), s.wid);
  w.warpBallot(0, lanes(0, 20), s.rgEntry);
  w.warpBallot(0, lanes(0, 10), s.rgBody);
  const d = divergenceCharacterization(readDump(w.bytes(), f.meta), f.meta);
  t.is(d.totalSlots, 20 * 4 + 20 * 2);
  t.is(d.controlFlow, 10 * 2);
});

test('entries of a thread without a warp id are reported, not misattributed', (t) => {
  const { f, s } = pipeline();
  const w = new DumpWriter(f.meta);
  w.createWarpId(0, lanes(0, 4), s.wid);
  w.warpBallot(64, FULL, s.rgEntry);
  const err = t.throws(() => divergenceCharacterization(readDump(w.bytes(), f.meta), f.meta), { instanceOf: AnalysisInputError });
  t.regex(err.message, /thread-work id 64 never ran CreateWarpId/);
});

test('executeCallable is an indirect function call too', (t) => {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const a = f.shader('callable', 'lightA');
  const b = f.shader('callable', 'lightB');
  const wid = f.site({ kind: 'warpId', shader: rg });
  const entry = f.site({ kind: 'shaderEntry', shader: rg, insts: 1 });
  const pre = f.site({ kind: 'preExecuteCallable', shader: rg });
  const post = f.site({ kind: 'postExecuteCallable', shader: rg });
  const aEntry = f.site({ kind: 'shaderEntry', shader: a, insts: 10 });
  const bEntry = f.site({ kind: 'shaderEntry', shader: b, insts: 4 });
  const w = new DumpWriter(f.meta);
  w.createWarpId(0, FULL, wid);
  w.warpBallot(0, FULL, entry);
  w.warpBallot(0, FULL, pre);
  w.warpBallot(0, lanes(0, 24), aEntry); // 8 lanes called B instead
  w.warpBallot(0, lanes(24, 32), bEntry); // 24 lanes called A instead
  w.warpBallot(0, FULL, post);
  const d = divergenceCharacterization(readDump(w.bytes(), f.meta), f.meta);
  t.is(d.indirectFunctionCall, 8 * 10 + 24 * 4);
  t.is(d.controlFlow, 0);
});

test('a lane diverted at an outer call stays an indirect-call slot in nested calls', (t) => {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const ch = f.shader('closestHit', 'ch');
  const light = f.shader('callable', 'light');
  const wid = f.site({ kind: 'warpId', shader: rg });
  const entry = f.site({ kind: 'shaderEntry', shader: rg, insts: 1 });
  const pre = f.site({ kind: 'preTraceRay', shader: rg, traceRay: 0 });
  const post = f.site({ kind: 'postTraceRay', shader: rg, traceRay: 0 });
  const chEntry = f.site({ kind: 'shaderEntry', shader: ch, insts: 2 });
  const chThen = f.site({ kind: 'block', shader: ch, insts: 1 });
  const preCall = f.site({ kind: 'preExecuteCallable', shader: ch });
  const postCall = f.site({ kind: 'postExecuteCallable', shader: ch });
  const lightEntry = f.site({ kind: 'shaderEntry', shader: light, insts: 5 });
  const w = new DumpWriter(f.meta);
  w.createWarpId(0, FULL, wid);
  w.warpBallot(0, FULL, entry);
  w.warpBallot(0, FULL, pre);
  w.warpBallot(0, lanes(0, 16), chEntry); // lanes 16-31 missed: 16 x 2 indirect call
  w.warpBallot(0, lanes(0, 12), chThen); // lanes 12-15 branch away in ch: 4 control flow, 16 indirect call
  w.warpBallot(0, lanes(0, 12), preCall);
  w.warpBallot(0, lanes(0, 12), lightEntry); // same light for all callers: 4 control flow + 16 indirect call, x 5
  w.warpBallot(0, lanes(0, 12), postCall);
  w.warpBallot(0, FULL, post);
  const d = divergenceCharacterization(readDump(w.bytes(), f.meta), f.meta);
  t.is(d.indirectFunctionCall, 16 * 2 + 16 * 1 + 16 * 5);
  t.is(d.controlFlow, 4 * 1 + 4 * 5);
});
