/**
 * Rewrites every id an instruction refers to through caller-supplied maps: the one place that
 * knows which fields of which op hold value ids, block ids, function ids and type ids. Cloning,
 * inlining and module linking are built on it, so a new op only needs teaching here.
 *
 * `remapInst` returns a new instruction object (the input is not mutated); fields that are not
 * ids (literal indices, kinds, formats) are copied as they are.
 */
import type { BlockId, FunctionId, Inst, ValueId } from './inst.js';
import type { TypeId } from './types.js';

export interface IdMaps {
  value(id: ValueId): ValueId;
  block(id: BlockId): BlockId;
  fn(id: FunctionId): FunctionId;
  type(id: TypeId): TypeId;
}

export function remapInst(inst: Inst, maps: IdMaps): Inst {
  const v = maps.value;
  const b = maps.block;
  const head = { id: v(inst.id), type: maps.type(inst.type), loc: { ...inst.loc } };
  switch (inst.op) {
    case 'variable': {
      const out: Inst = inst.init !== undefined ? { ...head, op: 'variable', init: v(inst.init) } : { ...head, op: 'variable' };
      if (inst.name !== undefined) out.name = inst.name;
      return out;
    }
    case 'load':
      return { ...head, op: 'load', ptr: v(inst.ptr), ...(inst.payloadCopy ? { payloadCopy: true } : {}) };
    case 'store':
      return { ...head, op: 'store', ptr: v(inst.ptr), value: v(inst.value), ...(inst.payloadCopy ? { payloadCopy: true } : {}) };
    case 'accessChain':
      return { ...head, op: 'accessChain', base: v(inst.base), indices: inst.indices.map(v) };
    case 'arrayLength':
      return { ...head, op: 'arrayLength', ptr: v(inst.ptr), member: inst.member };
    case 'convertUToPtr':
    case 'convertPtrToU':
    case 'convert':
    case 'bitcast':
    case 'copyObject':
    case 'convertUToAccel':
      return { ...head, op: inst.op, value: v(inst.value) };
    case 'binary':
      return { ...head, op: 'binary', kind: inst.kind, a: v(inst.a), b: v(inst.b) };
    case 'compare':
      return { ...head, op: 'compare', kind: inst.kind, a: v(inst.a), b: v(inst.b) };
    case 'unary':
      return { ...head, op: 'unary', kind: inst.kind, a: v(inst.a) };
    case 'test':
      return { ...head, op: 'test', kind: inst.kind, a: v(inst.a) };
    case 'select':
      return { ...head, op: 'select', cond: v(inst.cond), a: v(inst.a), b: v(inst.b) };
    case 'ext':
      return { ...head, op: 'ext', fn: inst.fn, args: inst.args.map(v) };
    case 'bits':
      return { ...head, op: 'bits', fn: inst.fn, args: inst.args.map(v) };
    case 'construct':
      return { ...head, op: 'construct', parts: inst.parts.map(v) };
    case 'extract':
      return { ...head, op: 'extract', value: v(inst.value), indices: [...inst.indices] };
    case 'insert':
      return { ...head, op: 'insert', object: v(inst.object), composite: v(inst.composite), indices: [...inst.indices] };
    case 'shuffle':
      return { ...head, op: 'shuffle', a: v(inst.a), b: v(inst.b), components: [...inst.components] };
    case 'extractDynamic':
      return { ...head, op: 'extractDynamic', value: v(inst.value), index: v(inst.index) };
    case 'insertDynamic':
      return { ...head, op: 'insertDynamic', value: v(inst.value), composite: v(inst.composite), index: v(inst.index) };
    case 'undef':
      return { ...head, op: 'undef' };
    case 'call':
      return { ...head, op: 'call', callee: maps.fn(inst.callee), args: inst.args.map(v) };
    case 'phi':
      return { ...head, op: 'phi', incoming: inst.incoming.map((i) => ({ value: v(i.value), block: b(i.block) })) };
    case 'atomic': {
      const r: Inst = { ...head, op: 'atomic', kind: inst.kind, ptr: v(inst.ptr) };
      if (inst.value !== undefined) r.value = v(inst.value);
      if (inst.comparator !== undefined) r.comparator = v(inst.comparator);
      return r;
    }
    case 'subgroup': {
      const r: Inst = { ...head, op: 'subgroup', kind: inst.kind, args: inst.args.map(v) };
      if (inst.group !== undefined) r.group = inst.group;
      return r;
    }
    case 'clock': {
      const r: Inst = { ...head, op: 'clock', scope: inst.scope };
      if (inst.realtime !== undefined) r.realtime = inst.realtime;
      return r;
    }
    case 'debugPrintf':
      return { ...head, op: 'debugPrintf', format: inst.format, args: inst.args.map(v) };
    case 'image': {
      const r: Inst = { ...head, op: 'image', kind: inst.kind, args: inst.args.map(v) };
      if (inst.lod !== undefined) r.lod = v(inst.lod);
      if (inst.bias !== undefined) r.bias = v(inst.bias);
      if (inst.offset !== undefined) r.offset = v(inst.offset);
      return r;
    }
    case 'sampledImage':
      return { ...head, op: 'sampledImage', image: v(inst.image), sampler: v(inst.sampler) };
    case 'traceRay':
      return {
        ...head, op: 'traceRay', accel: v(inst.accel), rayFlags: v(inst.rayFlags), cullMask: v(inst.cullMask),
        sbtOffset: v(inst.sbtOffset), sbtStride: v(inst.sbtStride), missIndex: v(inst.missIndex), origin: v(inst.origin),
        tmin: v(inst.tmin), direction: v(inst.direction), tmax: v(inst.tmax), payload: v(inst.payload),
      };
    case 'reportIntersection':
      return { ...head, op: 'reportIntersection', hitT: v(inst.hitT), hitKind: v(inst.hitKind) };
    case 'executeCallable':
      return { ...head, op: 'executeCallable', sbtIndex: v(inst.sbtIndex), callableData: v(inst.callableData) };
    case 'rtCall':
      return { ...head, op: 'rtCall', fn: inst.fn, args: inst.args.map(v) };
    case 'branch':
      return { ...head, op: 'branch', target: b(inst.target) };
    case 'condBranch':
      return { ...head, op: 'condBranch', cond: v(inst.cond), ifTrue: b(inst.ifTrue), ifFalse: b(inst.ifFalse) };
    case 'switch':
      return {
        ...head, op: 'switch', selector: v(inst.selector), default: b(inst.default),
        cases: inst.cases.map((c) => ({ value: c.value, target: b(c.target) })),
      };
    case 'return':
      return inst.value !== undefined ? { ...head, op: 'return', value: v(inst.value) } : { ...head, op: 'return' };
    case 'unreachable':
    case 'ignoreIntersection':
    case 'terminateRay':
      return { ...head, op: inst.op };
  }
}
