/**
 * IEEE 754 binary16 <-> number conversions (round to nearest, ties to even), the one copy the
 * simulator uses for f16 texels, packHalf2x16 / unpackHalf2x16 and float16_t buffer members.
 * (DataView.setFloat16 is not in Node 20.)
 */
const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);

/** f16 bits -> value. */
export function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

/** Round-to-nearest-even f32 -> f16 bits. */
export function floatToHalf(x: number): number {
  f32Scratch[0] = x;
  const b = u32Scratch[0]!;
  const sign = (b >>> 16) & 0x8000;
  const e = (b >>> 23) & 0xff;
  let m = b & 0x7fffff;
  if (e === 0xff) return sign | 0x7c00 | (m ? 0x200 : 0);
  const he = e - 127 + 15;
  if (he >= 31) return sign | 0x7c00;
  if (he <= 0) {
    if (he < -10) return sign;
    m |= 0x800000;
    const shift = 14 - he;
    const half = 1 << (shift - 1);
    let r = m >>> shift;
    const rem = m & ((1 << shift) - 1);
    if (rem > half || (rem === half && (r & 1))) r++;
    return sign | r;
  }
  let r = (he << 10) | (m >>> 13);
  const rem = m & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (r & 1))) r++;
  return sign | r;
}

