/**
 * Generates the small PNG textures of the built-in workloads (alpha-tested fence and leaf, and an
 * opaque checkerboard). Deterministic: the same code always writes the same bytes, and
 * test/workloads/generated-assets.test.ts checks the committed files against this generator.
 *
 * Run: npx tsx workloads/tools/make-textures.ts
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';

export interface TextureSpec {
  /** Path relative to workloads/. */
  file: string;
  width: number;
  height: number;
  /** RGBA8 of texel (x, y), y = 0 the top row. */
  texel(x: number, y: number): [number, number, number, number];
}

const SIZE = 64;

export const TEXTURES: TextureSpec[] = [
  {
    // Opaque grey checkerboard for the ground: 8x8 texel squares.
    file: 'alpha/textures/checker.png',
    width: SIZE,
    height: SIZE,
    texel: (x, y) => (((x >> 3) ^ (y >> 3)) & 1 ? [200, 200, 200, 255] : [90, 90, 100, 255]),
  },
  {
    // Chain-link fence: wires along both diagonals, transparent diamonds between them.
    file: 'alpha/textures/fence.png',
    width: SIZE,
    height: SIZE,
    texel: (x, y) => {
      const period = 16;
      const a = (x + y) % period;
      const b = (x - y + SIZE * period) % period;
      const wire = a < 3 || b < 3;
      const border = x < 2 || y < 2 || x >= SIZE - 2 || y >= SIZE - 2;
      return wire || border ? [170, 175, 180, 255] : [0, 0, 0, 0];
    },
  },
  {
    // A leaf: an ellipse with a darker midrib; alpha 0 outside the blade.
    file: 'alpha/textures/leaf.png',
    width: SIZE,
    height: SIZE,
    texel: (x, y) => {
      const u = (x + 0.5) / SIZE - 0.5;
      const v = (y + 0.5) / SIZE - 0.5;
      const inside = (u / 0.28) ** 2 + (v / 0.47) ** 2 <= 1;
      if (!inside) return [0, 0, 0, 0];
      const rib = Math.abs(u) < 0.02;
      const shade = Math.round(40 * (0.5 - Math.abs(v)));
      return rib ? [60, 110, 40, 255] : [50 + shade, 150 + shade, 50, 255];
    },
  },
];

/** Encoded PNG bytes of a texture. */
export function encodeTexture(spec: TextureSpec): Buffer {
  const png = new PNG({ width: spec.width, height: spec.height });
  for (let y = 0; y < spec.height; y++) {
    for (let x = 0; x < spec.width; x++) {
      png.data.set(spec.texel(x, y), 4 * (y * spec.width + x));
    }
  }
  return PNG.sync.write(png, { colorType: 6 });
}

export function workloadsDir(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const t of TEXTURES) {
    const out = join(workloadsDir(), t.file);
    writeFileSync(out, encodeTexture(t));
    console.log(`wrote ${out}`);
  }
}
