/**
 * The thread-work id of paper 003 (Sec. IV): a per-thread id unique in the launch and available
 * in every stage. Ray tracing stages: the linearised LaunchID, `x + y*w + z*w*h` with (w, h, _) =
 * LaunchSize; compute: the same over GlobalInvocationId with size = NumWorkgroups * local size.
 *
 * Emitted as ordinary IR (builtin loads, extracts, integer arithmetic) at the cursor, so it costs
 * like shader code. Builtin input globals are reused when the shader declared them with the
 * expected type, else added.
 */
import type { Builder } from '../ir/builder.js';
import { addGlobal } from '../ir/builder.js';
import type { ValueId } from '../ir/inst.js';
import { NO_LOC } from '../ir/inst.js';
import type { Builtin, Module, Stage } from '../ir/module.js';
import { T, type TypeId } from '../ir/types.js';

const GLSL_NAMES: Partial<Record<Builtin, string>> = {
  LaunchId: 'gl_LaunchIDEXT',
  LaunchSize: 'gl_LaunchSizeEXT',
  GlobalInvocationId: 'gl_GlobalInvocationID',
  NumWorkgroups: 'gl_NumWorkGroups',
};

/** The input global for a uvec3 builtin, reusing the shader's own declaration when it matches. */
export function builtinUvec3(m: Module, builtin: Builtin): ValueId {
  const uvec3 = T.vec(m.types, T.u32(m.types), 3);
  const ptr = T.ptr(m.types, 'input', uvec3);
  const found = m.globals.find((g) => g.builtin === builtin && g.type === ptr);
  if (found) return found.id;
  return addGlobal(m, { name: GLSL_NAMES[builtin] ?? builtin, type: ptr, storage: 'input', builtin, loc: { ...NO_LOC } });
}

function loadComponents(b: Builder, global: ValueId): [ValueId, ValueId, ValueId] {
  const u32 = b.t.u32;
  const v = b.emit('load', { ptr: global }, b.t.vec(u32, 3));
  return [0, 1, 2].map((i) => b.emit('extract', { value: v, indices: [i] }, u32)) as [ValueId, ValueId, ValueId];
}

/** Emits the linearised thread-work id (u32) at the cursor and returns it. */
export function emitThreadWorkId(b: Builder, stage: Stage, localSize: readonly [number, number, number] = [1, 1, 1]): ValueId {
  const m = b.module;
  const u32: TypeId = b.t.u32;
  const add = (x: ValueId, y: ValueId) => b.emit('binary', { kind: 'add', a: x, b: y }, u32);
  const mul = (x: ValueId, y: ValueId) => b.emit('binary', { kind: 'mul', a: x, b: y }, u32);
  let id: [ValueId, ValueId, ValueId];
  let w: ValueId;
  let h: ValueId;
  if (stage === 'compute') {
    id = loadComponents(b, builtinUvec3(m, 'GlobalInvocationId'));
    const groups = loadComponents(b, builtinUvec3(m, 'NumWorkgroups'));
    w = mul(groups[0], b.constU32(localSize[0]));
    h = mul(groups[1], b.constU32(localSize[1]));
  } else {
    id = loadComponents(b, builtinUvec3(m, 'LaunchId'));
    const size = loadComponents(b, builtinUvec3(m, 'LaunchSize'));
    w = size[0];
    h = size[1];
  }
  // x + w * (y + h * z)
  return add(id[0], mul(w, add(id[1], mul(h, id[2]))));
}

