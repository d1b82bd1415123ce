/**
 * Storage images and sampled textures: texel formats, texel read/write with format conversion,
 * nearest and bilinear filtering with repeat / mirrored-repeat / clamp-to-edge wrapping.
 *
 * Invariants: a level's `data` holds width*height*depth*layers texels of `channels(format)`
 * components, tightly packed, x fastest, then y, z, layer. Reads return 4 components with the
 * missing ones filled as (0, 0, 0, 1), the way Vulkan expands formats. Filtering is done in double
 * precision and rounded to f32 at the end (no 8-bit fixed-point weights like real texture units).
 * Explicit LOD picks the nearest mip level (no trilinear blending); implicit LOD (texture() in RT
 * stages) is LOD 0 (+ bias); textureGrad derives the LOD from the gradients. Cube maps are 2D
 * images with 6 layers per cube (+X, -X, +Y, -Y, +Z, -Z) and filter within a face (not seamless).
 */
import { SimError } from './errors.js';
import { floatToHalf, halfToFloat } from '../half-float.js';

export type TexelFormat =
  | 'rgba8' | 'rgba8_snorm' | 'rgba8ui' | 'rgba8i' | 'rg8' | 'r8'
  | 'rgba16f' | 'rg16f' | 'r16f'
  | 'rgba32f' | 'rg32f' | 'r32f'
  | 'rgba32ui' | 'rg32ui' | 'r32ui'
  | 'rgba32i' | 'rg32i' | 'r32i';

type Storage = 'unorm8' | 'snorm8' | 'u8' | 'i8' | 'f16' | 'f32' | 'u32' | 'i32';

interface FormatInfo {
  channels: number;
  storage: Storage;
}

const FORMATS: Record<TexelFormat, FormatInfo> = {
  rgba8: { channels: 4, storage: 'unorm8' },
  rgba8_snorm: { channels: 4, storage: 'snorm8' },
  rgba8ui: { channels: 4, storage: 'u8' },
  rgba8i: { channels: 4, storage: 'i8' },
  rg8: { channels: 2, storage: 'unorm8' },
  r8: { channels: 1, storage: 'unorm8' },
  rgba16f: { channels: 4, storage: 'f16' },
  rg16f: { channels: 2, storage: 'f16' },
  r16f: { channels: 1, storage: 'f16' },
  rgba32f: { channels: 4, storage: 'f32' },
  rg32f: { channels: 2, storage: 'f32' },
  r32f: { channels: 1, storage: 'f32' },
  rgba32ui: { channels: 4, storage: 'u32' },
  rg32ui: { channels: 2, storage: 'u32' },
  r32ui: { channels: 1, storage: 'u32' },
  rgba32i: { channels: 4, storage: 'i32' },
  rg32i: { channels: 2, storage: 'i32' },
  r32i: { channels: 1, storage: 'i32' },
};

export function isTexelFormat(s: string): s is TexelFormat {
  return Object.prototype.hasOwnProperty.call(FORMATS, s);
}

export type TexelData = Uint8Array | Int8Array | Uint16Array | Float32Array | Uint32Array | Int32Array;

export interface ImageLevel {
  width: number;
  height: number;
  depth: number;
  data: TexelData;
}

export type WrapMode = 'repeat' | 'mirroredRepeat' | 'clampToEdge';
export type FilterMode = 'nearest' | 'linear';

export interface SamplerState {
  filter: FilterMode;
  wrapU: WrapMode;
  wrapV: WrapMode;
  wrapW: WrapMode;
}

export const DEFAULT_SAMPLER: SamplerState = { filter: 'linear', wrapU: 'repeat', wrapV: 'repeat', wrapW: 'repeat' };

export interface SimImage {
  format: TexelFormat;
  layers: number;
  /** levels[0] is the base level. */
  levels: ImageLevel[];
  /** Byte address of texel (0,0,0) of level 0 in the simulated address space (for the timing model). */
  address: number;
  /** Sampler used when the shader samples it as a combined image sampler. */
  sampler?: SamplerState;
}

export function formatInfo(f: TexelFormat): FormatInfo {
  return FORMATS[f];
}

function allocData(storage: Storage, n: number): TexelData {
  switch (storage) {
    case 'unorm8':
    case 'u8':
      return new Uint8Array(n);
    case 'snorm8':
    case 'i8':
      return new Int8Array(n);
    case 'f16':
      return new Uint16Array(n);
    case 'f32':
      return new Float32Array(n);
    case 'u32':
      return new Uint32Array(n);
    case 'i32':
      return new Int32Array(n);
  }
}

function storageBytes(s: Storage): number {
  return s === 'f16' ? 2 : s === 'f32' || s === 'u32' || s === 'i32' ? 4 : 1;
}

export function texelBytes(f: TexelFormat): number {
  const fi = FORMATS[f];
  return fi.channels * storageBytes(fi.storage);
}

/** A zero-filled image with `levels` mip levels (each half the previous, at least 1). */
export function createImage(
  format: TexelFormat,
  width: number,
  height = 1,
  opts: { depth?: number; layers?: number; levels?: number; address?: number; sampler?: SamplerState } = {},
): SimImage {
  const fi = FORMATS[format];
  const layers = opts.layers ?? 1;
  const levels: ImageLevel[] = [];
  let w = width;
  let h = height;
  let d = opts.depth ?? 1;
  for (let i = 0; i < (opts.levels ?? 1); i++) {
    levels.push({ width: w, height: h, depth: d, data: allocData(fi.storage, w * h * d * layers * fi.channels) });
    w = Math.max(1, w >> 1);
    h = Math.max(1, h >> 1);
    d = Math.max(1, d >> 1);
  }
  const img: SimImage = { format, layers, levels, address: opts.address ?? 0 };
  if (opts.sampler) img.sampler = opts.sampler;
  return img;
}

/** Total bytes of all levels (what the host reserves in the address space). */
export function imageBytes(img: SimImage): number {
  const fi = FORMATS[img.format];
  return img.levels.reduce((a, l) => a + l.data.length * storageBytes(fi.storage), 0);
}

export { floatToHalf, halfToFloat } from '../half-float.js';

function decode(storage: Storage, v: number): number {
  switch (storage) {
    case 'unorm8':
      return Math.fround(v / 255);
    case 'snorm8':
      return Math.fround(Math.max(v / 127, -1));
    case 'f16':
      return halfToFloat(v);
    default:
      return v;
  }
}

function encode(storage: Storage, v: number): number {
  switch (storage) {
    case 'unorm8':
      return Math.round(Math.min(Math.max(v, 0), 1) * 255);
    case 'snorm8':
      return Math.round(Math.min(Math.max(v, -1), 1) * 127);
    case 'f16':
      return floatToHalf(v);
    default:
      return v;
  }
}

function texelIndex(img: SimImage, lvl: ImageLevel, x: number, y: number, z: number, layer: number): number {
  return ((layer * lvl.depth + z) * lvl.height + y) * lvl.width + x;
}

function inBounds(img: SimImage, lvl: ImageLevel, x: number, y: number, z: number, layer: number): boolean {
  return x >= 0 && y >= 0 && z >= 0 && layer >= 0 && x < lvl.width && y < lvl.height && z < lvl.depth && layer < img.layers;
}

/** Reads texel (x, y, z|layer) of `level` into out[0..3]; false when outside the image. */
export function readTexel(img: SimImage, level: number, x: number, y: number, z: number, layer: number, out: Float64Array): boolean {
  const lvl = img.levels[level];
  if (!lvl || !inBounds(img, lvl, x, y, z, layer)) return false;
  const fi = FORMATS[img.format];
  const base = texelIndex(img, lvl, x, y, z, layer) * fi.channels;
  for (let c = 0; c < 4; c++) out[c] = c < fi.channels ? decode(fi.storage, lvl.data[base + c]!) : c === 3 ? 1 : 0;
  return true;
}

export function writeTexel(img: SimImage, x: number, y: number, z: number, layer: number, v: ArrayLike<number>): boolean {
  const lvl = img.levels[0]!;
  if (!inBounds(img, lvl, x, y, z, layer)) return false;
  const fi = FORMATS[img.format];
  const base = texelIndex(img, lvl, x, y, z, layer) * fi.channels;
  for (let c = 0; c < fi.channels; c++) lvl.data[base + c] = encode(fi.storage, v[c]!);
  return true;
}

/** Byte address of a texel of level 0, for the timing model. */
export function texelAddress(img: SimImage, x: number, y: number, z: number, layer: number): number {
  const lvl = img.levels[0]!;
  return img.address + texelIndex(img, lvl, x, y, z, layer) * texelBytes(img.format);
}

function wrap(i: number, n: number, mode: WrapMode): number {
  switch (mode) {
    case 'repeat':
      return ((i % n) + n) % n;
    case 'clampToEdge':
      return i < 0 ? 0 : i >= n ? n - 1 : i;
    case 'mirroredRepeat': {
      const p = ((i % (2 * n)) + 2 * n) % (2 * n);
      return p < n ? p : 2 * n - 1 - p;
    }
  }
}

const tap = new Float64Array(4);

/**
 * The level VK_SAMPLER_MIPMAP_MODE_NEAREST selects for LOD `lod` (minLod 0, no maxLod clamp, base
 * level 0): d = ceil(lod + 0.5) - 1 clamped to the image's levels, so LOD 0.5 is still level 0.
 * A LOD that is not a number, or not above 0, is level 0.
 */
export function nearestMipLevel(lod: number, levels: number): number {
  if (!(lod > 0)) return 0;
  return Math.min(Math.max(Math.ceil(lod + 0.5) - 1, 0), levels - 1);
}

/**
 * A copy of a 2D, one-layer image with its full mip chain down to 1x1: level k+1 texel (x, y) is
 * the average of level k's texels (2x..2x+1, 2y..2y+1) that exist (a side of 1 averages one), in
 * float, rounded back to the storage (8-bit: nearest integer). What `mipmaps: "generate"` uploads.
 */
export function withMipChain(img: SimImage): SimImage {
  const base = img.levels[0]!;
  if (base.depth !== 1 || img.layers !== 1) throw new SimError('unsupported', 'mip chains are generated for 2D images with one layer');
  const fi = FORMATS[img.format];
  const n = fi.channels;
  const toFloat = (v: number) => (fi.storage === 'f16' ? halfToFloat(v) : v);
  const fromFloat = (x: number) => {
    switch (fi.storage) {
      case 'f16': return floatToHalf(x);
      case 'f32': return Math.fround(x);
      default: return Math.round(x);
    }
  };
  const levels: ImageLevel[] = [base];
  let prev = base;
  while (prev.width > 1 || prev.height > 1) {
    const w = Math.max(1, prev.width >> 1);
    const h = Math.max(1, prev.height >> 1);
    const data = allocData(fi.storage, w * h * n);
    const sx = prev.width > 1 ? 2 : 1;
    const sy = prev.height > 1 ? 2 : 1;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        for (let c = 0; c < n; c++) {
          let sum = 0;
          for (let dy = 0; dy < sy; dy++) for (let dx = 0; dx < sx; dx++) sum += toFloat(prev.data[((y * sy + dy) * prev.width + (x * sx + dx)) * n + c]!);
          data[(y * w + x) * n + c] = fromFloat(sum / (sx * sy));
        }
      }
    }
    prev = { width: w, height: h, depth: 1, data };
    levels.push(prev);
  }
  return { ...img, levels };
}

/**
 * Samples level `lod` (the level nearestMipLevel selects) at normalized (u, v, w); `layer` selects the
 * array layer. Writes 4 components to `out`.
 */
export function sampleImage(img: SimImage, s: SamplerState, u: number, v: number, w: number, layer: number, lod: number, dims: number, out: Float64Array): void {
  const level = nearestMipLevel(lod, img.levels.length);
  const lvl = img.levels[level]!;
  const L = Math.min(Math.max(Math.round(layer), 0), img.layers - 1);
  if (s.filter === 'nearest') {
    const x = wrap(Math.floor(u * lvl.width), lvl.width, s.wrapU);
    const y = dims > 1 ? wrap(Math.floor(v * lvl.height), lvl.height, s.wrapV) : 0;
    const z = dims > 2 ? wrap(Math.floor(w * lvl.depth), lvl.depth, s.wrapW) : 0;
    readTexel(img, level, x, y, z, L, out);
    for (let c = 0; c < 4; c++) out[c] = Math.fround(out[c]!);
    return;
  }
  const fx = u * lvl.width - 0.5;
  const fy = dims > 1 ? v * lvl.height - 0.5 : 0;
  const fz = dims > 2 ? w * lvl.depth - 0.5 : 0;
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const z0 = Math.floor(fz);
  const ax = fx - x0;
  const ay = fy - y0;
  const az = fz - z0;
  const acc = [0, 0, 0, 0];
  const nz = dims > 2 ? 2 : 1;
  const ny = dims > 1 ? 2 : 1;
  for (let dz = 0; dz < nz; dz++) {
    for (let dy = 0; dy < ny; dy++) {
      for (let dx = 0; dx < 2; dx++) {
        const weight = (dx ? ax : 1 - ax) * (dims > 1 ? (dy ? ay : 1 - ay) : 1) * (dims > 2 ? (dz ? az : 1 - az) : 1);
        if (weight === 0) continue;
        const x = wrap(x0 + dx, lvl.width, s.wrapU);
        const y = dims > 1 ? wrap(y0 + dy, lvl.height, s.wrapV) : 0;
        const z = dims > 2 ? wrap(z0 + dz, lvl.depth, s.wrapW) : 0;
        readTexel(img, level, x, y, z, L, tap);
        for (let c = 0; c < 4; c++) acc[c]! += weight * tap[c]!;
      }
    }
  }
  for (let c = 0; c < 4; c++) out[c] = Math.fround(acc[c]!);
}

export function levelSize(img: SimImage, level: number): ImageLevel {
  const lvl = img.levels[level];
  if (!lvl) throw new SimError('outOfBounds', `mip level ${level} of an image with ${img.levels.length} levels`);
  return lvl;
}

/**
 * Cube map face and face coordinates of direction (x, y, z), per the Vulkan cube map face
 * selection table; `out` = [face, s, t] with s, t in [0, 1]. Filtering does not cross faces.
 */
export function cubeFace(x: number, y: number, z: number, out: Float64Array): void {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  const az = Math.abs(z);
  let face: number;
  let sc: number;
  let tc: number;
  let ma: number;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    sc = x >= 0 ? -z : z;
    tc = -y;
    ma = ax;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    sc = x;
    tc = y >= 0 ? z : -z;
    ma = ay;
  } else {
    face = z >= 0 ? 4 : 5;
    sc = z >= 0 ? x : -x;
    tc = -y;
    ma = az;
  }
  out[0] = face;
  out[1] = ma === 0 ? 0.5 : (sc / ma + 1) / 2;
  out[2] = ma === 0 ? 0.5 : (tc / ma + 1) / 2;
}
