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
import { typeName, typeOf, type Type, type TypeId, type TypeTable } from './types.js';

export interface TypeEnv {
  m: Module;
  fn: Function;
  typeOf(v: ValueId): TypeId | undefined;
  fnById: Map<number, Function>;
  constants: ReadonlyMap<number, Module['constants'][number]>;
}

const NO_RESULT: ReadonlySet<Inst['op']> = new Set<Inst['op']>([
  'store', 'debugPrintf', 'traceRay', 'executeCallable',
  'branch', 'condBranch', 'switch', 'return', 'unreachable', 'ignoreIntersection', 'terminateRay',
]);

/** Operand and result type rules of one instruction; messages without the location prefix. */
export function checkInstTypes(env: TypeEnv, inst: Inst): string[] {
  return new InstTypeCheck(env, inst).run();
}

/**
 * One instruction's check. A class rather than closures: the helpers exist once on the
 * prototype instead of being re-created for every instruction.
 */
class InstTypeCheck {
  readonly errs: string[] = [];
  readonly tt: TypeTable;
  readonly res: TypeId;
  readonly resT: Type;
  readonly isVoid: boolean;

  constructor(readonly env: TypeEnv, readonly inst: Inst) {
    this.tt = env.m.types;
    this.res = inst.type;
    this.resT = this.T(this.res);
    this.isVoid = this.resT.kind === 'void';
  }

  T(t: TypeId): Type {
    return typeOf(this.tt, t);
  }
  name(t: TypeId | undefined): string {
    return t === undefined ? '?' : typeName(this.tt, t);
  }
  ty(v: ValueId): TypeId | undefined {
    return this.env.typeOf(v);
  }
  count(t: TypeId): number {
    const x = this.T(t);
    return x.kind === 'vector' ? x.count : 1;
  }
  scalar(t: TypeId): Type {
    const x = this.T(t);
    return x.kind === 'vector' ? this.T(x.elem) : x;
  }
  isBoolN(t: TypeId, n: number): boolean {
    return this.scalar(t).kind === 'bool' && this.count(t) === n && (n === 1 ? this.T(t).kind === 'bool' : this.T(t).kind === 'vector');
  }
  isNumeric(t: TypeId): boolean {
    const s = this.scalar(t);
    return (s.kind === 'int' || s.kind === 'float') && this.T(t).kind !== 'matrix';
  }
  isIntScalar(t: TypeId | undefined): boolean {
    return t !== undefined && this.T(t).kind === 'int';
  }
  /** The operand's type satisfies `ok`, else an error saying `what` was expected. */
  want(v: ValueId, ok: (t: TypeId) => boolean, what: string): TypeId | undefined {
    const t = this.ty(v);
    if (t === undefined) return undefined;
    if (!ok(t)) this.errs.push(`operand %${v} has type ${this.name(t)}, expected ${what}`);
    return t;
  }
  same(v: ValueId, t: TypeId | undefined, role: string): void {
    const vt = this.ty(v);
    if (vt === undefined || t === undefined) return;
    if (vt !== t) this.errs.push(`${role} %${v} has type ${this.name(vt)}, expected ${this.name(t)}`);
  }
  resultIs(t: TypeId | undefined, why: string): void {
    if (t !== undefined && t !== this.res) this.errs.push(`result type ${this.name(this.res)} does not match ${why} ${this.name(t)}`);
  }
  pointee(v: ValueId): { storage: string; pointee: TypeId } | undefined {
    const t = this.ty(v);
    if (t === undefined) return undefined;
    const p = this.T(t);
    if (p.kind !== 'pointer') {
      this.errs.push(`operand %${v} has type ${this.name(t)}, expected a pointer`);
      return undefined;
    }
    return p;
  }
  constInt(v: ValueId): number | undefined {
    const c = this.env.constants.get(v);
    if (!c || c.specId !== undefined) return undefined;
    return typeof c.value === 'number' ? c.value : typeof c.value === 'bigint' ? Number(c.value) : undefined;
  }
  /** One step into a composite type; undefined with an error pushed when not possible. */
  step(t: TypeId, index: number | undefined, dynamic: boolean): TypeId | undefined {
    const x = this.T(t);
    const errs = this.errs;
    switch (x.kind) {
      case 'struct':
        if (index === undefined) {
          errs.push(`struct ${this.name(t)} indexed by a ${dynamic ? 'non-constant' : 'missing'} index`);
          return undefined;
        }
        if (index < 0 || index >= x.members.length) {
          errs.push(`member index ${index} out of range for ${this.name(t)} (${x.members.length} members)`);
          return undefined;
        }
        return x.members[index]!.type;
      case 'vector':
        if (index !== undefined && index >= x.count) { errs.push(`component ${index} out of range for ${this.name(t)}`); return undefined; }
        return x.elem;
      case 'matrix':
        if (index !== undefined && index >= x.columns) { errs.push(`column ${index} out of range for ${this.name(t)}`); return undefined; }
        return x.column;
      case 'array':
        if (!dynamic && index !== undefined && index >= x.length) { errs.push(`element ${index} out of range for ${this.name(t)}`); return undefined; }
        return x.elem;
      case 'runtimeArray':
        return x.elem;
      default:
        errs.push(`cannot index into ${this.name(t)}`);
        return undefined;
    }
  }

  run(): string[] {
    if (NO_RESULT.has(this.inst.op) && !this.isVoid) this.errs.push(`${this.inst.op} has no result but its type is ${this.name(this.res)}, expected void`);

    switch (this.inst.op) {
      case 'variable': {
        if (this.resT.kind !== 'pointer' || this.resT.storage !== 'function') this.errs.push(`variable type ${this.name(this.res)} is not a function-storage pointer`);
        else if (this.inst.init !== undefined) this.same(this.inst.init, this.resT.pointee, 'initializer');
        break;
      }
      case 'load': {
        const p = this.pointee(this.inst.ptr);
        if (p) this.resultIs(p.pointee, 'the pointee type');
        break;
      }
      case 'store': {
        const p = this.pointee(this.inst.ptr);
        if (p) this.same(this.inst.value, p.pointee, 'stored value');
        break;
      }
      case 'accessChain': {
        const p = this.pointee(this.inst.base);
        if (!p) break;
        let cur: TypeId | undefined = p.pointee;
        for (const idx of this.inst.indices) {
          if (cur === undefined) break;
          this.want(idx, (t) => this.isIntScalar(t), 'an integer index');
          cur = this.step(cur, this.constInt(idx), this.constInt(idx) === undefined);
        }
        if (cur === undefined) break;
        if (this.resT.kind !== 'pointer') this.errs.push(`access chain result ${this.name(this.res)} is not a pointer`);
        else if (this.resT.pointee !== cur || this.resT.storage !== p.storage) {
          this.errs.push(`access chain result ${this.name(this.res)} does not match the indexed type ptr<${p.storage}, ${this.name(cur)}>`);
        }
        break;
      }
      case 'arrayLength': {
        const p = this.pointee(this.inst.ptr);
        if (!p) break;
        const s = this.T(p.pointee);
        if (s.kind !== 'struct' || this.T(s.members[this.inst.member]?.type ?? p.pointee).kind !== 'runtimeArray') {
          this.errs.push(`member ${this.inst.member} of ${this.name(p.pointee)} is not a runtime array`);
        }
        if (this.resT.kind !== 'int') this.errs.push(`array length result ${this.name(this.res)} is not an integer`);
        break;
      }
      case 'convertUToPtr':
        if (this.resT.kind !== 'pointer') this.errs.push(`result ${this.name(this.res)} is not a pointer`);
        break;
      case 'convertPtrToU':
        this.pointee(this.inst.value);
        if (this.resT.kind !== 'int') this.errs.push(`result ${this.name(this.res)} is not an integer`);
        break;
      case 'binary':
        this.checkBinary();
        break;
      case 'unary': {
        if (this.inst.kind === 'transpose') {
          const a = this.T(this.ty(this.inst.a) ?? this.res);
          if (a.kind !== 'matrix' || this.resT.kind !== 'matrix') this.errs.push(`transpose needs matrix operand and result`);
          else if (this.count(a.column) !== this.resT.columns || a.columns !== this.count(this.resT.column)) this.errs.push(`transpose result ${this.name(this.res)} has the wrong shape`);
        } else {
          this.resultIs(this.ty(this.inst.a), 'the operand type');
          if (this.inst.kind === 'neg') this.want(this.inst.a, (t) => this.isNumeric(t), 'a numeric scalar or vector');
          else this.want(this.inst.a, (t) => this.scalar(t).kind === 'int' || this.scalar(t).kind === 'bool', 'an integer or bool');
        }
        break;
      }
      case 'compare': {
        const a = this.ty(this.inst.a);
        this.same(this.inst.b, a, 'right operand');
        if (a !== undefined && !this.isBoolN(this.res, this.count(a))) this.errs.push(`compare result ${this.name(this.res)} must be ${this.count(a) === 1 ? 'bool' : `vec${this.count(a)}<bool>`}`);
        break;
      }
      case 'test': {
        const a = this.ty(this.inst.a);
        if (a === undefined) break;
        if (this.inst.kind === 'any' || this.inst.kind === 'all') {
          this.want(this.inst.a, (t) => this.scalar(t).kind === 'bool' && this.T(t).kind === 'vector', 'a bool vector');
          if (!this.isBoolN(this.res, 1)) this.errs.push(`${this.inst.kind} result ${this.name(this.res)} must be bool`);
        } else {
          this.want(this.inst.a, (t) => this.scalar(t).kind === 'float', 'a float scalar or vector');
          if (!this.isBoolN(this.res, this.count(a))) this.errs.push(`${this.inst.kind} result ${this.name(this.res)} must be a bool of width ${this.count(a)}`);
        }
        break;
      }
      case 'convert': {
        const v = this.ty(this.inst.value);
        if (v !== undefined && this.count(v) !== this.count(this.res)) this.errs.push(`convert changes the component count (${this.name(v)} to ${this.name(this.res)})`);
        break;
      }
      case 'select': {
        this.same(this.inst.a, this.res, 'true operand');
        this.same(this.inst.b, this.res, 'false operand');
        const c = this.ty(this.inst.cond);
        if (c !== undefined && !this.isBoolN(c, 1) && !this.isBoolN(c, this.count(this.res))) this.errs.push(`select condition %${this.inst.cond} has type ${this.name(c)}, expected bool`);
        break;
      }
      case 'bits':
        if (this.inst.fn !== 'bitCount' && this.inst.args[0] !== undefined) this.resultIs(this.ty(this.inst.args[0]), 'the operand type');
        break;
      case 'construct':
        this.checkConstruct();
        break;
      case 'extract': {
        let cur = this.ty(this.inst.value);
        for (const i of this.inst.indices) if (cur !== undefined) cur = this.step(cur, i, false);
        this.resultIs(cur, 'the extracted type');
        break;
      }
      case 'insert': {
        this.same(this.inst.composite, this.res, 'composite');
        let cur: TypeId | undefined = this.res;
        for (const i of this.inst.indices) if (cur !== undefined) cur = this.step(cur, i, false);
        if (cur !== undefined) this.same(this.inst.object, cur, 'inserted object');
        break;
      }
      case 'shuffle': {
        const a = this.ty(this.inst.a);
        const b = this.ty(this.inst.b);
        if (a === undefined || b === undefined) break;
        if (this.T(a).kind !== 'vector' || this.T(b).kind !== 'vector') { this.errs.push(`shuffle operands must be vectors`); break; }
        if (this.scalar(a) !== this.scalar(b) || this.scalar(this.res) !== this.scalar(a)) this.errs.push(`shuffle operands and result must share the component type`);
        if (this.count(this.res) !== this.inst.components.length) this.errs.push(`shuffle result ${this.name(this.res)} does not have ${this.inst.components.length} components`);
        const total = this.count(a) + this.count(b);
        for (const c of this.inst.components) if (c !== 0xffffffff && (c < 0 || c >= total)) this.errs.push(`shuffle component ${c} out of range (${total} available)`);
        break;
      }
      case 'extractDynamic': {
        const v = this.ty(this.inst.value);
        if (v !== undefined && this.T(v).kind !== 'vector') this.errs.push(`extractDynamic operand must be a vector, got ${this.name(v)}`);
        else if (v !== undefined) this.resultIs(this.step(v, undefined, true), 'the component type');
        this.want(this.inst.index, (t) => this.isIntScalar(t), 'an integer index');
        break;
      }
      case 'insertDynamic': {
        this.same(this.inst.composite, this.res, 'composite');
        if (this.resT.kind === 'vector') this.same(this.inst.value, this.resT.elem, 'inserted value');
        else this.errs.push(`insertDynamic result must be a vector, got ${this.name(this.res)}`);
        this.want(this.inst.index, (t) => this.isIntScalar(t), 'an integer index');
        break;
      }
      case 'copyObject':
        this.resultIs(this.ty(this.inst.value), 'the operand type');
        break;
      case 'call': {
        const callee = this.env.fnById.get(this.inst.callee);
        if (!callee) { this.errs.push(`callee %${this.inst.callee} is not a function of the module`); break; }
        if (callee.params.length !== this.inst.args.length) this.errs.push(`@${callee.name} takes ${callee.params.length} arguments, got ${this.inst.args.length}`);
        this.inst.args.forEach((a, i) => { if (callee.params[i]) this.same(a, callee.params[i]!.type, `argument ${i}`); });
        this.resultIs(callee.returnType, `the return type of @${callee.name}`);
        break;
      }
      case 'phi':
        for (const inc of this.inst.incoming) this.same(inc.value, this.res, `incoming value from ^b${inc.block}`);
        break;
      case 'atomic': {
        const p = this.pointee(this.inst.ptr);
        if (!p) break;
        if (this.inst.kind === 'store') {
          if (this.inst.value === undefined) this.errs.push(`atomic store needs a value`);
          else this.same(this.inst.value, p.pointee, 'stored value');
          if (!this.isVoid) this.errs.push(`atomic store result must be void`);
          break;
        }
        this.resultIs(p.pointee, 'the pointee type');
        if (this.inst.kind !== 'load') {
          if (this.inst.value === undefined) this.errs.push(`atomic ${this.inst.kind} needs a value`);
          else this.same(this.inst.value, p.pointee, 'value');
        }
        if (this.inst.kind === 'compareExchange') {
          if (this.inst.comparator === undefined) this.errs.push(`atomic compareExchange needs a comparator`);
          else this.same(this.inst.comparator, p.pointee, 'comparator');
        }
        break;
      }
      case 'subgroup': {
        if (this.inst.kind === 'elect' || this.inst.kind === 'all' || this.inst.kind === 'any' || this.inst.kind === 'allEqual' || this.inst.kind === 'inverseBallot' || this.inst.kind === 'ballotBitExtract') {
          if (!this.isBoolN(this.res, 1)) this.errs.push(`subgroup ${this.inst.kind} result must be bool`);
        } else if (this.inst.kind === 'ballot') {
          if (!(this.resT.kind === 'vector' && this.resT.count === 4 && this.scalar(this.res).kind === 'int')) this.errs.push(`subgroup ballot result must be vec4<u32>`);
          if (this.inst.args[0] !== undefined) this.want(this.inst.args[0], (t) => this.isBoolN(t, 1), 'bool');
        } else if (['broadcast', 'broadcastFirst', 'add', 'mul', 'min', 'max', 'and', 'or', 'xor', 'shuffle', 'shuffleXor', 'shuffleUp', 'shuffleDown'].includes(this.inst.kind)) {
          if (this.inst.args[0] !== undefined) this.resultIs(this.ty(this.inst.args[0]), 'the operand type');
        }
        break;
      }
      case 'clock':
        if (!(this.resT.kind === 'int' && this.resT.width === 64) && !(this.resT.kind === 'vector' && this.resT.count === 2)) this.errs.push(`clock result must be u64 or vec2<u32>`);
        break;
      case 'sampledImage':
        if (this.resT.kind !== 'sampledImage' || this.resT.image !== this.ty(this.inst.image)) this.errs.push(`sampledImage result ${this.name(this.res)} does not wrap the image type ${this.name(this.ty(this.inst.image))}`);
        break;
      case 'traceRay': {
        this.want(this.inst.accel, (t) => this.T(t).kind === 'accelerationStructure', 'accel');
        for (const v of [this.inst.rayFlags, this.inst.cullMask, this.inst.sbtOffset, this.inst.sbtStride, this.inst.missIndex]) this.want(v, (t) => this.isIntScalar(t), 'an integer');
        for (const v of [this.inst.origin, this.inst.direction]) this.want(v, (t) => this.T(t).kind === 'vector' && this.count(t) === 3 && this.scalar(t).kind === 'float', 'vec3<f32>');
        for (const v of [this.inst.tmin, this.inst.tmax]) this.want(v, (t) => this.T(t).kind === 'float', 'f32');
        const p = this.pointee(this.inst.payload);
        if (p && p.storage !== 'rayPayload' && p.storage !== 'incomingRayPayload') this.errs.push(`payload %${this.inst.payload} has storage ${p.storage}, expected rayPayload`);
        break;
      }
      case 'reportIntersection':
        if (!this.isBoolN(this.res, 1)) this.errs.push(`reportIntersection result must be bool`);
        this.want(this.inst.hitT, (t) => this.T(t).kind === 'float', 'f32');
        this.want(this.inst.hitKind, (t) => this.isIntScalar(t), 'an integer');
        break;
      case 'executeCallable': {
        this.want(this.inst.sbtIndex, (t) => this.isIntScalar(t), 'an integer');
        const p = this.pointee(this.inst.callableData);
        if (p && p.storage !== 'callableData' && p.storage !== 'incomingCallableData') this.errs.push(`callable data %${this.inst.callableData} has storage ${p.storage}, expected callableData`);
        break;
      }
      case 'convertUToAccel':
        if (this.resT.kind !== 'accelerationStructure') this.errs.push(`result ${this.name(this.res)} is not accel`);
        break;
      case 'condBranch':
        this.want(this.inst.cond, (t) => this.isBoolN(t, 1), 'bool');
        break;
      case 'switch': {
        this.want(this.inst.selector, (t) => this.isIntScalar(t), 'an integer scalar');
        const seen = new Set<number>();
        for (const c of this.inst.cases) {
          if (seen.has(c.value)) this.errs.push(`switch case ${c.value} appears twice`);
          seen.add(c.value);
        }
        break;
      }
      case 'return': {
        const rt = this.env.fn.returnType;
        const voidFn = this.T(rt).kind === 'void';
        if (this.inst.value === undefined) { if (!voidFn) this.errs.push(`return without a value from a function returning ${this.name(rt)}`); }
        else if (voidFn) this.errs.push(`return with a value from a void function`);
        else this.same(this.inst.value, rt, 'returned value');
        break;
      }
      default:
        break;
    }
    return this.errs;
  }


  private checkBinary(): void {
    if (this.inst.op !== 'binary') return;
    const a = this.ty(this.inst.a);
    const b = this.ty(this.inst.b);
    if (a === undefined || b === undefined) return;
    const A = this.T(a);
    const B = this.T(b);
    switch (this.inst.kind) {
      case 'shl':
      case 'shr':
        if (this.scalar(a).kind !== 'int' || this.scalar(b).kind !== 'int' || this.count(a) !== this.count(b)) this.errs.push(`shift operands ${this.name(a)} and ${this.name(b)} must be integers of the same width`);
        this.resultIs(a, 'the left operand type');
        return;
      case 'vectorTimesScalar':
        if (A.kind !== 'vector' || A.elem !== b) this.errs.push(`vectorTimesScalar needs a vector and its component type, got ${this.name(a)} and ${this.name(b)}`);
        this.resultIs(a, 'the vector type');
        return;
      case 'matrixTimesScalar':
        if (A.kind !== 'matrix' || this.scalarOfId(a) !== b) this.errs.push(`matrixTimesScalar needs a matrix and its component type, got ${this.name(a)} and ${this.name(b)}`);
        this.resultIs(a, 'the matrix type');
        return;
      case 'vectorTimesMatrix':
        if (A.kind !== 'vector' || B.kind !== 'matrix' || this.count(B.column) !== A.count) this.errs.push(`vectorTimesMatrix shapes do not fit: ${this.name(a)} * ${this.name(b)}`);
        else if (!(this.resT.kind === 'vector' && this.resT.count === B.columns && this.resT.elem === A.elem)) this.errs.push(`vectorTimesMatrix result ${this.name(this.res)} should be vec${B.columns}`);
        return;
      case 'matrixTimesVector':
        if (A.kind !== 'matrix' || B.kind !== 'vector' || A.columns !== B.count) this.errs.push(`matrixTimesVector shapes do not fit: ${this.name(a)} * ${this.name(b)}`);
        else this.resultIs(A.column, 'the matrix column type');
        return;
      case 'matrixTimesMatrix':
        if (A.kind !== 'matrix' || B.kind !== 'matrix' || A.columns !== this.count(B.column)) this.errs.push(`matrixTimesMatrix shapes do not fit: ${this.name(a)} * ${this.name(b)}`);
        else if (!(this.resT.kind === 'matrix' && this.resT.column === A.column && this.resT.columns === B.columns)) this.errs.push(`matrixTimesMatrix result ${this.name(this.res)} has the wrong shape`);
        return;
      case 'dot':
        if (a !== b || A.kind !== 'vector') this.errs.push(`dot needs two vectors of the same type, got ${this.name(a)} and ${this.name(b)}`);
        else this.resultIs(A.elem, 'the component type');
        return;
      case 'outerProduct':
        if (this.resT.kind !== 'matrix') this.errs.push(`outerProduct result must be a matrix`);
        return;
      default:
        if (a !== b) this.errs.push(`operands of ${this.inst.kind} differ: ${this.name(a)} and ${this.name(b)}`);
        this.resultIs(a, 'the operand type');
        if (A.kind === 'matrix' && (this.inst.kind === 'add' || this.inst.kind === 'sub' || this.inst.kind === 'div')) return;
        if (['and', 'or', 'xor'].includes(this.inst.kind)) this.want(this.inst.a, (t) => this.scalar(t).kind === 'int' || this.scalar(t).kind === 'bool', 'an integer or bool');
        else this.want(this.inst.a, (t) => this.isNumeric(t), 'a numeric scalar or vector');
    }
  }

  private scalarOfId(t: TypeId): TypeId {
    const x = this.T(t);
    if (x.kind === 'vector') return x.elem;
    if (x.kind === 'matrix') return this.scalarOfId(x.column);
    return t;
  }

  private checkConstruct(): void {
    const inst = this.inst;
    const resT = this.resT;
    if (inst.op !== 'construct') return;
    const parts = inst.parts.map((p) => this.ty(p));
    if (parts.some((p) => p === undefined)) return;
    const ps = parts as TypeId[];
    switch (resT.kind) {
      case 'vector': {
        let n = 0;
        ps.forEach((p, i) => {
          if (this.scalarOfId(p) !== resT.elem || this.T(p).kind === 'matrix') this.errs.push(`part ${i} %${inst.parts[i]} has type ${this.name(p)}, expected components of ${this.name(resT.elem)}`);
          n += this.count(p);
        });
        if (n !== resT.count) this.errs.push(`${n} components given for ${this.name(this.res)}`);
        return;
      }
      case 'matrix':
        if (ps.length !== resT.columns) this.errs.push(`${ps.length} columns given for ${this.name(this.res)}`);
        ps.forEach((p, i) => { if (p !== resT.column) this.errs.push(`column ${i} has type ${this.name(p)}, expected ${this.name(resT.column)}`); });
        return;
      case 'array':
        if (ps.length !== resT.length) this.errs.push(`${ps.length} elements given for ${this.name(this.res)}`);
        ps.forEach((p, i) => { if (p !== resT.elem) this.errs.push(`element ${i} has type ${this.name(p)}, expected ${this.name(resT.elem)}`); });
        return;
      case 'struct':
        if (ps.length !== resT.members.length) this.errs.push(`${ps.length} members given for ${this.name(this.res)}`);
        ps.forEach((p, i) => { const mt = resT.members[i]?.type; if (mt !== undefined && p !== mt) this.errs.push(`member ${i} has type ${this.name(p)}, expected ${this.name(mt)}`); });
        return;
      default:
        this.errs.push(`construct result ${this.name(this.res)} is not a composite`);
    }
  }
}
