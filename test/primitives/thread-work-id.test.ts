/**
 * The thread-work id on the functional core: a ThreadUpdate(thread_work_id) in every invocation of
 * 2-D/3-D ray tracing launches and compute dispatches writes every id of 0..N-1 exactly once, and
 * each equals the core's own linear launch index rule (x + y*W + z*W*H).
 */
import test from 'ava';
import { Builder } from '../../src/ir/builder.js';
import type { Stage } from '../../src/ir/module.js';
import { ENTRY_PAYLOAD, FIRST_ENTRY_WORD } from '../../src/primitives/buffer-layout.js';
import { ensureInstrumentationBuffer } from '../../src/primitives/instrumentation-buffer-global.js';
import { emitThreadUpdate } from '../../src/primitives/thread-update.js';
import { builtinUvec3, emitThreadWorkId } from '../../src/primitives/thread-work-id.js';
import { compileProgram, runFunctional } from '../../src/sim/functional/index.js';
import { shaderModule } from './ir-fixture.js';

function launch(stage: Stage, size: [number, number, number], localSize?: [number, number, number]): number[] {
  const f = shaderModule(stage, stage === 'compute' ? 'k.comp' : 'k.rgen');
  if (localSize) f.m.entryPoints[0]!.localSize = localSize;
  f.b.emitVoid('return', {});
  const buffer = ensureInstrumentationBuffer(f.m);
  const b = new Builder(f.m, f.fn);
  b.setInsertPoint(f.fn.blocks[0]!.id, 0);
  const twi = emitThreadWorkId(b, stage, localSize);
  const id = b.emit('load', { ptr: builtinUvec3(f.m, stage === 'compute' ? 'GlobalInvocationId' : 'LaunchId') }, b.t.vec(b.t.u32, 3));
  const xyz = [0, 1, 2].map((i) => b.emit('extract', { value: id, indices: [i] }, b.t.u32));
  emitThreadUpdate(b, { buffer, threadWorkId: twi, loc: { file: 0, line: 1, column: 1 } }, 0, xyz);
  const data = new Uint8Array(1 << 16);
  runFunctional(compileProgram(f.m), { buffers: [{ set: 7, binding: 0, data }] }, { entry: f.fn.id, size });
  const words = new Uint32Array(data.buffer);
  const W = localSize ? size[0] * localSize[0] : size[0];
  const H = localSize ? size[1] * localSize[1] : size[1];
  const ids: number[] = [];
  for (let at = FIRST_ENTRY_WORD; at < FIRST_ENTRY_WORD + words[1]!; at += 5) {
    const [x, y, z] = [words[at + ENTRY_PAYLOAD]!, words[at + ENTRY_PAYLOAD + 1]!, words[at + ENTRY_PAYLOAD + 2]!];
    if (words[at] !== x + y * W + z * W * H) throw new Error(`thread (${x}, ${y}, ${z}) recorded id ${words[at]}`);
    ids.push(words[at]!);
  }
  return ids.sort((a, b) => a - b);
}

test('ray tracing launch 40x3x2: every linear launch id once', (t) => {
  t.deepEqual(launch('raygen', [40, 3, 2]), Array.from({ length: 240 }, (_, i) => i));
});

test('compute dispatch 2x3 groups of 8x4: ids over GlobalInvocationId with W = 16', (t) => {
  t.deepEqual(launch('compute', [2, 3, 1], [8, 4, 1]), Array.from({ length: 2 * 3 * 32 }, (_, i) => i));
});
