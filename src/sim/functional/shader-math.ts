/**
 * Runtime math library the generated code calls for operations that are more than one JS
 * expression: integer division semantics, float<->int conversion with GPU saturation, bit
 * reinterpretation, GLSL.std.450 helpers, pack/unpack, bitfield ops, small matrix inverses.
 *
 * Choices (documented once, relied on by tests):
 * - Float results are rounded to f32 (`Math.fround`) after every operation; round() rounds half to
 *   even (as NVIDIA's cvt.rni does); min/max return the non-NaN operand (fmin/fmax semantics).
 * - f32 -> int conversion truncates toward zero and saturates; NaN becomes 0 (PTX cvt.rzi.sat).
 * - Integer division or remainder by zero yields 0 (undefined in GLSL; no trap on GPUs).
 */
import { floatToHalf, halfToFloat } from './images.js';

const f32 = new Float32Array(2);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u32of64 = new Uint32Array(f64.buffer);
const TWO32 = 4294967296;

const fr = Math.fround;

export const shaderMath = {
  sdiv(a: number, b: number): number {
    return b === 0 ? 0 : (a / b) | 0;
  },
  udiv(a: number, b: number): number {
    return b === 0 ? 0 : Math.floor(a / b) >>> 0;
  },
  srem(a: number, b: number): number {
    return b === 0 ? 0 : (a % b) | 0;
  },
  urem(a: number, b: number): number {
    return b === 0 ? 0 : (a % b) >>> 0;
  },
  /** GLSL mod / SPIR-V SMod: sign of the divisor. */
  smod(a: number, b: number): number {
    if (b === 0) return 0;
    const r = a % b;
    return (r !== 0 && (r < 0) !== (b < 0) ? r + b : r) | 0;
  },
  /** GLSL mod(x, y) = x - y * floor(x / y), each step in f32. */
  fmod(a: number, b: number): number {
    return fr(a - fr(b * Math.floor(fr(a / b))));
  },
  f2i(x: number): number {
    if (x !== x) return 0;
    if (x >= 2147483647) return 2147483647;
    if (x <= -2147483648) return -2147483648;
    return Math.trunc(x) | 0;
  },
  f2u(x: number): number {
    if (x !== x || x <= 0) return 0;
    if (x >= 4294967295) return 4294967295;
    return Math.trunc(x) >>> 0;
  },
  lo32u(x: number): number {
    return ((x % TWO32) + TWO32) % TWO32;
  },
  lo32i(x: number): number {
    return shaderMath.lo32u(x) | 0;
  },
  hi32u(x: number): number {
    return Math.floor(x / TWO32) >>> 0;
  },
  /** Bits of an f32 as uint32. */
  fbits(x: number): number {
    f32[0] = x;
    return u32[0]!;
  },
  /** uint32/int32 bits as f32. */
  bitsf(x: number): number {
    u32[0] = x;
    return f32[0]!;
  },
  f64bits(x: number): [number, number] {
    f64[0] = x;
    return [u32of64[0]!, u32of64[1]!];
  },
  bitsf64(lo: number, hi: number): number {
    u32of64[0] = lo;
    u32of64[1] = hi;
    return f64[0]!;
  },
  roundEven(x: number): number {
    const r = Math.round(x);
    return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
  },
  fmin(a: number, b: number): number {
    return a !== a ? b : b !== b ? a : a < b ? a : b;
  },
  fmax(a: number, b: number): number {
    return a !== a ? b : b !== b ? a : a > b ? a : b;
  },
  fsign(x: number): number {
    return x > 0 ? 1 : x < 0 ? -1 : x;
  },
  smoothstep(e0: number, e1: number, x: number): number {
    const t = Math.min(Math.max(fr(fr(x - e0) / fr(e1 - e0)), 0), 1);
    return fr(fr(t * t) * fr(3 - fr(2 * t)));
  },
  toHalfPrecision(x: number): number {
    return halfToFloat(floatToHalf(x));
  },
  findLSB(x: number): number {
    x >>>= 0;
    return x === 0 ? -1 : 31 - Math.clz32(x & -x);
  },
  findUMSB(x: number): number {
    x >>>= 0;
    return x === 0 ? -1 : 31 - Math.clz32(x);
  },
  findSMSB(x: number): number {
    x |= 0;
    if (x < 0) x = ~x;
    return x === 0 ? -1 : 31 - Math.clz32(x);
  },
  bitCount(x: number): number {
    x >>>= 0;
    x = x - ((x >>> 1) & 0x55555555);
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
  },
  bitfieldReverse(x: number): number {
    let r = 0;
    for (let i = 0; i < 32; i++) r |= ((x >>> i) & 1) << (31 - i);
    return r;
  },
  bitfieldExtractU(v: number, off: number, count: number): number {
    if (count === 0) return 0;
    const mask = count >= 32 ? 0xffffffff : (1 << count) - 1;
    return ((v >>> off) & mask) >>> 0;
  },
  bitfieldExtractS(v: number, off: number, count: number): number {
    if (count === 0) return 0;
    const sh = 32 - count - off;
    return ((v << sh) >> (32 - count)) | 0;
  },
  bitfieldInsert(base: number, ins: number, off: number, count: number): number {
    if (count === 0) return base;
    const mask = (count >= 32 ? 0xffffffff : ((1 << count) - 1) << off) >>> 0;
    return ((base & ~mask) | ((ins << off) & mask)) >>> 0;
  },
  packUnorm4x8(a: number, b: number, c: number, d: number): number {
    const q = (x: number) => Math.round(Math.min(Math.max(x, 0), 1) * 255);
    return (q(a) | (q(b) << 8) | (q(c) << 16) | (q(d) << 24)) >>> 0;
  },
  packSnorm4x8(a: number, b: number, c: number, d: number): number {
    const q = (x: number) => Math.round(Math.min(Math.max(x, -1), 1) * 127) & 0xff;
    return (q(a) | (q(b) << 8) | (q(c) << 16) | (q(d) << 24)) >>> 0;
  },
  packUnorm2x16(a: number, b: number): number {
    const q = (x: number) => Math.round(Math.min(Math.max(x, 0), 1) * 65535);
    return (q(a) | (q(b) << 16)) >>> 0;
  },
  packSnorm2x16(a: number, b: number): number {
    const q = (x: number) => Math.round(Math.min(Math.max(x, -1), 1) * 32767) & 0xffff;
    return (q(a) | (q(b) << 16)) >>> 0;
  },
  packHalf2x16(a: number, b: number): number {
    return (floatToHalf(a) | (floatToHalf(b) << 16)) >>> 0;
  },
  unpackUnorm4x8(p: number): number[] {
    return [0, 8, 16, 24].map((s) => fr(((p >>> s) & 0xff) / 255));
  },
  unpackSnorm4x8(p: number): number[] {
    return [0, 8, 16, 24].map((s) => fr(Math.max((((p >>> s) & 0xff) << 24 >> 24) / 127, -1)));
  },
  unpackUnorm2x16(p: number): number[] {
    return [0, 16].map((s) => fr(((p >>> s) & 0xffff) / 65535));
  },
  unpackSnorm2x16(p: number): number[] {
    return [0, 16].map((s) => fr(Math.max((((p >>> s) & 0xffff) << 16 >> 16) / 32767, -1)));
  },
  unpackHalf2x16(p: number): number[] {
    return [halfToFloat(p & 0xffff), halfToFloat(p >>> 16)];
  },
  /** frexp: [mantissa in [0.5, 1), exponent]. */
  frexp(x: number): [number, number] {
    if (x === 0 || !Number.isFinite(x)) return [x, 0];
    let e = Math.ceil(Math.log2(Math.abs(x)));
    let m = x / 2 ** e;
    if (Math.abs(m) >= 1) { m /= 2; e++; }
    if (Math.abs(m) < 0.5) { m *= 2; e--; }
    return [fr(m), e];
  },
  /** Column-major n x n determinant. */
  determinant(m: number[], n: number): number {
    if (n === 2) return fr(m[0]! * m[3]! - m[2]! * m[1]!);
    if (n === 3) {
      return fr(
        m[0]! * (m[4]! * m[8]! - m[7]! * m[5]!) - m[3]! * (m[1]! * m[8]! - m[7]! * m[2]!) + m[6]! * (m[1]! * m[5]! - m[4]! * m[2]!),
      );
    }
    let det = 0;
    for (let c = 0; c < 4; c++) det += (c % 2 ? -1 : 1) * m[c * 4]! * shaderMath.determinant(minor(m, 4, 0, c), 3);
    return fr(det);
  },
  /** Column-major n x n inverse (adjugate / determinant). */
  inverse(m: number[], n: number): number[] {
    const det = shaderMath.determinant(m, n);
    const out: number[] = new Array(n * n);
    for (let c = 0; c < n; c++) {
      for (let r = 0; r < n; r++) {
        // inverse[c][r] = cofactor(r, c) / det (transpose of the cofactor matrix)
        const cof = n === 2 ? m[(1 - r) * 2 + (1 - c)]! : shaderMath.determinant(minor(m, n, c, r), n - 1);
        out[c * n + r] = fr((((r + c) % 2 ? -1 : 1) * cof) / det);
      }
    }
    return out;
  },
  /** Reinterprets leaves (kinds 'f32' | 'i32' | 'u32' | 'u64' | 'i64' | 'f64') as other leaves of the same total width. */
  bitcastLeaves(from: string[], to: string[], vals: number[]): number[] {
    const words: number[] = [];
    from.forEach((k, i) => {
      const v = vals[i]!;
      if (k === 'f32') words.push(shaderMath.fbits(v));
      else if (k === 'u64' || k === 'i64' || k === 'ptr') words.push(shaderMath.lo32u(v), shaderMath.hi32u(v));
      else if (k === 'f64') words.push(...shaderMath.f64bits(v));
      else words.push(v >>> 0);
    });
    const out: number[] = [];
    let w = 0;
    for (const k of to) {
      if (k === 'f32') out.push(shaderMath.bitsf(words[w++]!));
      else if (k === 'i32') out.push(words[w++]! | 0);
      else if (k === 'u64' || k === 'ptr') out.push(words[w]! + words[w + 1]! * TWO32), (w += 2);
      else if (k === 'i64') out.push(words[w]! + (words[w + 1]! | 0) * TWO32), (w += 2);
      else if (k === 'f64') out.push(shaderMath.bitsf64(words[w]!, words[w + 1]!)), (w += 2);
      else out.push(words[w++]! >>> 0);
    }
    return out;
  },
};

/** Column-major minor without row `row` and column `col`. */
function minor(m: number[], n: number, row: number, col: number): number[] {
  const out: number[] = [];
  for (let c = 0; c < n; c++) {
    if (c === col) continue;
    for (let r = 0; r < n; r++) if (r !== row) out.push(m[c * n + r]!);
  }
  return out;
}

export type ShaderMath = typeof shaderMath;
