// Texture files for sampler arrays: PNG, JPEG (jpeg-js) and KTX2 (ktx-parse) in uncompressed
// formats decode to the texels an application uploads; compressed KTX2 is refused by name.
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import { createDefaultContainer, write as writeKtx2, KHR_SUPERCOMPRESSION_ZLIB, KHR_SUPERCOMPRESSION_ZSTD } from 'ktx-parse';
import { PNG } from 'pngjs';
import { decodeTextureFile, MAX_TEXTURE_DIMENSION, MAX_TEXTURE_TEXELS } from '../../../src/sim/workload/texture-files.js';
import { ManifestError } from '../../../src/sim/workload/manifest.js';
import { floatToHalf } from '../../../src/sim/half-float.js';

const dir = mkdtempSync(join(tmpdir(), 'vv-textures-'));

/** A 4x2 image: red, green, blue, white / black, grey, yellow, half-transparent cyan. */
const RGBA = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255, 0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 0, 255, 0, 255, 255, 128];

function ktx2(name: string, vkFormat: number, bytes: Uint8Array, scheme = 0): string {
  const data = new Uint8Array(new ArrayBuffer(bytes.byteLength));
  data.set(bytes);
  const c = createDefaultContainer();
  c.vkFormat = vkFormat as typeof c.vkFormat;
  c.pixelWidth = 4;
  c.pixelHeight = 2;
  c.supercompressionScheme = scheme as typeof c.supercompressionScheme;
  c.levels = [{ levelData: scheme === KHR_SUPERCOMPRESSION_ZLIB ? Uint8Array.from(deflateSync(data)) : data, uncompressedByteLength: data.byteLength }];
  const file = join(dir, name);
  writeFileSync(file, writeKtx2(c));
  return file;
}

test('PNG decodes to its RGBA8 texels', (t) => {
  const png = new PNG({ width: 4, height: 2 });
  png.data.set(RGBA);
  const file = join(dir, 'a.png');
  writeFileSync(file, PNG.sync.write(png));
  const d = decodeTextureFile(file, 'files[0]');
  t.is(d.format, 'rgba8');
  t.deepEqual([...d.texels], RGBA);
});

test('JPEG decodes to RGBA8 close to the encoded colours (lossy), alpha 255', (t) => {
  // A 16x16 image of flat 8x8 blocks keeps JPEG's error small.
  const w = 16;
  const data = Buffer.alloc(w * w * 4);
  for (let y = 0; y < w; y++) for (let x = 0; x < w; x++) data.set(x < 8 ? (y < 8 ? [200, 30, 30, 255] : [30, 200, 30, 255]) : [30, 30, 200, 255], (y * w + x) * 4);
  const file = join(dir, 'a.jpg');
  writeFileSync(file, jpeg.encode({ width: w, height: w, data }, 95).data);
  const d = decodeTextureFile(file, 'files[0]');
  t.is(d.format, 'rgba8');
  t.is(d.width, w);
  const at = (x: number, y: number) => [...d.texels.slice((y * w + x) * 4, (y * w + x) * 4 + 4)];
  for (const [x, y, want] of [[2, 2, [200, 30, 30]], [2, 12, [30, 200, 30]], [12, 5, [30, 30, 200]]] as const) {
    const got = at(x, y);
    t.true(got.slice(0, 3).every((v, i) => Math.abs(v - want[i]!) < 12), `(${x}, ${y}): ${got}`);
    t.is(got[3], 255);
  }
});

test('KTX2 R8G8B8A8, B8G8R8A8 (swizzled), zlib-supercompressed and half-float levels decode exactly', (t) => {
  t.deepEqual([...decodeTextureFile(ktx2('rgba.ktx2', 37, Uint8Array.from(RGBA)), 'f').texels], RGBA);
  const bgra = Uint8Array.from(RGBA);
  for (let i = 0; i < bgra.length; i += 4) [bgra[i], bgra[i + 2]] = [bgra[i + 2]!, bgra[i]!];
  t.deepEqual([...decodeTextureFile(ktx2('bgra.ktx2', 44, bgra), 'f').texels], RGBA);
  t.deepEqual([...decodeTextureFile(ktx2('zlib.ktx2', 43, Uint8Array.from(RGBA), KHR_SUPERCOMPRESSION_ZLIB), 'f').texels], RGBA);
  const half = new Uint16Array(RGBA.map((v) => floatToHalf(v / 255)));
  const d = decodeTextureFile(ktx2('half.ktx2', 97, new Uint8Array(half.buffer)), 'f');
  t.is(d.format, 'rgba32f');
  t.true([...d.texels].every((v, i) => Math.abs(v - RGBA[i]! / 255) < 1e-3));
  const rgb = decodeTextureFile(ktx2('rgb.ktx2', 23, Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24])), 'f');
  t.deepEqual([...rgb.texels.slice(0, 8)], [1, 2, 3, 255, 4, 5, 6, 255], 'RGB gets alpha 255');
});

test('compressed KTX2 is refused with the format family and the supported list; zstd too', (t) => {
  const bc7 = t.throws(() => decodeTextureFile(ktx2('bc7.ktx2', 145, new Uint8Array(16)), 'descriptors[3].files[1]'));
  t.true(bc7 instanceof ManifestError);
  t.regex(bc7!.message, /descriptors\[3\]\.files\[1\]: .*bc7\.ktx2: block-compressed BC .* is not supported; supported: R8_UNORM, .*R8G8B8A8_SRGB/);
  const astc = t.throws(() => decodeTextureFile(ktx2('astc.ktx2', 157, new Uint8Array(16)), 'f'));
  t.regex(astc!.message, /block-compressed ASTC/);
  const zstd = t.throws(() => decodeTextureFile(ktx2('zstd.ktx2', 37, Uint8Array.from(RGBA), KHR_SUPERCOMPRESSION_ZSTD), 'f'));
  t.regex(zstd!.message, /Zstandard supercompression is not supported/);
  const basis = t.throws(() => decodeTextureFile(ktx2('uastc.ktx2', 0, new Uint8Array(16)), 'f'));
  t.regex(basis!.message, /Basis Universal .* not supported/);
  writeFileSync(join(dir, 'bad.jpg'), 'not a jpeg');
  t.regex(t.throws(() => decodeTextureFile(join(dir, 'bad.jpg'), 'f'))!.message, /f: cannot read JPEG .*bad\.jpg/);
});

test('a file is decoded once per content: the same path again is the cached texels, a rewritten file is decoded anew', (t) => {
  const png = new PNG({ width: 1, height: 1 });
  png.data.set([1, 2, 3, 4]);
  const file = join(dir, 'cached.png');
  writeFileSync(file, PNG.sync.write(png));
  const first = decodeTextureFile(file, 'f');
  t.is(decodeTextureFile(file, 'f'), first);
  const bigger = new PNG({ width: 2, height: 1 });
  bigger.data.set([5, 6, 7, 8, 9, 10, 11, 12]);
  writeFileSync(file, PNG.sync.write(bigger));
  t.deepEqual([...decodeTextureFile(file, 'f').texels], [5, 6, 7, 8, 9, 10, 11, 12]);
});

test('a texture past the size limits is refused from its header, before decoding: PNG, JPEG and KTX2', (t) => {
  // A PNG whose IHDR says 20000x20000 (the rest need not be valid: nothing past the header is read).
  const png = new PNG({ width: 4, height: 2 });
  png.data.set(RGBA);
  const header = PNG.sync.write(png);
  header.writeUInt32BE(20000, 16);
  header.writeUInt32BE(20000, 20);
  const big = join(dir, 'big.png');
  writeFileSync(big, header);
  const t0 = performance.now();
  t.throws(() => decodeTextureFile(big, 'files[0]'), {
    instanceOf: ManifestError,
    message: `files[0]: ${big} is 20000x20000: a side over ${MAX_TEXTURE_DIMENSION} texels, vvision's limit (Vulkan's maxImageDimension2D on AMD and Intel GPUs)`,
  });
  t.true(performance.now() - t0 < 1000);
  // A JPEG whose start-of-frame says 10000 x 10000: each side fits, the texel count does not.
  const jpg = Buffer.from(jpeg.encode({ width: 4, height: 2, data: Buffer.from(RGBA) }, 90).data);
  let sof = 2;
  while (!(jpg[sof + 1]! >= 0xc0 && jpg[sof + 1]! <= 0xc3)) sof += 2 + jpg.readUInt16BE(sof + 2);
  jpg.writeUInt16BE(10000, sof + 5);
  jpg.writeUInt16BE(10000, sof + 7);
  const bigJpg = join(dir, 'big.jpg');
  writeFileSync(bigJpg, jpg);
  t.throws(() => decodeTextureFile(bigJpg, 'files[1]'), {
    instanceOf: ManifestError,
    message: `files[1]: ${bigJpg} is 10000x10000 = 100000000 texels, over vvision's limit of ${MAX_TEXTURE_TEXELS} (8192x8192) per texture`,
  });
  // A 4x2 KTX2 whose header is patched to say 16385 x 1 (ktx-parse's writer loops on such sizes).
  const ktx = Buffer.from(readFileSync(ktx2('small.ktx2', 37, Uint8Array.from(RGBA))));
  ktx.writeUInt32LE(16385, 20);
  ktx.writeUInt32LE(1, 24);
  const bigKtx = join(dir, 'big.ktx2');
  writeFileSync(bigKtx, ktx);
  t.throws(() => decodeTextureFile(bigKtx, 'files[2]'), { instanceOf: ManifestError, message: /big\.ktx2 is 16385x1: a side over 16384 texels/ });
});

test('KTX2 mip levels decode too (mipLevels: levels 1.., each half the one above)', (t) => {
  const c = createDefaultContainer();
  c.vkFormat = 37 as typeof c.vkFormat;
  c.pixelWidth = 4;
  c.pixelHeight = 2;
  const level = (w: number, h: number, v: number) => {
    const data = new Uint8Array(new ArrayBuffer(w * h * 4)).fill(v);
    return { levelData: data, uncompressedByteLength: data.byteLength };
  };
  c.levels = [level(4, 2, 10), level(2, 1, 20), level(1, 1, 30)];
  c.levelCount = 3;
  const file = join(dir, 'mips.ktx2');
  writeFileSync(file, writeKtx2(c));
  const d = decodeTextureFile(file, 'f');
  t.deepEqual([d.width, d.height, d.texels[0]], [4, 2, 10]);
  t.deepEqual(d.mipLevels!.map((l) => [l.width, l.height, l.texels.length, l.texels[0]]), [[2, 1, 8, 20], [1, 1, 4, 30]]);
  t.is(decodeTextureFile(ktx2('one-level.ktx2', 37, Uint8Array.from(RGBA)), 'f').mipLevels, undefined);
});
