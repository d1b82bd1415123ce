/**
 * A storage image as a PNG: the rendered frame. Float formats are clamped to [0, 1] and written
 * as 8-bit sRGB-encoded values exactly as stored (shaders do their own tone mapping / gamma);
 * integer formats are written as they are, clamped to 255. Opaque (alpha 255) unless
 * `keepAlpha`: applications often leave alpha 0 in the swapchain image, which a viewer would
 * show as a blank picture.
 */
import { PNG } from 'pngjs';
import { formatInfo, readTexel, type SimImage } from '../functional/images.js';

export function imageToPng(img: SimImage, opts: { keepAlpha?: boolean } = {}): Uint8Array {
  const level = img.levels[0]!;
  const png = new PNG({ width: level.width, height: level.height });
  const texel = new Float64Array(4);
  const info = formatInfo(img.format);
  const normalized = info.storage === 'unorm8' || info.storage === 'snorm8' || info.storage === 'f16' || info.storage === 'f32';
  for (let y = 0; y < level.height; y++) {
    for (let x = 0; x < level.width; x++) {
      texel.fill(0);
      texel[3] = normalized ? 1 : 255;
      readTexel(img, 0, x, y, 0, 0, texel);
      const o = (y * level.width + x) * 4;
      for (let c = 0; c < 4; c++) {
        const v = c < info.channels || c === 3 ? texel[c]! : 0;
        png.data[o + c] = normalized ? Math.round(Math.min(1, Math.max(0, v)) * 255) : Math.min(255, Math.max(0, v));
      }
      if (info.channels < 4 || !opts.keepAlpha) png.data[o + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/** Mean of each channel over the image (0..1 for normalized formats): quick image statistics. */
export function imageChannelMeans(img: SimImage): number[] {
  const level = img.levels[0]!;
  const texel = new Float64Array(4);
  const sum = [0, 0, 0, 0];
  for (let y = 0; y < level.height; y++) {
    for (let x = 0; x < level.width; x++) {
      texel.fill(0);
      readTexel(img, 0, x, y, 0, 0, texel);
      for (let c = 0; c < 4; c++) sum[c]! += texel[c]!;
    }
  }
  const n = level.width * level.height;
  return sum.map((s) => s / n);
}
