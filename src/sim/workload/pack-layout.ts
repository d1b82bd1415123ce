/**
 * JSON values -> bytes, by a block's explicit layout as the IR records it (struct member
 * `offset`, array `stride`, matrix member `matrixStride` / `rowMajor`). The simulator uses it to
 * fill uniform/storage buffers, push constants and shader records from manifest JSON exactly as
 * the shader's declaration lays them out, whatever rule (std140, std430, scalar) produced it.
 *
 * JSON forms accepted: numbers for float/int scalars (64-bit ints also as bigint or a decimal /
 * 0x-hex string; floats also as their raw bits, "0x3f800000" with exactly width/4 hex digits, or a
 * C99 hex-float literal "0x1.8p+1", the forms host dumps print); true/false (or 0/1) for bool, stored as a 32-bit word; arrays for vectors; a
 * matrix as an array of columns (each an array of rows) or one flat column-major array; arrays
 * for arrays; objects keyed by member name for structs; a buffer_reference pointer as a 64-bit
 * address. Invariant: on any mismatch a `LayoutPackError` names the JSON path and what the
 * layout expected; bytes outside the value's members and padding are never written.
 */
import { typeName, typeOf, type StructMember, type TypeId, type TypeTable } from '../../ir/types.js';
import { floatToHalf } from '../half-float.js';

export class LayoutPackError extends Error {
  readonly path: string;

  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = 'LayoutPackError';
    this.path = path;
  }
}

export interface PackOptions {
  /** What a struct member missing from the JSON object means: an error (default) or zero bytes. */
  missingMembers?: 'error' | 'zero';
  /**
   * Turns a 64-bit value that is not a number or numeric string into an address; a host that lets
   * manifests name buffers symbolically (instead of giving device addresses) supplies this.
   */
  resolveAddress?: (value: unknown, path: string) => bigint | undefined;
}

/** How a matrix is laid out; comes from the struct member that holds it. */
interface MatrixLayout {
  matrixStride?: number;
  rowMajor?: boolean;
}

/** Writes `value` as `type` at `offset` of `view`. Throws `LayoutPackError` naming `path` on a mismatch. */
export function packValue(
  view: DataView, offset: number, type: TypeId, types: TypeTable, value: unknown, path: string, options: PackOptions = {},
): void {
  pack(view, offset, type, types, value, path, options, {});
}

function pack(
  view: DataView, offset: number, type: TypeId, types: TypeTable, value: unknown, path: string, opts: PackOptions,
  matrix: MatrixLayout,
): void {
  const t = typeOf(types, type);
  switch (t.kind) {
    case 'bool':
    case 'int':
    case 'float':
      writeScalar(view, offset, type, types, value, path, opts);
      return;
    case 'vector': {
      const items = expectArray(value, t.count, path, typeName(types, type));
      const size = scalarSize(types, t.elem);
      items.forEach((item, i) => writeScalar(view, offset + i * size, t.elem, types, item, `${path}[${i}]`, opts));
      return;
    }
    case 'matrix': {
      const column = typeOf(types, t.column);
      if (column.kind !== 'vector') throw new LayoutPackError(path, `malformed matrix type ${typeName(types, type)}`);
      const rows = column.count;
      const scalar = scalarSize(types, column.elem);
      const stride = matrix.matrixStride ?? (matrix.rowMajor ? t.columns : rows) * scalar;
      const columns = matrixColumns(value, t.columns, rows, path, typeName(types, type));
      for (let c = 0; c < t.columns; c++) {
        for (let r = 0; r < rows; r++) {
          const at = matrix.rowMajor ? offset + r * stride + c * scalar : offset + c * stride + r * scalar;
          writeScalar(view, at, column.elem, types, columns[c]![r], `${path}[${c}][${r}]`, opts);
        }
      }
      return;
    }
    case 'array':
    case 'runtimeArray': {
      const what = typeName(types, type);
      if (!Array.isArray(value)) throw new LayoutPackError(path, `expected an array for ${what}, found ${describe(value)}`);
      if (t.kind === 'array' && value.length !== t.length) {
        throw new LayoutPackError(path, `expected ${t.length} elements for ${what}, found ${value.length}`);
      }
      const stride = t.stride ?? naturalStride(types, t.elem, path);
      value.forEach((item, i) => pack(view, offset + i * stride, t.elem, types, item, `${path}[${i}]`, opts, matrix));
      return;
    }
    case 'struct':
      packStruct(view, offset, t.name, t.members, types, value, path, opts);
      return;
    case 'pointer':
      if (t.storage !== 'physicalStorageBuffer') {
        throw new LayoutPackError(path, `${typeName(types, type)} cannot be stored in a buffer`);
      }
      checkRange(view, offset, 8, path);
      view.setBigUint64(offset, toBigInt(value, 64, false, path, opts), true);
      return;
    default:
      throw new LayoutPackError(path, `${typeName(types, type)} has no memory layout`);
  }
}

function packStruct(
  view: DataView, offset: number, name: string, members: StructMember[], types: TypeTable, value: unknown, path: string,
  opts: PackOptions,
): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LayoutPackError(path, `expected an object with members ${members.map((m) => m.name).join(', ')} for struct ${name}, found ${describe(value)}`);
  }
  const obj = value as Record<string, unknown>;
  const names = new Set(members.map((m) => m.name));
  for (const k of Object.keys(obj)) {
    if (!names.has(k)) throw new LayoutPackError(`${path}.${k}`, `struct ${name} has no member "${k}" (members: ${[...names].join(', ')})`);
  }
  for (const m of members) {
    const memberPath = path ? `${path}.${m.name}` : m.name;
    if (m.offset === undefined) throw new LayoutPackError(memberPath, `struct ${name} has no explicit layout (member offsets missing)`);
    if (!(m.name in obj)) {
      if (opts.missingMembers === 'zero') continue;
      throw new LayoutPackError(memberPath, `missing (struct ${name} member of type ${typeName(types, m.type)})`);
    }
    const layout: MatrixLayout = {};
    if (m.matrixStride !== undefined) layout.matrixStride = m.matrixStride;
    if (m.rowMajor) layout.rowMajor = true;
    pack(view, offset + m.offset, m.type, types, obj[m.name], memberPath, opts, layout);
  }
}

function writeScalar(
  view: DataView, offset: number, type: TypeId, types: TypeTable, value: unknown, path: string, opts: PackOptions,
): void {
  const t = typeOf(types, type);
  switch (t.kind) {
    case 'bool': {
      if (typeof value !== 'boolean' && value !== 0 && value !== 1) {
        throw new LayoutPackError(path, `expected true or false for bool, found ${describe(value)}`);
      }
      checkRange(view, offset, 4, path);
      view.setUint32(offset, value === true || value === 1 ? 1 : 0, true);
      return;
    }
    case 'float': {
      checkRange(view, offset, t.width / 8, path);
      if (typeof value === 'string') {
        const bits = rawFloatBits(value, t.width);
        if (bits !== undefined) {
          if (t.width === 64) view.setBigUint64(offset, bits, true);
          else if (t.width === 32) view.setUint32(offset, Number(bits), true);
          else view.setUint16(offset, Number(bits), true);
          return;
        }
        const parsed = hexFloat(value);
        if (parsed === undefined && /^[+-]?0[xX]/.test(value)) {
          throw new LayoutPackError(path, `expected a number for f${t.width}, found ${describe(value)} (a string may be the raw bits, "0x${'3f800000'.slice(0, t.width / 4).padEnd(t.width / 4, '0')}" with exactly ${t.width / 4} hex digits, or a hex-float literal such as "0x1.8p+1")`);
        }
        if (parsed !== undefined) value = parsed;
      }
      if (typeof value !== 'number') throw new LayoutPackError(path, `expected a number for f${t.width}, found ${describe(value)}`);
      if (t.width === 32) view.setFloat32(offset, value, true);
      else if (t.width === 64) view.setFloat64(offset, value, true);
      else view.setUint16(offset, floatToHalf(value), true);
      return;
    }
    case 'int': {
      checkRange(view, offset, t.width / 8, path);
      const big = toBigInt(value, t.width, t.signed, path, opts);
      const bits = BigInt.asUintN(t.width, big);
      if (t.width === 64) view.setBigUint64(offset, bits, true);
      else if (t.width === 32) view.setUint32(offset, Number(bits), true);
      else if (t.width === 16) view.setUint16(offset, Number(bits), true);
      else view.setUint8(offset, Number(bits));
      return;
    }
    default:
      throw new LayoutPackError(path, `expected a scalar type, the layout has ${typeName(types, type)}`);
  }
}

/**
 * A float's raw IEEE 754 bits as a host dump prints them: "0x" and exactly width/4 hex digits
 * ("0x3f800000" is 1.0f). Any other string is not raw bits.
 */
function rawFloatBits(text: string, width: number): bigint | undefined {
  const m = /^0[xX]([0-9a-fA-F]+)$/.exec(text);
  return m && m[1]!.length === width / 4 ? BigInt(text) : undefined;
}

/** A C99 hex-float literal (printf "%a"): "0x1.8p+1" is 3, "-0x1p-3" is -0.125. */
function hexFloat(text: string): number | undefined {
  const m = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const frac = m[3] ?? '';
  const mantissa = parseInt((m[2] || '0') + frac, 16);
  const v = mantissa * 2 ** (Number(m[4]) - 4 * frac.length);
  return m[1] === '-' ? -v : v;
}

/** Integer value in range for its width and signedness; 64-bit ones may be bigint or strings. */
function toBigInt(value: unknown, width: number, signed: boolean, path: string, opts: PackOptions): bigint {
  const what = `${signed ? 'i' : 'u'}${width}`;
  let big: bigint | undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) big = BigInt(value);
  else if (typeof value === 'bigint') big = value;
  else if (typeof value === 'string' && /^(-?[0-9]+|0x[0-9a-fA-F]+)$/.test(value)) big = BigInt(value);
  else if (opts.resolveAddress && width === 64) big = opts.resolveAddress(value, path);
  if (big === undefined) throw new LayoutPackError(path, `expected an integer for ${what}, found ${describe(value)}`);
  const min = signed ? -(1n << BigInt(width - 1)) : 0n;
  const max = signed ? (1n << BigInt(width - 1)) - 1n : (1n << BigInt(width)) - 1n;
  if (big < min || big > max) throw new LayoutPackError(path, `${big} does not fit in ${what}`);
  return big;
}

function matrixColumns(value: unknown, columns: number, rows: number, path: string, what: string): unknown[][] {
  if (Array.isArray(value) && value.length === columns * rows && value.every((x) => !Array.isArray(x))) {
    return Array.from({ length: columns }, (_, c) => value.slice(c * rows, c * rows + rows));
  }
  if (Array.isArray(value) && value.length === columns && value.every((col) => Array.isArray(col) && col.length === rows)) {
    return value as unknown[][];
  }
  throw new LayoutPackError(path, `expected ${columns} columns of ${rows} numbers (or ${columns * rows} numbers column-major) for ${what}, found ${describe(value)}`);
}

function expectArray(value: unknown, length: number, path: string, what: string): unknown[] {
  if (Array.isArray(value) && value.length === length) return value;
  throw new LayoutPackError(path, `expected an array of ${length} for ${what}, found ${describe(value)}`);
}

function scalarSize(types: TypeTable, scalar: TypeId): number {
  const t = typeOf(types, scalar);
  if (t.kind === 'bool') return 4;
  if (t.kind === 'int' || t.kind === 'float') return t.width / 8;
  throw new LayoutPackError('', `${typeName(types, scalar)} is not a scalar`);
}

/** Stride for arrays declared without one (outside explicit layout): tight scalars and vectors only. */
function naturalStride(types: TypeTable, elem: TypeId, path: string): number {
  const t = typeOf(types, elem);
  if (t.kind === 'bool' || t.kind === 'int' || t.kind === 'float') return scalarSize(types, elem);
  if (t.kind === 'vector') return scalarSize(types, t.elem) * t.count;
  throw new LayoutPackError(path, `array of ${typeName(types, elem)} has no stride (not in an explicitly laid out block)`);
}

function checkRange(view: DataView, offset: number, size: number, path: string): void {
  if (offset < 0 || offset + size > view.byteLength) {
    throw new LayoutPackError(path, `bytes ${offset}..${offset + size} lie outside the ${view.byteLength}-byte buffer`);
  }
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'bigint') return `${v}n`;
  const text = JSON.stringify(v);
  return text.length > 40 ? text.slice(0, 37) + '...' : text;
}

/** IEEE 754 binary16 bits of `x`, rounded to nearest even. */
export { floatToHalf as float16Bits };

/**
 * Bytes a value of `type` occupies under its layout (the end of its last member, unpadded);
 * a runtime array counts `runtimeLength` elements.
 */
export function layoutSize(types: TypeTable, type: TypeId, runtimeLength = 0, matrix: MatrixLayout = {}): number {
  const t = typeOf(types, type);
  switch (t.kind) {
    case 'bool':
      return 4;
    case 'int':
    case 'float':
      return t.width / 8;
    case 'vector':
      return scalarSize(types, t.elem) * t.count;
    case 'matrix': {
      const column = typeOf(types, t.column);
      const rows = column.kind === 'vector' ? column.count : 1;
      const scalar = scalarSize(types, column.kind === 'vector' ? column.elem : t.column);
      const stride = matrix.matrixStride ?? (matrix.rowMajor ? t.columns : rows) * scalar;
      return matrix.rowMajor ? stride * (rows - 1) + t.columns * scalar : stride * (t.columns - 1) + rows * scalar;
    }
    case 'array':
    case 'runtimeArray': {
      const n = t.kind === 'array' ? t.length : runtimeLength;
      if (n === 0) return 0;
      const stride = t.stride ?? naturalStride(types, t.elem, '');
      return stride * (n - 1) + layoutSize(types, t.elem, 0, matrix);
    }
    case 'struct': {
      let end = 0;
      for (const m of t.members) {
        const layout: MatrixLayout = {};
        if (m.matrixStride !== undefined) layout.matrixStride = m.matrixStride;
        if (m.rowMajor) layout.rowMajor = true;
        end = Math.max(end, (m.offset ?? 0) + layoutSize(types, m.type, runtimeLength, layout));
      }
      return end;
    }
    case 'pointer':
      return 8;
    default:
      throw new LayoutPackError('', `${typeName(types, type)} has no memory layout`);
  }
}

/**
 * Overwrites single members of an already packed block: `members` maps a dotted member path
 * (`"Camera.Width"`, `"Lights.0.color"` for an array element) to its JSON value. A first path
 * component that is not a member of `block` is looked up inside the block's only member when that
 * member is a struct (`uniform U { UniformBufferObject Camera; }` accepts `"Width"`).
 * Invariant: only the bytes of the named members change; an unknown path is a LayoutPackError.
 */
export function packMembers(
  view: DataView, block: TypeId, types: TypeTable, members: Record<string, unknown>, path: string, options: PackOptions = {},
): void {
  for (const [name, value] of Object.entries(members)) {
    const at = memberAt(types, block, name.split('.'), `${path}.${name}`);
    pack(view, at.offset, at.type, types, value, `${path}.${name}`, options, at.matrix);
  }
}

function memberAt(types: TypeTable, block: TypeId, parts: string[], path: string): { offset: number; type: TypeId; matrix: MatrixLayout } {
  let type = block;
  let offset = 0;
  let matrix: MatrixLayout = {};
  const top = typeOf(types, block);
  if (top.kind === 'struct' && top.members.length === 1 && !top.members.some((m) => m.name === parts[0])) {
    const only = top.members[0]!;
    if (typeOf(types, only.type).kind === 'struct') parts = [only.name, ...parts];
  }
  for (const part of parts) {
    const t = typeOf(types, type);
    if (t.kind === 'struct') {
      const m = t.members.find((x) => x.name === part);
      if (!m || m.offset === undefined) {
        throw new LayoutPackError(path, `no member '${part}' in ${t.name} (members: ${t.members.map((x) => x.name).join(', ')})`);
      }
      offset += m.offset;
      type = m.type;
      matrix = { ...(m.matrixStride !== undefined ? { matrixStride: m.matrixStride } : {}), ...(m.rowMajor ? { rowMajor: true } : {}) };
    } else if (t.kind === 'array' && /^\d+$/.test(part) && t.stride !== undefined) {
      const index = Number(part);
      if (t.length > 0 && index >= t.length) throw new LayoutPackError(path, `index ${index} out of range for ${typeName(types, type)}`);
      offset += index * t.stride;
      type = t.elem;
    } else {
      throw new LayoutPackError(path, `'${part}' does not name a member of ${typeName(types, type)}`);
    }
  }
  return { offset, type, matrix };
}
