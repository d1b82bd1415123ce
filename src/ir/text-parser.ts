/**
 * Reads the IR text form written by `printer.ts` back into a Module.
 *
 * Guarantees: `printModule(parseModuleText(printModule(m))) === printModule(m)`; ids (values,
 * blocks, functions and type-table indices) are kept exactly as written.
 *
 * Conveniences for hand-written test IR (never produced by the printer, so they do not affect
 * the round trip): `nextId` / `nextStructUid` may be omitted (computed from the largest id), and
 * types spelled outside `type` declarations that were never declared are interned on first use,
 * after all declared types.
 *
 * Errors are `IrParseError`s carrying the 1-based line and column of the offending token.
 */
import type {
  AtomicOp, BinaryOp, BitOp, BlockId, ClockScope, CompareOp, ExtFn, FunctionId, GroupOperation, ImageOp, Inst,
  Op, RtRuntimeFn, SubgroupOp, TestOp, UnaryOp, ValueId,
} from './inst.js';
import type { Block, Builtin, Constant, Function, Global, Module, Param, Stage } from './module.js';
import { STAGES, newModule } from './module.js';
import { INST_SYNTAX, type FieldSyntax } from './printer.js';
import { IrParseError, LineReader, lexLine, type Line } from './text-lexer.js';
import { LAYOUTS, TypeResolver } from './text-type-resolver.js';
import { STORAGE_CLASSES, type LayoutRule, type StorageClass, type StructMember, type Type, type TypeId } from './types.js';
export { IrParseError } from './text-lexer.js';

const BINARY: Record<BinaryOp, true> = {
  add: true, sub: true, mul: true, div: true, rem: true, mod: true, shl: true, shr: true, and: true, or: true, xor: true,
  vectorTimesScalar: true, matrixTimesScalar: true, vectorTimesMatrix: true, matrixTimesVector: true, matrixTimesMatrix: true,
  dot: true, outerProduct: true,
};
const UNARY: Record<UnaryOp, true> = { neg: true, not: true, transpose: true };
const COMPARE: Record<CompareOp, true> = { eq: true, ne: true, lt: true, le: true, gt: true, ge: true };
const TEST: Record<TestOp, true> = { any: true, all: true, isnan: true, isinf: true };
const EXT: Record<ExtFn, true> = {
  round: true, roundEven: true, trunc: true, abs: true, sign: true, floor: true, ceil: true, fract: true,
  radians: true, degrees: true, sin: true, cos: true, tan: true, asin: true, acos: true, atan: true, atan2: true,
  sinh: true, cosh: true, tanh: true, asinh: true, acosh: true, atanh: true,
  pow: true, exp: true, log: true, exp2: true, log2: true, sqrt: true, inversesqrt: true,
  determinant: true, inverse: true, modf: true, modfStruct: true, min: true, max: true, clamp: true, mix: true, step: true,
  smoothstep: true, fma: true, frexp: true, ldexp: true,
  packSnorm4x8: true, packUnorm4x8: true, packSnorm2x16: true, packUnorm2x16: true, packHalf2x16: true, packDouble2x32: true,
  unpackSnorm2x16: true, unpackUnorm2x16: true, unpackHalf2x16: true, unpackSnorm4x8: true, unpackUnorm4x8: true, unpackDouble2x32: true,
  length: true, distance: true, cross: true, normalize: true, faceforward: true, reflect: true, refract: true,
  findLSB: true, findMSB: true, nmin: true, nmax: true, nclamp: true,
};
const BITS: Record<BitOp, true> = { bitfieldInsert: true, bitfieldExtract: true, bitfieldReverse: true, bitCount: true };
const ATOMIC: Record<AtomicOp, true> = {
  load: true, store: true, exchange: true, compareExchange: true, add: true, sub: true, min: true, max: true, and: true, or: true, xor: true,
};
const SUBGROUP: Record<SubgroupOp, true> = {
  elect: true, all: true, any: true, allEqual: true, ballot: true, inverseBallot: true, ballotBitExtract: true, ballotBitCount: true,
  ballotFindLSB: true, ballotFindMSB: true, broadcast: true, broadcastFirst: true, add: true, mul: true, min: true, max: true,
  and: true, or: true, xor: true, shuffle: true, shuffleXor: true, shuffleUp: true, shuffleDown: true,
};
const GROUP: Record<GroupOperation, true> = { reduce: true, inclusiveScan: true, exclusiveScan: true };
const IMAGE: Record<ImageOp, true> = {
  read: true, write: true, querySize: true, querySizeLod: true, queryLevels: true, sampleImplicitLod: true,
  sampleExplicitLod: true, sampleGrad: true, fetch: true, gather: true, image: true,
};
const RT: Record<RtRuntimeFn, true> = {
  traverse: true, selectCandidate: true, candidateIsProcedural: true, reportIntersection: true, acceptTriangleCandidate: true,
  commitPending: true, terminated: true, requestTerminate: true, committedHitGroup: true, missIndex: true, restoreCommitted: true,
  endTrace: true, nextPendingCandidate: true, selectPendingCandidate: true,
};
const CLOCK: Record<ClockScope, true> = { device: true, subgroup: true };
const WORDS: Partial<Record<`${Op}.${string}`, Record<string, true>>> = {
  'binary.kind': BINARY, 'unary.kind': UNARY, 'compare.kind': COMPARE, 'test.kind': TEST, 'ext.fn': EXT, 'bits.fn': BITS,
  'atomic.kind': ATOMIC, 'subgroup.kind': SUBGROUP, 'subgroup.group': GROUP, 'image.kind': IMAGE, 'rtCall.fn': RT, 'clock.scope': CLOCK,
};
const BUILTINS: Record<Builtin, true> = {
  LaunchId: true, LaunchSize: true, PrimitiveId: true, InstanceId: true, InstanceCustomIndex: true, GeometryIndex: true,
  WorldRayOrigin: true, WorldRayDirection: true, ObjectRayOrigin: true, ObjectRayDirection: true, RayTmin: true, RayTmax: true,
  IncomingRayFlags: true, HitT: true, HitKind: true, CullMask: true, ObjectToWorld: true, WorldToObject: true,
  ObjectToWorld3x4: true, WorldToObject3x4: true, HitTriangleVertexPositions: true, SubgroupSize: true, SubgroupLocalInvocationId: true, SubgroupEqMask: true,
  SubgroupGeMask: true, SubgroupGtMask: true, SubgroupLeMask: true, SubgroupLtMask: true, NumSubgroups: true, SubgroupId: true,
  GlobalInvocationId: true, LocalInvocationId: true, WorkgroupId: true, NumWorkgroups: true, LocalInvocationIndex: true,
};
export function parseModuleText(text: string): Module {
  return new ModuleParser(text).parse();
}

class ModuleParser {
  private readonly lines: Line[];
  private readonly m = newModule();
  private readonly types = new TypeResolver();
  private nextIdSeen: number | undefined;
  private nextStructUidSeen: number | undefined;

  constructor(text: string) {
    this.lines = text.split('\n').map((s, i) => lexLine(s, i + 1));
  }

  parse(): Module {
    this.declareTypes();
    this.types.allowNew = true;
    for (let li = 0; li < this.lines.length; li++) {
      const line = this.lines[li]!;
      if (line.toks.length === 0) continue;
      const r = new LineReader(line);
      const kw = r.atom('a declaration keyword');
      switch (kw.text) {
        case 'type':
          li = this.skipTypeDecl(li);
          break;
        case 'nextId':
          this.nextIdSeen = r.int('the next id');
          r.end();
          break;
        case 'nextStructUid':
          this.nextStructUidSeen = r.int('the next struct uid');
          r.end();
          break;
        case 'extension':
          this.m.extensions.push(r.string('an extension name'));
          r.end();
          break;
        case 'source': {
          const idx = r.int('a source index');
          if (idx !== this.m.sources.length) r.fail(`source index ${idx} out of order (expected ${this.m.sources.length})`);
          this.m.sources.push({ path: r.string('a source path'), text: r.string('the source text') });
          r.end();
          break;
        }
        case 'const':
          this.m.constants.push(this.constant(r));
          break;
        case 'global':
          this.m.globals.push(this.global(r));
          break;
        case 'entry':
          this.entry(r);
          break;
        case 'fn':
          li = this.fn(r, li);
          break;
        default:
          r.fail(`unknown declaration '${kw.text}'`, kw);
      }
    }
    this.m.types = { types: this.types.types, nextStructUid: 1 };
    let maxUid = 0;
    for (const t of this.types.types) if (t.kind === 'struct') maxUid = Math.max(maxUid, t.uid);
    this.m.types.nextStructUid = this.nextStructUidSeen ?? maxUid + 1;
    this.m.nextId = this.nextIdSeen ?? this.maxId() + 1;
    return this.m;
  }

  private maxId(): number {
    let max = 0;
    const see = (x: number): void => { if (x > max) max = x; };
    for (const c of this.m.constants) see(c.id);
    for (const g of this.m.globals) see(g.id);
    for (const f of this.m.functions) {
      see(f.id);
      for (const p of f.params) see(p.id);
      for (const b of f.blocks) {
        see(b.id);
        for (const i of b.insts) see(i.id);
      }
    }
    return max;
  }

  /** Pass 1: every `type` line, in order, so later lines can name any declared type. */
  private declareTypes(): void {
    for (const line of this.lines) {
      const t = line.toks;
      if (t[0]?.text === 'type' && t[3]?.text === 'struct' && t[4]?.kind === 'string') {
        const id = Number(t[1]!.text.slice(1)) as TypeId;
        const list = this.types.structs.get(t[4].text) ?? [];
        list.push(id);
        this.types.structs.set(t[4].text, list);
      }
    }
    for (let li = 0; li < this.lines.length; li++) {
      const line = this.lines[li]!;
      if (line.toks[0]?.kind !== 'atom' || line.toks[0].text !== 'type') continue;
      const r = new LineReader(line);
      r.keyword('type');
      const id = r.id('!', 'a type id');
      if (id !== this.types.types.length) r.fail(`type !${id} out of order (expected !${this.types.types.length})`, line.toks[1]);
      r.punct('=');
      if (!r.isAtom('struct')) {
        this.types.add(this.types.structural(r));
        r.end();
        continue;
      }
      r.keyword('struct');
      const name = r.string('a struct name');
      r.keyword('uid');
      r.punct('=');
      li = this.structBody(r, li, name);
    }
  }

  private structBody(r: LineReader, li: number, name: string): number {
    const uid = r.int('a struct uid');
    const t: Extract<Type, { kind: 'struct' }> = { kind: 'struct', name, members: [], uid };
    for (;;) {
      if (r.isPunct('{')) break;
      const f = r.atom('a struct attribute');
      if (f.text === 'block') t.block = true;
      else if (f.text === 'layout') {
        r.punct('=');
        const l = r.atom('a layout rule');
        if (!Object.hasOwn(LAYOUTS, l.text)) r.fail(`unknown layout '${l.text}'`, l);
        t.layout = l.text as LayoutRule;
      } else r.fail(`unknown struct attribute '${f.text}'`, f);
    }
    r.punct('{');
    r.end();
    this.types.add(t);
    for (li++; li < this.lines.length; li++) {
      const mr = new LineReader(this.lines[li]!);
      if (mr.done()) continue;
      if (mr.isPunct('}')) {
        mr.i++;
        mr.end();
        return li;
      }
      const mem: StructMember = { name: mr.string('a member name'), type: 0 as TypeId };
      mr.punct(':');
      mem.type = this.types.ref(mr);
      while (!mr.done()) {
        const a = mr.atom('a member attribute');
        if (a.text === 'offset' || a.text === 'matrixStride') {
          mr.punct('=');
          mem[a.text] = mr.int(a.text);
        } else if (a.text === 'rowMajor' || a.text === 'nonWritable' || a.text === 'nonReadable') mem[a.text] = true;
        else mr.fail(`unknown member attribute '${a.text}'`, a);
      }
      t.members.push(mem);
    }
    throw new IrParseError(`struct "${name}" is not closed with '}'`, r.line.no, 1);
  }

  private skipTypeDecl(li: number): number {
    const line = this.lines[li]!;
    if (line.toks.at(-1)?.text !== '{') return li;
    for (li++; li < this.lines.length; li++) if (this.lines[li]!.toks[0]?.text === '}') return li;
    return li;
  }

  private constant(r: LineReader): Constant {
    const id = r.id('%', 'a constant id') as ValueId;
    r.punct(':');
    const type = this.types.ref(r);
    r.punct('=');
    const c: Constant = { id, type, value: null };
    if (r.isPunct('{')) c.parts = this.idList(r, '{', '}');
    else {
      c.value = this.literal(r);
      if (r.isPunct('{')) c.parts = this.idList(r, '{', '}');
    }
    while (!r.done()) {
      const a = r.atom('a constant attribute');
      r.punct('=');
      if (a.text === 'spec') c.specId = r.int('a spec id');
      else if (a.text === 'name') c.name = r.string('a name');
      else r.fail(`unknown constant attribute '${a.text}'`, a);
    }
    return c;
  }

  private literal(r: LineReader): Constant['value'] {
    const t = r.atom('a constant value');
    if (t.text === 'true' || t.text === 'false') return t.text === 'true';
    if (t.text === 'null') return null;
    if (/^-?\d+n$/.test(t.text)) return BigInt(t.text.slice(0, -1));
    const n = Number(t.text);
    if (Number.isNaN(n) && t.text !== 'NaN') r.fail(`bad constant value '${t.text}'`, t);
    return n;
  }

  private idList(r: LineReader, open: string, close: string): ValueId[] {
    r.punct(open);
    const out: ValueId[] = [];
    while (!r.isPunct(close)) {
      if (out.length > 0) r.punct(',');
      out.push(r.id('%', 'a value id') as ValueId);
    }
    r.punct(close);
    return out;
  }

  private global(r: LineReader): Global {
    const id = r.id('%', 'a global id') as ValueId;
    const name = r.string('a global name');
    r.punct(':');
    const type = this.types.ref(r);
    const s = r.atom('a storage class');
    if (!STORAGE_CLASSES.includes(s.text as StorageClass)) r.fail(`unknown storage class '${s.text}'`, s);
    const g: Global = { id, name, type, storage: s.text as StorageClass, loc: r.loc() };
    while (!r.done()) {
      const a = r.atom('a global attribute');
      switch (a.text) {
        case 'set':
        case 'binding':
        case 'location':
          r.punct('=');
          g[a.text] = r.int(a.text);
          break;
        case 'builtin': {
          r.punct('=');
          const b = r.atom('a builtin');
          if (!Object.hasOwn(BUILTINS, b.text)) r.fail(`unknown builtin '${b.text}'`, b);
          g.builtin = b.text as Builtin;
          break;
        }
        case 'init':
          r.punct('=');
          g.init = r.id('%', 'an initializer id') as ValueId;
          break;
        case 'nonWritable':
        case 'nonReadable':
        case 'coherent':
        case 'volatile':
        case 'restrict':
          g[a.text] = true;
          break;
        default:
          r.fail(`unknown global attribute '${a.text}'`, a);
      }
    }
    return g;
  }

  private entry(r: LineReader): void {
    const st = r.atom('a stage');
    if (!STAGES.includes(st.text as Stage)) r.fail(`unknown stage '${st.text}'`, st);
    const fnId = r.id('%', 'a function id') as FunctionId;
    const e: Module['entryPoints'][number] = { stage: st.text as Stage, function: fnId, name: r.string('an entry point name') };
    if (!r.done()) {
      r.keyword('localSize');
      r.punct('=');
      r.punct('(');
      const a = r.int('local size x');
      r.punct(',');
      const b = r.int('local size y');
      r.punct(',');
      const c = r.int('local size z');
      r.punct(')');
      e.localSize = [a, b, c];
    }
    r.end();
    this.m.entryPoints.push(e);
  }

  private fnName(r: LineReader): string {
    const t = r.next('a function name');
    if (t.kind === 'fnString') return t.text;
    if (t.kind !== 'atom' || !t.text.startsWith('@') || t.text.length < 2) r.fail(`expected a function name (@name), found '${t.text}'`, t);
    return t.text.slice(1);
  }

  private fn(r: LineReader, li: number): number {
    const id = r.id('%', 'a function id') as FunctionId;
    const name = this.fnName(r);
    r.punct('(');
    const params: Param[] = [];
    while (!r.isPunct(')')) {
      if (params.length > 0) r.punct(',');
      const p: Param = { id: r.id('%', 'a parameter id') as ValueId, type: 0 as TypeId };
      r.punct(':');
      p.type = this.types.ref(r);
      if (r.peek()?.kind === 'string') p.name = r.string('a parameter name');
      params.push(p);
    }
    r.punct(')');
    r.punct('->');
    const returnType = this.types.ref(r);
    r.punct('{');
    r.end();
    const fn: Function = { id, name, returnType, params, blocks: [], loc: r.loc() };
    let block: Block | undefined;
    for (li++; li < this.lines.length; li++) {
      const line = this.lines[li]!;
      if (line.toks.length === 0) continue;
      const br = new LineReader(line);
      const first = br.peek()!;
      if (first.kind === 'punct' && first.text === '}') {
        br.i++;
        br.end();
        this.m.functions.push(fn);
        return li;
      }
      if (first.kind === 'atom' && first.text.startsWith('^b')) {
        block = this.blockHeader(br);
        fn.blocks.push(block);
        continue;
      }
      if (!block) return br.fail('instruction outside a block (a block label ^bN: must come first)', first);
      block.insts.push(this.inst(br));
    }
    throw new IrParseError(`function @${name} is not closed with '}'`, r.line.no, 1);
  }

  private blockHeader(r: LineReader): Block {
    const b: Block = { id: r.id('^b', 'a block id') as BlockId, insts: [] };
    if (r.peek()?.kind === 'string') b.name = r.string('a block name');
    if (r.isAtom('selectionMerge')) {
      r.i++;
      b.merge = { kind: 'selection', merge: r.id('^b', 'a merge block') as BlockId };
    } else if (r.isAtom('loopMerge')) {
      r.i++;
      const merge = r.id('^b', 'a merge block') as BlockId;
      const cont = r.id('^b', 'a continue block') as BlockId;
      b.merge = { kind: 'loop', merge, continue: cont };
      if (r.isAtom('unroll') || r.isAtom('dontUnroll')) b.merge.unroll = r.next('unroll').text as 'unroll' | 'dontUnroll';
    }
    r.punct(':');
    r.end();
    return b;
  }

  private inst(r: LineReader): Inst {
    const id = r.id('%', 'an instruction id') as ValueId;
    let type: TypeId;
    if (r.isPunct(':')) {
      r.i++;
      type = this.types.ref(r);
    } else {
      type = this.voidType();
    }
    r.punct('=');
    const opTok = r.atom('an op');
    if (!Object.hasOwn(INST_SYNTAX, opTok.text)) r.fail(`unknown op '${opTok.text}'`, opTok);
    const op = opTok.text as Op;
    const rec: Record<string, unknown> = { id, type, loc: r.loc(), op };
    const fields = INST_SYNTAX[op];
    for (const f of fields) {
      if (f.optional) continue;
      rec[f.name] = this.field(r, op, f);
    }
    while (!r.done()) {
      const t = r.peek()!;
      const positional = fields.find((f) => f.positional && rec[f.name] === undefined);
      if (positional && t.kind === 'atom' && t.text.startsWith('%')) {
        rec[positional.name] = this.field(r, op, positional);
        continue;
      }
      const a = r.atom('an optional operand');
      const f = fields.find((x) => x.optional && x.name === a.text);
      if (!f) r.fail(`'${op}' has no optional operand '${a.text}'`, a);
      if (rec[f.name] !== undefined) r.fail(`operand '${a.text}' given twice`, a);
      if (f.kind === 'flag') rec[f.name] = true;
      else {
        r.punct('=');
        rec[f.name] = this.field(r, op, f);
      }
    }
    return rec as unknown as Inst;
  }

  private voidType(): TypeId {
    const id = this.types.byKey.get('void');
    if (id !== undefined) return id;
    return this.types.add({ kind: 'void' });
  }

  private field(r: LineReader, op: Op, f: FieldSyntax): unknown {
    switch (f.kind) {
      case 'value':
        return r.id('%', `operand ${f.name}`);
      case 'values':
        return this.idList(r, '(', ')');
      case 'block':
        return r.id('^b', `block operand ${f.name}`);
      case 'word': {
        const t = r.atom(`operand ${f.name}`);
        const allowed = WORDS[`${op}.${f.name}`];
        if (allowed && !Object.hasOwn(allowed, t.text)) r.fail(`unknown ${op} ${f.name} '${t.text}'`, t);
        return t.text;
      }
      case 'ints': {
        r.punct('[');
        const out: number[] = [];
        while (!r.isPunct(']')) {
          if (out.length > 0) r.punct(',');
          out.push(r.int(`an element of ${f.name}`));
        }
        r.punct(']');
        return out;
      }
      case 'int':
        return r.int(`operand ${f.name}`);
      case 'string':
        return r.string(`operand ${f.name}`);
      case 'callee': {
        const id = r.id('%', 'a callee function id');
        const t = r.peek();
        if (t && (t.kind === 'fnString' || (t.kind === 'atom' && t.text.startsWith('@')))) r.i++;
        return id;
      }
      case 'incoming': {
        r.punct('{');
        const out: { value: ValueId; block: BlockId }[] = [];
        while (!r.isPunct('}')) {
          if (out.length > 0) r.punct(',');
          const block = r.id('^b', 'an incoming block') as BlockId;
          r.punct(':');
          out.push({ value: r.id('%', 'an incoming value') as ValueId, block });
        }
        r.punct('}');
        return out;
      }
      case 'cases': {
        r.punct('[');
        const out: { value: number; target: BlockId }[] = [];
        while (!r.isPunct(']')) {
          if (out.length > 0) r.punct(',');
          const value = r.int('a case value');
          r.punct(':');
          out.push({ value, target: r.id('^b', 'a case target') as BlockId });
        }
        r.punct(']');
        return out;
      }
      case 'flag':
        return true;
    }
  }
}

