/**
 * The verifier's per-op type rules: operand and result types of each instruction (binary
 * operands agree, compares return bools of the operand width, loads/stores match the pointee,
 * access chains match walking their indices, calls match the callee, phis match their result,
 * branch conditions are bool, switch selectors int, returns match the function).
 *
 * Messages come without a location prefix; `verify.ts` adds function, block, id and loc. Checks
 * tolerate unknown operands (reported elsewhere) by skipping the rules that need their type.
 */
import type { Inst, ValueId } from './inst.js';
import type { Function, Module } from './module.js';
import { typeName, typeOf, type Type, type TypeId } from './types.js';

export interface TypeEnv {
  m: Module;
  fn: Function;
  typeOf(v: ValueId): TypeId | undefined;
  fnById: Map<number, Function>;
}

const NO_RESULT: ReadonlySet<Inst['op']> = new Set<Inst['op']>([
  'store', 'debugPrintf', 'traceRay', 'executeCallable',
  'branch', 'condBranch', 'switch', 'return', 'unreachable', 'ignoreIntersection', 'terminateRay',
]);

/** Operand and result type rules of one instruction; messages without the location prefix. */
export function checkInstTypes(env: TypeEnv, inst: Inst): string[] {
  const tt = env.m.types;
  const errs: string[] = [];
  const T = (t: TypeId): Type => typeOf(tt, t);
  const name = (t: TypeId | undefined): string => (t === undefined ? '?' : typeName(tt, t));
  const ty = (v: ValueId): TypeId | undefined => env.typeOf(v);
  const res = inst.type;
  const resT = T(res);
  const isVoid = resT.kind === 'void';
  const count = (t: TypeId): number => { const x = T(t); return x.kind === 'vector' ? x.count : 1; };
  const scalar = (t: TypeId): Type => { const x = T(t); return x.kind === 'vector' ? T(x.elem) : x; };
  const isBoolN = (t: TypeId, n: number): boolean => scalar(t).kind === 'bool' && count(t) === n && (n === 1 ? T(t).kind === 'bool' : T(t).kind === 'vector');
  const isNumeric = (t: TypeId): boolean => { const s = scalar(t); return (s.kind === 'int' || s.kind === 'float') && T(t).kind !== 'matrix'; };
  const isIntScalar = (t: TypeId | undefined): boolean => t !== undefined && T(t).kind === 'int';
  /** `want(v, pred, what)`: the operand's type satisfies `pred`, else an error saying `what`. */
  const want = (v: ValueId, ok: (t: TypeId) => boolean, what: string): TypeId | undefined => {
    const t = ty(v);
    if (t === undefined) return undefined;
    if (!ok(t)) errs.push(`operand %${v} has type ${name(t)}, expected ${what}`);
    return t;
  };
  const same = (v: ValueId, t: TypeId | undefined, role: string): void => {
    const vt = ty(v);
    if (vt === undefined || t === undefined) return;
    if (vt !== t) errs.push(`${role} %${v} has type ${name(vt)}, expected ${name(t)}`);
  };
  const resultIs = (t: TypeId | undefined, why: string): void => {
    if (t !== undefined && t !== res) errs.push(`result type ${name(res)} does not match ${why} ${name(t)}`);
  };
  const pointee = (v: ValueId): { storage: string; pointee: TypeId } | undefined => {
    const t = ty(v);
    if (t === undefined) return undefined;
    const p = T(t);
    if (p.kind !== 'pointer') {
      errs.push(`operand %${v} has type ${name(t)}, expected a pointer`);
      return undefined;
    }
    return p;
  };
  const constInt = (v: ValueId): number | undefined => {
    const c = env.m.constants.find((x) => x.id === v);
    if (!c || c.specId !== undefined) return undefined;
    return typeof c.value === 'number' ? c.value : typeof c.value === 'bigint' ? Number(c.value) : undefined;
  };
  /** One step into a composite type; undefined with an error pushed when not possible. */
  const step = (t: TypeId, index: number | undefined, dynamic: boolean): TypeId | undefined => {
    const x = T(t);
    switch (x.kind) {
      case 'struct':
        if (index === undefined) {
          errs.push(`struct ${name(t)} indexed by a ${dynamic ? 'non-constant' : 'missing'} index`);
          return undefined;
        }
        if (index < 0 || index >= x.members.length) {
          errs.push(`member index ${index} out of range for ${name(t)} (${x.members.length} members)`);
          return undefined;
        }
        return x.members[index]!.type;
      case 'vector':
        if (index !== undefined && index >= x.count) { errs.push(`component ${index} out of range for ${name(t)}`); return undefined; }
        return x.elem;
      case 'matrix':
        if (index !== undefined && index >= x.columns) { errs.push(`column ${index} out of range for ${name(t)}`); return undefined; }
        return x.column;
      case 'array':
        if (!dynamic && index !== undefined && index >= x.length) { errs.push(`element ${index} out of range for ${name(t)}`); return undefined; }
        return x.elem;
      case 'runtimeArray':
        return x.elem;
      default:
        errs.push(`cannot index into ${name(t)}`);
        return undefined;
    }
  };

  if (NO_RESULT.has(inst.op) && !isVoid) errs.push(`${inst.op} has no result but its type is ${name(res)}, expected void`);

  switch (inst.op) {
    case 'variable': {
      if (resT.kind !== 'pointer' || resT.storage !== 'function') errs.push(`variable type ${name(res)} is not a function-storage pointer`);
      else if (inst.init !== undefined) same(inst.init, resT.pointee, 'initializer');
      break;
    }
    case 'load': {
      const p = pointee(inst.ptr);
      if (p) resultIs(p.pointee, 'the pointee type');
      break;
    }
    case 'store': {
      const p = pointee(inst.ptr);
      if (p) same(inst.value, p.pointee, 'stored value');
      break;
    }
    case 'accessChain': {
      const p = pointee(inst.base);
      if (!p) break;
      let cur: TypeId | undefined = p.pointee;
      for (const idx of inst.indices) {
        if (cur === undefined) break;
        want(idx, isIntScalar, 'an integer index');
        cur = step(cur, constInt(idx), constInt(idx) === undefined);
      }
      if (cur === undefined) break;
      if (resT.kind !== 'pointer') errs.push(`access chain result ${name(res)} is not a pointer`);
      else if (resT.pointee !== cur || resT.storage !== p.storage) {
        errs.push(`access chain result ${name(res)} does not match the indexed type ptr<${p.storage}, ${name(cur)}>`);
      }
      break;
    }
    case 'arrayLength': {
      const p = pointee(inst.ptr);
      if (!p) break;
      const s = T(p.pointee);
      if (s.kind !== 'struct' || T(s.members[inst.member]?.type ?? p.pointee).kind !== 'runtimeArray') {
        errs.push(`member ${inst.member} of ${name(p.pointee)} is not a runtime array`);
      }
      if (resT.kind !== 'int') errs.push(`array length result ${name(res)} is not an integer`);
      break;
    }
    case 'convertUToPtr':
      if (resT.kind !== 'pointer') errs.push(`result ${name(res)} is not a pointer`);
      break;
    case 'convertPtrToU':
      pointee(inst.value);
      if (resT.kind !== 'int') errs.push(`result ${name(res)} is not an integer`);
      break;
    case 'binary':
      checkBinary();
      break;
    case 'unary': {
      if (inst.kind === 'transpose') {
        const a = T(ty(inst.a) ?? res);
        if (a.kind !== 'matrix' || resT.kind !== 'matrix') errs.push(`transpose needs matrix operand and result`);
        else if (count(a.column) !== resT.columns || a.columns !== count(resT.column)) errs.push(`transpose result ${name(res)} has the wrong shape`);
      } else {
        resultIs(ty(inst.a), 'the operand type');
        if (inst.kind === 'neg') want(inst.a, isNumeric, 'a numeric scalar or vector');
        else want(inst.a, (t) => scalar(t).kind === 'int' || scalar(t).kind === 'bool', 'an integer or bool');
      }
      break;
    }
    case 'compare': {
      const a = ty(inst.a);
      same(inst.b, a, 'right operand');
      if (a !== undefined && !isBoolN(res, count(a))) errs.push(`compare result ${name(res)} must be ${count(a) === 1 ? 'bool' : `vec${count(a)}<bool>`}`);
      break;
    }
    case 'test': {
      const a = ty(inst.a);
      if (a === undefined) break;
      if (inst.kind === 'any' || inst.kind === 'all') {
        want(inst.a, (t) => scalar(t).kind === 'bool' && T(t).kind === 'vector', 'a bool vector');
        if (!isBoolN(res, 1)) errs.push(`${inst.kind} result ${name(res)} must be bool`);
      } else {
        want(inst.a, (t) => scalar(t).kind === 'float', 'a float scalar or vector');
        if (!isBoolN(res, count(a))) errs.push(`${inst.kind} result ${name(res)} must be a bool of width ${count(a)}`);
      }
      break;
    }
    case 'convert': {
      const v = ty(inst.value);
      if (v !== undefined && count(v) !== count(res)) errs.push(`convert changes the component count (${name(v)} to ${name(res)})`);
      break;
    }
    case 'select': {
      same(inst.a, res, 'true operand');
      same(inst.b, res, 'false operand');
      const c = ty(inst.cond);
      if (c !== undefined && !isBoolN(c, 1) && !isBoolN(c, count(res))) errs.push(`select condition %${inst.cond} has type ${name(c)}, expected bool`);
      break;
    }
    case 'bits':
      if (inst.fn !== 'bitCount' && inst.args[0] !== undefined) resultIs(ty(inst.args[0]), 'the operand type');
      break;
    case 'construct':
      checkConstruct();
      break;
    case 'extract': {
      let cur = ty(inst.value);
      for (const i of inst.indices) if (cur !== undefined) cur = step(cur, i, false);
      resultIs(cur, 'the extracted type');
      break;
    }
    case 'insert': {
      same(inst.composite, res, 'composite');
      let cur: TypeId | undefined = res;
      for (const i of inst.indices) if (cur !== undefined) cur = step(cur, i, false);
      if (cur !== undefined) same(inst.object, cur, 'inserted object');
      break;
    }
    case 'shuffle': {
      const a = ty(inst.a);
      const b = ty(inst.b);
      if (a === undefined || b === undefined) break;
      if (T(a).kind !== 'vector' || T(b).kind !== 'vector') { errs.push(`shuffle operands must be vectors`); break; }
      if (scalar(a) !== scalar(b) || scalar(res) !== scalar(a)) errs.push(`shuffle operands and result must share the component type`);
      if (count(res) !== inst.components.length) errs.push(`shuffle result ${name(res)} does not have ${inst.components.length} components`);
      const total = count(a) + count(b);
      for (const c of inst.components) if (c !== 0xffffffff && (c < 0 || c >= total)) errs.push(`shuffle component ${c} out of range (${total} available)`);
      break;
    }
    case 'extractDynamic': {
      const v = ty(inst.value);
      if (v !== undefined && T(v).kind !== 'vector') errs.push(`extractDynamic operand must be a vector, got ${name(v)}`);
      else if (v !== undefined) resultIs(step(v, undefined, true), 'the component type');
      want(inst.index, isIntScalar, 'an integer index');
      break;
    }
    case 'insertDynamic': {
      same(inst.composite, res, 'composite');
      if (resT.kind === 'vector') same(inst.value, resT.elem, 'inserted value');
      else errs.push(`insertDynamic result must be a vector, got ${name(res)}`);
      want(inst.index, isIntScalar, 'an integer index');
      break;
    }
    case 'copyObject':
      resultIs(ty(inst.value), 'the operand type');
      break;
    case 'call': {
      const callee = env.fnById.get(inst.callee);
      if (!callee) { errs.push(`callee %${inst.callee} is not a function of the module`); break; }
      if (callee.params.length !== inst.args.length) errs.push(`@${callee.name} takes ${callee.params.length} arguments, got ${inst.args.length}`);
      inst.args.forEach((a, i) => { if (callee.params[i]) same(a, callee.params[i]!.type, `argument ${i}`); });
      resultIs(callee.returnType, `the return type of @${callee.name}`);
      break;
    }
    case 'phi':
      for (const inc of inst.incoming) same(inc.value, res, `incoming value from ^b${inc.block}`);
      break;
    case 'atomic': {
      const p = pointee(inst.ptr);
      if (!p) break;
      if (inst.kind === 'store') {
        if (inst.value === undefined) errs.push(`atomic store needs a value`);
        else same(inst.value, p.pointee, 'stored value');
        if (!isVoid) errs.push(`atomic store result must be void`);
        break;
      }
      resultIs(p.pointee, 'the pointee type');
      if (inst.kind !== 'load') {
        if (inst.value === undefined) errs.push(`atomic ${inst.kind} needs a value`);
        else same(inst.value, p.pointee, 'value');
      }
      if (inst.kind === 'compareExchange') {
        if (inst.comparator === undefined) errs.push(`atomic compareExchange needs a comparator`);
        else same(inst.comparator, p.pointee, 'comparator');
      }
      break;
    }
    case 'subgroup': {
      if (inst.kind === 'elect' || inst.kind === 'all' || inst.kind === 'any' || inst.kind === 'allEqual' || inst.kind === 'inverseBallot' || inst.kind === 'ballotBitExtract') {
        if (!isBoolN(res, 1)) errs.push(`subgroup ${inst.kind} result must be bool`);
      } else if (inst.kind === 'ballot') {
        if (!(resT.kind === 'vector' && resT.count === 4 && scalar(res).kind === 'int')) errs.push(`subgroup ballot result must be vec4<u32>`);
        if (inst.args[0] !== undefined) want(inst.args[0], (t) => isBoolN(t, 1), 'bool');
      } else if (['broadcast', 'broadcastFirst', 'add', 'mul', 'min', 'max', 'and', 'or', 'xor', 'shuffle', 'shuffleXor', 'shuffleUp', 'shuffleDown'].includes(inst.kind)) {
        if (inst.args[0] !== undefined) resultIs(ty(inst.args[0]), 'the operand type');
      }
      break;
    }
    case 'clock':
      if (!(resT.kind === 'int' && resT.width === 64) && !(resT.kind === 'vector' && resT.count === 2)) errs.push(`clock result must be u64 or vec2<u32>`);
      break;
    case 'sampledImage':
      if (resT.kind !== 'sampledImage' || resT.image !== ty(inst.image)) errs.push(`sampledImage result ${name(res)} does not wrap the image type ${name(ty(inst.image))}`);
      break;
    case 'traceRay': {
      want(inst.accel, (t) => T(t).kind === 'accelerationStructure', 'accel');
      for (const v of [inst.rayFlags, inst.cullMask, inst.sbtOffset, inst.sbtStride, inst.missIndex]) want(v, isIntScalar, 'an integer');
      for (const v of [inst.origin, inst.direction]) want(v, (t) => T(t).kind === 'vector' && count(t) === 3 && scalar(t).kind === 'float', 'vec3<f32>');
      for (const v of [inst.tmin, inst.tmax]) want(v, (t) => T(t).kind === 'float', 'f32');
      const p = pointee(inst.payload);
      if (p && p.storage !== 'rayPayload' && p.storage !== 'incomingRayPayload') errs.push(`payload %${inst.payload} has storage ${p.storage}, expected rayPayload`);
      break;
    }
    case 'reportIntersection':
      if (!isBoolN(res, 1)) errs.push(`reportIntersection result must be bool`);
      want(inst.hitT, (t) => T(t).kind === 'float', 'f32');
      want(inst.hitKind, isIntScalar, 'an integer');
      break;
    case 'executeCallable': {
      want(inst.sbtIndex, isIntScalar, 'an integer');
      const p = pointee(inst.callableData);
      if (p && p.storage !== 'callableData' && p.storage !== 'incomingCallableData') errs.push(`callable data %${inst.callableData} has storage ${p.storage}, expected callableData`);
      break;
    }
    case 'convertUToAccel':
      if (resT.kind !== 'accelerationStructure') errs.push(`result ${name(res)} is not accel`);
      break;
    case 'condBranch':
      want(inst.cond, (t) => isBoolN(t, 1), 'bool');
      break;
    case 'switch':
      want(inst.selector, isIntScalar, 'an integer scalar');
      break;
    case 'return': {
      const rt = env.fn.returnType;
      const voidFn = T(rt).kind === 'void';
      if (inst.value === undefined) { if (!voidFn) errs.push(`return without a value from a function returning ${name(rt)}`); }
      else if (voidFn) errs.push(`return with a value from a void function`);
      else same(inst.value, rt, 'returned value');
      break;
    }
    default:
      break;
  }
  return errs;

  function checkBinary(): void {
    if (inst.op !== 'binary') return;
    const a = ty(inst.a);
    const b = ty(inst.b);
    if (a === undefined || b === undefined) return;
    const A = T(a);
    const B = T(b);
    switch (inst.kind) {
      case 'shl':
      case 'shr':
        if (scalar(a).kind !== 'int' || scalar(b).kind !== 'int' || count(a) !== count(b)) errs.push(`shift operands ${name(a)} and ${name(b)} must be integers of the same width`);
        resultIs(a, 'the left operand type');
        return;
      case 'vectorTimesScalar':
        if (A.kind !== 'vector' || A.elem !== b) errs.push(`vectorTimesScalar needs a vector and its component type, got ${name(a)} and ${name(b)}`);
        resultIs(a, 'the vector type');
        return;
      case 'matrixTimesScalar':
        if (A.kind !== 'matrix' || scalarOfId(a) !== b) errs.push(`matrixTimesScalar needs a matrix and its component type, got ${name(a)} and ${name(b)}`);
        resultIs(a, 'the matrix type');
        return;
      case 'vectorTimesMatrix':
        if (A.kind !== 'vector' || B.kind !== 'matrix' || count(B.column) !== A.count) errs.push(`vectorTimesMatrix shapes do not fit: ${name(a)} * ${name(b)}`);
        else if (!(resT.kind === 'vector' && resT.count === B.columns && resT.elem === A.elem)) errs.push(`vectorTimesMatrix result ${name(res)} should be vec${B.columns}`);
        return;
      case 'matrixTimesVector':
        if (A.kind !== 'matrix' || B.kind !== 'vector' || A.columns !== B.count) errs.push(`matrixTimesVector shapes do not fit: ${name(a)} * ${name(b)}`);
        else resultIs(A.column, 'the matrix column type');
        return;
      case 'matrixTimesMatrix':
        if (A.kind !== 'matrix' || B.kind !== 'matrix' || A.columns !== count(B.column)) errs.push(`matrixTimesMatrix shapes do not fit: ${name(a)} * ${name(b)}`);
        else if (!(resT.kind === 'matrix' && resT.column === A.column && resT.columns === B.columns)) errs.push(`matrixTimesMatrix result ${name(res)} has the wrong shape`);
        return;
      case 'dot':
        if (a !== b || A.kind !== 'vector') errs.push(`dot needs two vectors of the same type, got ${name(a)} and ${name(b)}`);
        else resultIs(A.elem, 'the component type');
        return;
      case 'outerProduct':
        if (resT.kind !== 'matrix') errs.push(`outerProduct result must be a matrix`);
        return;
      default:
        if (a !== b) errs.push(`operands of ${inst.kind} differ: ${name(a)} and ${name(b)}`);
        resultIs(a, 'the operand type');
        if (A.kind === 'matrix' && (inst.kind === 'add' || inst.kind === 'sub' || inst.kind === 'div')) return;
        if (['and', 'or', 'xor'].includes(inst.kind)) want(inst.a, (t) => scalar(t).kind === 'int' || scalar(t).kind === 'bool', 'an integer or bool');
        else want(inst.a, isNumeric, 'a numeric scalar or vector');
    }
  }

  function scalarOfId(t: TypeId): TypeId {
    const x = T(t);
    if (x.kind === 'vector') return x.elem;
    if (x.kind === 'matrix') return scalarOfId(x.column);
    return t;
  }

  function checkConstruct(): void {
    if (inst.op !== 'construct') return;
    const parts = inst.parts.map((p) => ty(p));
    if (parts.some((p) => p === undefined)) return;
    const ps = parts as TypeId[];
    switch (resT.kind) {
      case 'vector': {
        let n = 0;
        ps.forEach((p, i) => {
          if (scalarOfId(p) !== resT.elem || T(p).kind === 'matrix') errs.push(`part ${i} %${inst.parts[i]} has type ${name(p)}, expected components of ${name(resT.elem)}`);
          n += count(p);
        });
        if (n !== resT.count) errs.push(`${n} components given for ${name(res)}`);
        return;
      }
      case 'matrix':
        if (ps.length !== resT.columns) errs.push(`${ps.length} columns given for ${name(res)}`);
        ps.forEach((p, i) => { if (p !== resT.column) errs.push(`column ${i} has type ${name(p)}, expected ${name(resT.column)}`); });
        return;
      case 'array':
        if (ps.length !== resT.length) errs.push(`${ps.length} elements given for ${name(res)}`);
        ps.forEach((p, i) => { if (p !== resT.elem) errs.push(`element ${i} has type ${name(p)}, expected ${name(resT.elem)}`); });
        return;
      case 'struct':
        if (ps.length !== resT.members.length) errs.push(`${ps.length} members given for ${name(res)}`);
        ps.forEach((p, i) => { const mt = resT.members[i]?.type; if (mt !== undefined && p !== mt) errs.push(`member ${i} has type ${name(p)}, expected ${name(mt)}`); });
        return;
      default:
        errs.push(`construct result ${name(res)} is not a composite`);
    }
  }
}
