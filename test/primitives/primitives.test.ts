import test from 'ava';
import { verifyModule } from '../../src/ir/verify.js';
import { Builder } from '../../src/ir/builder.js';
import { FIRST_ENTRY_WORD, WARP_ID_COUNT_WORD, WORDS_WRITTEN_WORD } from '../../src/primitives/buffer-layout.js';
import { emitCreateWarpId } from '../../src/primitives/create-warp-id.js';
import { ensureInstrumentationBuffer, ReservedBindingError } from '../../src/primitives/instrumentation-buffer-global.js';
import { emitThreadUpdate } from '../../src/primitives/thread-update.js';
import { emitThreadWorkId } from '../../src/primitives/thread-work-id.js';
import { emitWarpBallot } from '../../src/primitives/warp-update.js';
import { addGlobal } from '../../src/ir/builder.js';
import { T } from '../../src/ir/types.js';
import { shaderModule, warpLaunch } from './ir-fixture.js';
import { WarpInterpreter } from './warp-interpreter.js';

function entryWithPrimitives(which: 'thread' | 'warp' | 'warpid') {
  const f = shaderModule();
  const buffer = ensureInstrumentationBuffer(f.m);
  f.b.loc = { file: 0, line: 2, column: 1 };
  f.b.emitVoid('return', {});
  const b = new Builder(f.m, f.fn);
  b.setInsertPoint(f.fn.blocks[0]!.id, 0);
  const threadWorkId = emitThreadWorkId(b, 'raygen');
  const target = { buffer, threadWorkId, loc: { file: 0, line: 2, column: 1 } };
  if (which === 'thread') emitThreadUpdate(b, target, 5, [threadWorkId]);
  else if (which === 'warp') emitWarpBallot(b, target, 3);
  else emitCreateWarpId(b, target, 1);
  return f;
}

test('ThreadUpdate: one entry per thread, thread_work_id = linear launch id, valid IR', (t) => {
  const f = entryWithPrimitives('thread');
  t.deepEqual(verifyModule(f.m), []);
  const buf = new Uint32Array(2 + 40 * 3);
  const run = new WarpInterpreter(f.m, buf);
  run.run(f.fn, warpLaunch(0, 40));
  run.run(f.fn, warpLaunch(1, 40));
  t.is(buf[WORDS_WRITTEN_WORD], 40 * 3);
  const twis = new Set<number>();
  for (let e = 0; e < 40; e++) {
    const at = FIRST_ENTRY_WORD + e * 3;
    t.is(buf[at + 1], 5);
    t.is(buf[at + 2], buf[at]); // payload was the thread-work id itself
    twis.add(buf[at]!);
  }
  t.is(twis.size, 40);
});

test('ThreadUpdate: linearises (x, y, z) as x + y*w + z*w*h', (t) => {
  const f = entryWithPrimitives('thread');
  const buf = new Uint32Array(64);
  new WarpInterpreter(f.m, buf).run(f.fn, { launchIds: [[3, 2, 1]], launchSize: [10, 4, 2] });
  t.is(buf[FIRST_ENTRY_WORD], 3 + 2 * 10 + 1 * 10 * 4);
});

test('ThreadUpdate: overflow skips the write but still counts the words', (t) => {
  const f = entryWithPrimitives('thread');
  const buf = new Uint32Array(2 + 10 * 3 + 2); // room for 10 entries, not 11
  new WarpInterpreter(f.m, buf).run(f.fn, warpLaunch(0, 32));
  t.is(buf[WORDS_WRITTEN_WORD], 32 * 3);
  t.is(buf[FIRST_ENTRY_WORD + 9 * 3 + 1], 5); // 10th entry written
  t.is(buf[FIRST_ENTRY_WORD + 10 * 3 + 1], 0); // 11th did not fit
});

test('WarpUpdate(subgroupBallot(true)): one entry per warp with the active mask', (t) => {
  const f = entryWithPrimitives('warp');
  t.deepEqual(verifyModule(f.m), []);
  const buf = new Uint32Array(64);
  const run = new WarpInterpreter(f.m, buf);
  run.run(f.fn, warpLaunch(0, 44));
  run.run(f.fn, warpLaunch(1, 44));
  t.is(buf[WORDS_WRITTEN_WORD], 6);
  t.deepEqual(Array.from(buf.subarray(2, 8)), [0, 3, 0xffffffff, 32, 3, 0xfff]);
});

test('CreateWarpId: every lane records the same fresh warp id', (t) => {
  const f = entryWithPrimitives('warpid');
  t.deepEqual(verifyModule(f.m), []);
  const buf = new Uint32Array(2 + 64 * 3);
  const run = new WarpInterpreter(f.m, buf);
  run.run(f.fn, warpLaunch(0, 64));
  run.run(f.fn, warpLaunch(1, 64));
  t.is(buf[WARP_ID_COUNT_WORD], 2);
  for (let e = 0; e < 64; e++) {
    const at = FIRST_ENTRY_WORD + e * 3;
    t.is(buf[at + 1], 1);
    t.is(buf[at + 2], Math.floor(buf[at]! / 32));
  }
});

test('the reserved binding is refused when the shader already uses it', (t) => {
  const f = shaderModule();
  f.m.sources[0]!.path = 'app.rgen';
  addGlobal(f.m, { name: 'userData', type: T.ptr(f.m.types, 'storageBuffer', T.u32(f.m.types)), storage: 'storageBuffer', set: 7, binding: 0, loc: { file: 0, line: 9, column: 1 } });
  const err = t.throws(() => ensureInstrumentationBuffer(f.m), { instanceOf: ReservedBindingError });
  t.regex(err.message, /^app\.rgen:9:1: 'userData' uses set 7 binding 0/);
});
