/**
 * Texture files a manifest's sampler arrays name, decoded to texels as the application would
 * upload them: PNG (pngjs), JPEG (jpeg-js, baseline and progressive) and KTX2 (ktx-parse) in
 * uncompressed formats. Block-compressed KTX2 (BC, ETC, ASTC, PVRTC), Basis Universal (ETC1S /
 * UASTC) and Zstandard supercompression are not supported and say so; zlib supercompression is
 * inflated. Array layer 0 and face 0 are read; a KTX2 file's mip levels too (`mipLevels`), which
 * `mipmaps: "file"` samples.
 * Invariant: every failure is a ManifestError naming the manifest key and the file.
 *
 * Size: each side at most MAX_TEXTURE_DIMENSION and at most MAX_TEXTURE_TEXELS texels, read
 * from the file's header (PNG IHDR, JPEG SOF, KTX2 header) before anything is decoded or inflated:
 * a 20000x20000 PNG is refused in microseconds instead of decoding 1.6 GB.
 */
import { readFileSync, statSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import { read as readKtx2, KHR_SUPERCOMPRESSION_BASISLZ, KHR_SUPERCOMPRESSION_NONE, KHR_SUPERCOMPRESSION_ZLIB, KHR_SUPERCOMPRESSION_ZSTD } from 'ktx-parse';
import { PNG } from 'pngjs';
import { halfToFloat } from '../half-float.js';
import { ManifestError } from './manifest.js';

/** Largest side of a texture: Vulkan's maxImageDimension2D as AMD and Intel drivers give it (NVIDIA's is 32768). */
export const MAX_TEXTURE_DIMENSION = 16384;
/** Most texels of one texture: 8192x8192 (256 MiB decoded as RGBA8), the largest real scenes use. */
export const MAX_TEXTURE_TEXELS = 8192 * 8192;

/** The width and height a PNG, JPEG or KTX2 header declares, without decoding; undefined when the header is not there. */
function declaredSize(bytes: Buffer, kind: 'png' | 'jpeg' | 'ktx2'): { width: number; height: number } | undefined {
  if (kind === 'png') {
    if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (kind === 'ktx2') {
    // KTX2 header: identifier (12), vkFormat, typeSize, pixelWidth, pixelHeight (uint32 LE).
    if (bytes.length < 28) return undefined;
    return { width: bytes.readUInt32LE(20), height: Math.max(1, bytes.readUInt32LE(24)) };
  }
  // JPEG: walk the marker segments to the first start-of-frame (SOF0-3, 5-7, 9-11, 13-15).
  let at = 2;
  while (at + 9 < bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: bytes.readUInt16BE(at + 7), height: bytes.readUInt16BE(at + 5) };
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return undefined;
}

/** A ManifestError when the declared size is past the texture limits. */
function checkTextureSize(bytes: Buffer, kind: 'png' | 'jpeg' | 'ktx2', file: string, path: string): void {
  const size = declaredSize(bytes, kind);
  if (!size) return; // the decoder reports a broken header
  const { width, height } = size;
  if (width > MAX_TEXTURE_DIMENSION || height > MAX_TEXTURE_DIMENSION) {
    throw new ManifestError([`${path}: ${file} is ${width}x${height}: a side over ${MAX_TEXTURE_DIMENSION} texels, vvision's limit (Vulkan's maxImageDimension2D on AMD and Intel GPUs)`]);
  }
  if (width * height > MAX_TEXTURE_TEXELS) {
    throw new ManifestError([`${path}: ${file} is ${width}x${height} = ${width * height} texels, over vvision's limit of ${MAX_TEXTURE_TEXELS} (8192x8192) per texture`]);
  }
}

/** File names a sampler array element may have. */
export const TEXTURE_FILE = /\.(png|jpe?g|ktx2)$/i;

/**
 * Decoded texels: 8-bit RGBA (UNORM) or 32-bit float RGBA, row 0 first; `mipLevels`: a KTX2 file's
 * levels 1.. (each half the one above, at least 1), in the same format.
 */
export type DecodedTexture =
  | { format: 'rgba8'; width: number; height: number; texels: Uint8Array; mipLevels?: { width: number; height: number; texels: Uint8Array }[] }
  | { format: 'rgba32f'; width: number; height: number; texels: Float32Array; mipLevels?: { width: number; height: number; texels: Float32Array }[] };

/**
 * Decoded files by path, size and modification time: the runs of one workload (`instrument
 * --mode all`, sweeps in one process) decode each texture once. Callers copy the texels.
 */
const decoded = new Map<string, DecodedTexture>();
const CACHE_BYTES = 256 * 1024 * 1024;
let cachedBytes = 0;

export function decodeTextureFile(file: string, path: string): DecodedTexture {
  let bytes: Buffer;
  let stamp: string;
  try {
    const st = statSync(file);
    stamp = `${file}\0${st.size}\0${st.mtimeMs}`;
    const hit = decoded.get(stamp);
    if (hit) return hit;
    bytes = readFileSync(file);
  } catch (e) {
    throw new ManifestError([`${path}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`]);
  }
  const t = decodeTextureBytes(bytes, file, undefined, path);
  if (t.texels.byteLength <= CACHE_BYTES) {
    // Oldest first out until the new one fits.
    for (const [k, v] of decoded) {
      if (cachedBytes + t.texels.byteLength <= CACHE_BYTES) break;
      decoded.delete(k);
      cachedBytes -= v.texels.byteLength;
    }
    decoded.set(stamp, t);
    cachedBytes += t.texels.byteLength;
  }
  return t;
}

/**
 * Encoded image bytes (a file's, or an image embedded in a glTF) -> texels. The format comes from
 * `mimeType` when given (image/png, image/jpeg, image/ktx2), else from `label`'s extension.
 */
export function decodeTextureBytes(bytes: Uint8Array, label: string, mimeType: string | undefined, path: string): DecodedTexture {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = mimeType === 'image/png' ? 'png' : mimeType === 'image/jpeg' ? 'jpeg' : mimeType === 'image/ktx2' ? 'ktx2'
    : /\.png$/i.test(label) ? 'png' : /\.jpe?g$/i.test(label) ? 'jpeg' : /\.ktx2$/i.test(label) ? 'ktx2' : undefined;
  if (kind !== undefined) checkTextureSize(buf, kind, label, path);
  if (kind === 'png') return decodePng(buf, label, path);
  if (kind === 'jpeg') return decodeJpeg(buf, label, path);
  if (kind === 'ktx2') return decodeKtx2(buf, label, path);
  throw new ManifestError([`${path}: ${label}: expected a PNG, JPEG or KTX2 image${mimeType ? `, found ${mimeType}` : ''}`]);
}

function decodePng(bytes: Buffer, file: string, path: string): DecodedTexture {
  try {
    const png = PNG.sync.read(bytes);
    return { format: 'rgba8', width: png.width, height: png.height, texels: new Uint8Array(png.data) };
  } catch (e) {
    throw new ManifestError([`${path}: cannot read PNG ${file}: ${(e as Error).message}`]);
  }
}

function decodeJpeg(bytes: Buffer, file: string, path: string): DecodedTexture {
  try {
    // 8192x8192 textures exist in real scenes; jpeg-js's defaults (100 MP, 512 MB) allow them.
    const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
    return { format: 'rgba8', width: img.width, height: img.height, texels: img.data };
  } catch (e) {
    throw new ManifestError([`${path}: cannot read JPEG ${file}: ${e instanceof Error ? e.message : String(e)}`]);
  }
}

/** VkFormat -> how its texels become RGBA. Only formats a host uploads without a transcoder. */
const KTX2_FORMATS: Record<number, { name: string; channels: number; bytes: 1 | 2 | 4; swapRB?: boolean }> = {
  9: { name: 'R8_UNORM', channels: 1, bytes: 1 },
  15: { name: 'R8_SRGB', channels: 1, bytes: 1 },
  16: { name: 'R8G8_UNORM', channels: 2, bytes: 1 },
  22: { name: 'R8G8_SRGB', channels: 2, bytes: 1 },
  23: { name: 'R8G8B8_UNORM', channels: 3, bytes: 1 },
  29: { name: 'R8G8B8_SRGB', channels: 3, bytes: 1 },
  37: { name: 'R8G8B8A8_UNORM', channels: 4, bytes: 1 },
  43: { name: 'R8G8B8A8_SRGB', channels: 4, bytes: 1 },
  44: { name: 'B8G8R8A8_UNORM', channels: 4, bytes: 1, swapRB: true },
  50: { name: 'B8G8R8A8_SRGB', channels: 4, bytes: 1, swapRB: true },
  76: { name: 'R16_SFLOAT', channels: 1, bytes: 2 },
  83: { name: 'R16G16_SFLOAT', channels: 2, bytes: 2 },
  97: { name: 'R16G16B16A16_SFLOAT', channels: 4, bytes: 2 },
  100: { name: 'R32_SFLOAT', channels: 1, bytes: 4 },
  103: { name: 'R32G32_SFLOAT', channels: 2, bytes: 4 },
  106: { name: 'R32G32B32_SFLOAT', channels: 3, bytes: 4 },
  109: { name: 'R32G32B32A32_SFLOAT', channels: 4, bytes: 4 },
};

/** Names of the supported KTX2 formats, for messages and docs. */
export const KTX2_SUPPORTED_FORMATS = Object.values(KTX2_FORMATS).map((f) => f.name);

function compressedFamily(vkFormat: number): string | undefined {
  if (vkFormat >= 131 && vkFormat <= 146) return 'BC (S3TC / RGTC / BPTC)';
  if (vkFormat >= 147 && vkFormat <= 156) return 'ETC2 / EAC';
  if ((vkFormat >= 157 && vkFormat <= 184) || (vkFormat >= 1000066000 && vkFormat <= 1000066013)) return 'ASTC';
  if (vkFormat >= 1000054000 && vkFormat <= 1000054007) return 'PVRTC';
  return undefined;
}

function decodeKtx2(bytes: Buffer, file: string, path: string): DecodedTexture {
  const fail = (why: string): never => {
    throw new ManifestError([`${path}: ${file}: ${why}`]);
  };
  let ktx: ReturnType<typeof readKtx2>;
  try {
    ktx = readKtx2(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (e) {
    return fail(`not a valid KTX2 file (${e instanceof Error ? e.message : String(e)})`);
  }
  const scheme = ktx.supercompressionScheme;
  if (scheme === KHR_SUPERCOMPRESSION_BASISLZ || (ktx.vkFormat === 0 && scheme !== KHR_SUPERCOMPRESSION_NONE && scheme !== KHR_SUPERCOMPRESSION_ZLIB)) {
    fail('Basis Universal (ETC1S / BasisLZ) textures need a transcoder and are not supported; convert to an uncompressed format (e.g. `toktx --t2 --target_type RGBA`)');
  }
  if (ktx.vkFormat === 0) fail('Basis Universal (UASTC) or undefined-format textures need a transcoder and are not supported; convert to an uncompressed format');
  if (scheme === KHR_SUPERCOMPRESSION_ZSTD) fail('Zstandard supercompression is not supported (Node 20 has no zstd); write the file with zlib or no supercompression');
  const family = compressedFamily(ktx.vkFormat);
  if (family) fail(`block-compressed ${family} format (VkFormat ${ktx.vkFormat}) is not supported; supported: ${KTX2_SUPPORTED_FORMATS.join(', ')}`);
  const format = KTX2_FORMATS[ktx.vkFormat];
  if (!format) fail(`VkFormat ${ktx.vkFormat} is not supported; supported: ${KTX2_SUPPORTED_FORMATS.join(', ')}`);
  const f = format!;
  if (ktx.pixelDepth > 1) fail('3D textures are not supported (pixelDepth > 1)');
  if (ktx.levels.length === 0) fail('has no mip levels');
  const decodeLevel = (k: number): { width: number; height: number; texels: Uint8Array | Float32Array } => {
    let data = ktx.levels[k]!.levelData;
    if (scheme === KHR_SUPERCOMPRESSION_ZLIB) {
      try {
        // The header's size passed checkTextureSize: no level can honestly inflate past level 0's bound.
        data = new Uint8Array(inflateSync(data, { maxOutputLength: MAX_TEXTURE_TEXELS * 16 * Math.max(1, ktx.layerCount) * ktx.faceCount }));
      } catch (e) {
        fail(`level ${k} is not valid zlib data (${(e as Error).message})`);
      }
    }
    const width = Math.max(1, ktx.pixelWidth >> k);
    const height = Math.max(1, Math.max(1, ktx.pixelHeight) >> k);
    const texelBytes = f.channels * f.bytes;
    // A level holds layers x faces images; the first is at the start.
    if (data.byteLength < width * height * texelBytes) fail(`level ${k} has ${data.byteLength} bytes, ${width}x${height} ${f.name} needs ${width * height * texelBytes}`);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const n = width * height;
    if (f.bytes === 1) {
      const texels = new Uint8Array(n * 4);
      for (let i = 0; i < n; i++) {
        for (let ch = 0; ch < 4; ch++) texels[4 * i + ch] = ch < f.channels ? data[i * texelBytes + ch]! : ch === 3 ? 255 : 0;
        if (f.swapRB) [texels[4 * i], texels[4 * i + 2]] = [texels[4 * i + 2]!, texels[4 * i]!];
      }
      return { width, height, texels };
    }
    const texels = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      for (let ch = 0; ch < 4; ch++) {
        const at = i * texelBytes + ch * f.bytes;
        texels[4 * i + ch] = ch >= f.channels ? (ch === 3 ? 1 : 0) : f.bytes === 2 ? halfToFloat(view.getUint16(at, true)) : view.getFloat32(at, true);
      }
    }
    return { width, height, texels };
  };
  const base = decodeLevel(0);
  const out = (f.bytes === 1
    ? { format: 'rgba8', width: base.width, height: base.height, texels: base.texels }
    : { format: 'rgba32f', width: base.width, height: base.height, texels: base.texels }) as DecodedTexture;
  // The file's own mip levels (KTX2 stores them smallest last): `mipmaps: "file"` samples them.
  if (ktx.levels.length > 1) out.mipLevels = ktx.levels.slice(1).map((_, k) => decodeLevel(k + 1)) as DecodedTexture['mipLevels'];
  return out;
}
