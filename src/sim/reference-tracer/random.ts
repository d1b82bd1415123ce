/**
 * The workloads' random numbers (workloads/common/random.glsl) in plain TypeScript: TEA-hashed
 * initial state per (pixel, sample, seed) and a PCG step per draw. All integer arithmetic is
 * 32-bit unsigned (Math.imul, >>> 0) so the stream is bit-identical to the shader's.
 *
 * Invariant: `RandomState.state` is always a uint32; every draw advances it exactly as one
 * `pcgNext` call in the shader does, so callers must draw in the shader's order.
 */
export interface RandomState {
  state: number;
}

export function tea(val0: number, val1: number): number {
  let v0 = val0 >>> 0;
  let v1 = val1 >>> 0;
  let s0 = 0;
  for (let n = 0; n < 16; n++) {
    s0 = (s0 + 0x9e3779b9) >>> 0;
    v0 = (v0 + ((((v1 << 4) + 0xa341316c) >>> 0) ^ ((v1 + s0) >>> 0) ^ (((v1 >>> 5) + 0xc8013ea4) >>> 0))) >>> 0;
    v1 = (v1 + ((((v0 << 4) + 0xad90777d) >>> 0) ^ ((v0 + s0) >>> 0) ^ (((v0 >>> 5) + 0x7e95761e) >>> 0))) >>> 0;
  }
  return v0;
}

export function initRandom(px: number, py: number, width: number, sampleIndex: number, seed: number): RandomState {
  const pixelIndex = (Math.imul(py, width) + px) >>> 0;
  return { state: tea(pixelIndex, (Math.imul(sampleIndex, 0x9e3779b9) + seed) >>> 0) };
}

export function pcgNext(r: RandomState): number {
  r.state = (Math.imul(r.state, 747796405) + 2891336453) >>> 0;
  const s = r.state;
  const word = Math.imul(((s >>> (((s >>> 28) + 4) & 31)) ^ s) >>> 0, 277803737) >>> 0;
  return ((word >>> 22) ^ word) >>> 0;
}

/** Uniform in [0, 1): the top 24 bits, exact in f32. */
export function rnd(r: RandomState): number {
  return (pcgNext(r) >>> 8) * (1 / 16777216);
}

const bits = new Uint32Array(1);
const asFloat = new Float32Array(bits.buffer);

/** 23 random mantissa bits under the exponent of 1.0, minus 1. */
export function rndFast(r: RandomState): number {
  bits[0] = 0x3f800000 | ((pcgNext(r) >>> 9) & 0x7fffff);
  return Math.fround(asFloat[0]! - 1);
}

/** rnd2: x is drawn before y. */
export function rnd2(r: RandomState): [number, number] {
  const x = rnd(r);
  return [x, rnd(r)];
}
