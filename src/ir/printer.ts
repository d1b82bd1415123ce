/**
 * The IR text form: readable, stable (same module -> same text) and complete, so that
 * `printModule(parseModuleText(printModule(m))) === printModule(m)` for every module.
 *
 * Layout of a module:
 *   ; vvision IR
 *   nextId 41
 *   nextStructUid 2
 *   extension "GL_EXT_ray_tracing"
 *   source 0 "shaders/pt.rchit" "<escaped text>"
 *   type !3 = vec3<f32>
 *   type !7 = struct "Payload" uid=1 block layout=std430 {
 *     "color": vec3<f32> offset=0
 *   }
 *   const %12: u32 = 7
 *   global %20 "tlas": ptr<uniformConstant, accel> uniformConstant set=0 binding=0   ; 4:1
 *   entry closestHit %30 "main"
 *   fn %30 @main() -> void {   ; 10:1
 *   ^b31 "entry" selectionMerge ^b43:
 *     %33: vec3<f32> = load %20   ; 13:9
 *     %34 = condBranch %40 ^b41 ^b42   ; 14:3
 *   }
 *
 * Ids: `%N` values/functions, `^bN` blocks, `!N` type-table indices. Types inside instructions
 * are spelled structurally (`ptr<function, vec3<f32>>`); a struct is `$Name` when its name is
 * unique and a plain word, else `!N`. The trailing `; [file:]line:col` of instructions, globals
 * and functions is their loc (file omitted when 0). Every instruction, even one without a
 * result, prints its id, because ids are instruction identities for instrumentation.
 *
 * `INST_SYNTAX` is the single description of every op's operand fields shared with the parser:
 * required fields print positionally in order, optional ones as `name=value` (flags bare), except
 * a `positional` optional, which prints bare when present.
 */
import type { Inst, Loc, Op } from './inst.js';
import type { Block, Constant, Function, Global, Module } from './module.js';
import type { Type, TypeId, TypeTable } from './types.js';

export type FieldKind = 'value' | 'values' | 'block' | 'word' | 'ints' | 'int' | 'string' | 'callee' | 'incoming' | 'cases' | 'flag';

export interface FieldSyntax {
  readonly name: string;
  readonly kind: FieldKind;
  readonly optional?: boolean;
  /** Optional but printed without `name=` (only as the last field). */
  readonly positional?: boolean;
}

const v = (name: string): FieldSyntax => ({ name, kind: 'value' });
const ov = (name: string): FieldSyntax => ({ name, kind: 'value', optional: true });
const vs = (name: string): FieldSyntax => ({ name, kind: 'values' });
const w = (name: string): FieldSyntax => ({ name, kind: 'word' });
const b = (name: string): FieldSyntax => ({ name, kind: 'block' });
const ints = (name: string): FieldSyntax => ({ name, kind: 'ints' });

export const INST_SYNTAX: { readonly [O in Op]: readonly FieldSyntax[] } = {
  variable: [ov('init')],
  load: [v('ptr'), { name: 'payloadCopy', kind: 'flag', optional: true }],
  store: [v('ptr'), v('value'), { name: 'payloadCopy', kind: 'flag', optional: true }],
  accessChain: [v('base'), vs('indices')],
  arrayLength: [v('ptr'), { name: 'member', kind: 'int' }],
  convertUToPtr: [v('value')],
  convertPtrToU: [v('value')],
  binary: [w('kind'), v('a'), v('b')],
  unary: [w('kind'), v('a')],
  compare: [w('kind'), v('a'), v('b')],
  test: [w('kind'), v('a')],
  convert: [v('value')],
  bitcast: [v('value')],
  select: [v('cond'), v('a'), v('b')],
  ext: [w('fn'), vs('args')],
  bits: [w('fn'), vs('args')],
  construct: [vs('parts')],
  extract: [v('value'), ints('indices')],
  insert: [v('object'), v('composite'), ints('indices')],
  shuffle: [v('a'), v('b'), ints('components')],
  extractDynamic: [v('value'), v('index')],
  insertDynamic: [v('value'), v('composite'), v('index')],
  copyObject: [v('value')],
  undef: [],
  call: [{ name: 'callee', kind: 'callee' }, vs('args')],
  phi: [{ name: 'incoming', kind: 'incoming' }],
  atomic: [w('kind'), v('ptr'), ov('value'), ov('comparator')],
  subgroup: [w('kind'), vs('args'), { name: 'group', kind: 'word', optional: true }],
  clock: [w('scope'), { name: 'realtime', kind: 'flag', optional: true }],
  debugPrintf: [{ name: 'format', kind: 'string' }, vs('args')],
  image: [w('kind'), vs('args'), ov('lod'), ov('bias'), ov('offset')],
  sampledImage: [v('image'), v('sampler')],
  traceRay: [
    v('accel'), v('rayFlags'), v('cullMask'), v('sbtOffset'), v('sbtStride'), v('missIndex'),
    v('origin'), v('tmin'), v('direction'), v('tmax'), v('payload'),
  ],
  reportIntersection: [v('hitT'), v('hitKind')],
  executeCallable: [v('sbtIndex'), v('callableData')],
  convertUToAccel: [v('value')],
  rtCall: [w('fn'), vs('args')],
  branch: [b('target')],
  condBranch: [v('cond'), b('ifTrue'), b('ifFalse')],
  switch: [v('selector'), b('default'), { name: 'cases', kind: 'cases' }],
  return: [{ name: 'value', kind: 'value', optional: true, positional: true }],
  unreachable: [],
  ignoreIntersection: [],
  terminateRay: [],
};

/** A name that can stand as a bare word in the text form. */
export const WORD_RE = /^[A-Za-z_][A-Za-z0-9_.]*$/;

/** Spells type ids: structural spelling, `$Name` for uniquely named structs, `!N` otherwise. */
export class TypeSpeller {
  private readonly uniqueStructNames = new Set<string>();
  /** Spellings outside declarations; valid because the speller lives for one print call. */
  private readonly cache = new Map<TypeId, string>();

  constructor(private readonly table: TypeTable) {
    const counts = new Map<string, number>();
    for (const t of table.types) if (t.kind === 'struct') counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
    for (const [n, c] of counts) if (c === 1 && WORD_RE.test(n)) this.uniqueStructNames.add(n);
  }

  /**
   * Spelling of `id`. Inside the declaration of type `declaring`, references to ids at or after it
   * are printed `!N` so the parser can read declarations in order.
   */
  spell(id: TypeId, declaring?: number): string {
    if (declaring !== undefined) return id >= declaring ? `!${id}` : this.spellUncached(id, declaring);
    let s = this.cache.get(id);
    if (s === undefined) this.cache.set(id, (s = this.spellUncached(id)));
    return s;
  }

  private spellUncached(id: TypeId, declaring?: number): string {
    const t = this.table.types[id];
    if (!t) return `!${id}`;
    if (t.kind === 'struct') return this.uniqueStructNames.has(t.name) ? `$${t.name}` : `!${id}`;
    return this.structural(t, declaring);
  }

  /** The right-hand side of a non-struct declaration. */
  structural(t: Type, declaring?: number): string {
    switch (t.kind) {
      case 'void':
      case 'bool':
      case 'sampler':
        return t.kind;
      case 'accelerationStructure':
        return 'accel';
      case 'int':
        return `${t.signed ? 'i' : 'u'}${t.width}`;
      case 'float':
        return `f${t.width}`;
      case 'vector':
        return `vec${t.count}<${this.spell(t.elem, declaring)}>`;
      case 'matrix':
        return `mat${t.columns}<${this.spell(t.column, declaring)}>`;
      case 'array':
        return `array<${this.spell(t.elem, declaring)}, ${t.length}${t.stride !== undefined ? `, stride=${t.stride}` : ''}>`;
      case 'runtimeArray':
        return `array<${this.spell(t.elem, declaring)}${t.stride !== undefined ? `, stride=${t.stride}` : ''}>`;
      case 'pointer':
        return `ptr<${t.storage}, ${this.spell(t.pointee, declaring)}${t.align !== undefined ? `, align=${t.align}` : ''}>`;
      case 'image': {
        const flags = [t.arrayed && 'arrayed', t.multisampled && 'ms', t.sampled && 'sampled', t.depth && 'depth'].filter(Boolean);
        return `image<${t.dim}, ${this.spell(t.sampledType, declaring)}, ${JSON.stringify(t.format)}${flags.map((f) => `, ${f}`).join('')}>`;
      }
      case 'sampledImage':
        return `sampled<${this.spell(t.image, declaring)}>`;
      case 'function':
        return `fn(${t.params.map((x) => this.spell(x, declaring)).join(', ')}) -> ${this.spell(t.returnType, declaring)}`;
      case 'struct':
        return `!${this.table.types.indexOf(t)}`;
    }
  }
}

export function formatLoc(loc: Loc | undefined): string {
  if (!loc) return '';
  return loc.file === 0 ? `${loc.line}:${loc.column}` : `${loc.file}:${loc.line}:${loc.column}`;
}

export function formatNumber(x: number | bigint): string {
  if (typeof x === 'bigint') return `${x}n`;
  if (Object.is(x, -0)) return '-0';
  return String(x);
}

function formatConstValue(value: Constant['value']): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  return formatNumber(value);
}

function quote(s: string): string {
  return JSON.stringify(s);
}

function fnRef(name: string): string {
  return WORD_RE.test(name) ? `@${name}` : `@${quote(name)}`;
}

function withLoc(line: string, loc: Loc | undefined): string {
  return loc ? `${line}   ; ${formatLoc(loc)}` : line;
}

function printField(m: Module, f: FieldSyntax, value: unknown): string {
  switch (f.kind) {
    case 'value':
      return `%${value as number}`;
    case 'values':
      return `(${(value as number[]).map((x) => `%${x}`).join(', ')})`;
    case 'block':
      return `^b${value as number}`;
    case 'word':
      return String(value);
    case 'ints':
      return `[${(value as number[]).map(formatNumber).join(', ')}]`;
    case 'int':
      return formatNumber(value as number);
    case 'string':
      return quote(value as string);
    case 'callee': {
      const callee = m.functions.find((x) => x.id === value);
      return callee ? `%${value as number} ${fnRef(callee.name)}` : `%${value as number}`;
    }
    case 'incoming':
      return `{${(value as { value: number; block: number }[]).map((i) => `^b${i.block}: %${i.value}`).join(', ')}}`;
    case 'cases':
      return `[${(value as { value: number; target: number }[]).map((c) => `${formatNumber(c.value)}: ^b${c.target}`).join(', ')}]`;
    case 'flag':
      return f.name;
  }
}

export function printInst(m: Module, inst: Inst, speller = new TypeSpeller(m.types)): string {
  const isVoid = m.types.types[inst.type]?.kind === 'void';
  const head = isVoid ? `%${inst.id} = ` : `%${inst.id}: ${speller.spell(inst.type)} = `;
  const parts: string[] = [inst.op];
  const rec = inst as unknown as Record<string, unknown>;
  for (const f of INST_SYNTAX[inst.op]) {
    const value = rec[f.name];
    if (f.optional) {
      if (value === undefined || value === false) continue;
      if (f.kind === 'flag') parts.push(f.name);
      else if (f.positional) parts.push(printField(m, f, value));
      else parts.push(`${f.name}=${printField(m, f, value)}`);
    } else {
      parts.push(printField(m, f, value));
    }
  }
  return withLoc(head + parts.join(' '), inst.loc);
}

function printBlockHeader(b: Block): string {
  let s = `^b${b.id}`;
  if (b.name !== undefined) s += ` ${quote(b.name)}`;
  if (b.merge?.kind === 'selection') s += ` selectionMerge ^b${b.merge.merge}`;
  else if (b.merge?.kind === 'loop') s += ` loopMerge ^b${b.merge.merge} ^b${b.merge.continue}${b.merge.unroll ? ` ${b.merge.unroll}` : ''}`;
  return s + ':';
}

function printFunctionWith(m: Module, fn: Function, speller: TypeSpeller): string {
  const params = fn.params
    .map((p) => `%${p.id}: ${speller.spell(p.type)}${p.name !== undefined ? ` ${quote(p.name)}` : ''}`)
    .join(', ');
  const lines = [withLoc(`fn %${fn.id} ${fnRef(fn.name)}(${params}) -> ${speller.spell(fn.returnType)} {`, fn.loc)];
  for (const blk of fn.blocks) {
    lines.push(printBlockHeader(blk));
    for (const inst of blk.insts) lines.push('  ' + printInst(m, inst, speller));
  }
  lines.push('}');
  return lines.join('\n');
}

export function printFunction(m: Module, fn: Function): string {
  return printFunctionWith(m, fn, new TypeSpeller(m.types)) + '\n';
}

function printTypeDecl(speller: TypeSpeller, table: TypeTable, id: number): string[] {
  const t = table.types[id]!;
  if (t.kind !== 'struct') return [`type !${id} = ${speller.structural(t, id)}`];
  let head = `type !${id} = struct ${quote(t.name)} uid=${t.uid}`;
  if (t.block) head += ' block';
  if (t.layout) head += ` layout=${t.layout}`;
  const lines = [head + ' {'];
  for (const mem of t.members) {
    let s = `  ${quote(mem.name)}: ${speller.spell(mem.type, id)}`;
    if (mem.offset !== undefined) s += ` offset=${mem.offset}`;
    if (mem.matrixStride !== undefined) s += ` matrixStride=${mem.matrixStride}`;
    if (mem.rowMajor) s += ' rowMajor';
    if (mem.nonWritable) s += ' nonWritable';
    if (mem.nonReadable) s += ' nonReadable';
    lines.push(s);
  }
  lines.push('}');
  return lines;
}

function printConstant(speller: TypeSpeller, c: Constant): string {
  let s = `const %${c.id}: ${speller.spell(c.type)} = `;
  if (c.parts && c.value === null) s += `{${c.parts.map((p) => `%${p}`).join(', ')}}`;
  else {
    s += formatConstValue(c.value);
    if (c.parts) s += ` {${c.parts.map((p) => `%${p}`).join(', ')}}`;
  }
  if (c.specId !== undefined) s += ` spec=${c.specId}`;
  if (c.name !== undefined) s += ` name=${quote(c.name)}`;
  return s;
}

function printGlobal(speller: TypeSpeller, g: Global): string {
  let s = `global %${g.id} ${quote(g.name)}: ${speller.spell(g.type)} ${g.storage}`;
  if (g.set !== undefined) s += ` set=${g.set}`;
  if (g.binding !== undefined) s += ` binding=${g.binding}`;
  if (g.location !== undefined) s += ` location=${g.location}`;
  if (g.builtin !== undefined) s += ` builtin=${g.builtin}`;
  if (g.init !== undefined) s += ` init=%${g.init}`;
  for (const flag of ['nonWritable', 'nonReadable', 'coherent', 'volatile', 'restrict'] as const) if (g[flag]) s += ` ${flag}`;
  return withLoc(s, g.loc);
}

export function printModule(m: Module): string {
  const speller = new TypeSpeller(m.types);
  const lines: string[] = ['; vvision IR', `nextId ${m.nextId}`, `nextStructUid ${m.types.nextStructUid}`];
  for (const e of m.extensions) lines.push(`extension ${quote(e)}`);
  m.sources.forEach((s, i) => lines.push(`source ${i} ${quote(s.path)} ${quote(s.text)}`));
  for (let id = 0; id < m.types.types.length; id++) lines.push(...printTypeDecl(speller, m.types, id));
  for (const c of m.constants) lines.push(printConstant(speller, c));
  for (const g of m.globals) lines.push(printGlobal(speller, g));
  for (const e of m.entryPoints) {
    let s = `entry ${e.stage} %${e.function} ${quote(e.name)}`;
    if (e.localSize) s += ` localSize=(${e.localSize.join(', ')})`;
    lines.push(s);
  }
  for (const fn of m.functions) lines.push(printFunctionWith(m, fn, speller));
  return lines.join('\n') + '\n';
}
