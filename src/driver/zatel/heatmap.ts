/**
 * Zatel's preprocessing (paper 004, Sec. III-B, Fig. 3 steps 1-2, Fig. 4): the per-pixel
 * execution cost normalised by the costliest pixel, mapped to a heat gradient (cold blue to hot
 * red), then colour-quantised by K-means to remove noise. Each quantised colour gets its
 * coldness c in [0, 1] from its shifted hue (0 = hot red, 1 = cold blue), which eq. 1-3 use.
 *
 * The gradient is the blue-cyan-green-yellow-red temperature ramp of NVIDIA's DXR timer
 * heatmaps (the paper's [24]); hue runs linearly from 240 degrees (cold) to 0 (hot) along it, so
 * the coldness of a colour is its hue / 240.
 */
import { PNG } from 'pngjs';
import { kMeansColours } from './kmeans.js';

export type Rgb = [number, number, number];

/** Gradient stops, t = 0 (cold) .. 1 (hot). */
const STOPS: Rgb[] = [
  [0, 0, 1],
  [0, 1, 1],
  [0, 1, 0],
  [1, 1, 0],
  [1, 0, 0],
];

/** The heat colour of a normalised cost t in [0, 1] (components in [0, 1]). */
export function heatColour(t: number): Rgb {
  const x = Math.min(1, Math.max(0, t)) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  const a = STOPS[i]!;
  const b = STOPS[i + 1]!;
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

/** Coldness from the colour's hue: 240 degrees (blue) is 1, 0 degrees (red) is 0. */
export function coldness([r, g, b]: Rgb): number {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max - min < 1e-9) return 0.5; // grey has no hue: neither hot nor cold
  let hue: number;
  if (max === r) hue = (60 * ((g - b) / (max - min)) + 360) % 360;
  else if (max === g) hue = 60 * ((b - r) / (max - min)) + 120;
  else hue = 60 * ((r - g) / (max - min)) + 240;
  if (hue > 240) hue = hue > 300 ? 0 : 240; // magenta side: nearest end of the ramp
  return hue / 240;
}

export interface Heatmap {
  width: number;
  height: number;
  /** Cost per pixel (y * width + x), summed over launch depth. */
  cost: Float64Array;
  /** cost / max cost. */
  normalised: Float64Array;
  /** Quantised colour index per pixel. */
  cluster: Uint8Array;
  /** Centroid colour of each cluster. */
  colours: Rgb[];
  /** Coldness c of each cluster's colour (eq. 1). */
  coldness: number[];
}

/**
 * The heatmap of a per-thread cost (index x + w * (y + h * z)), quantised to `clusters` colours
 * (paper: 5) with seeded K-means.
 */
export function buildHeatmap(threadCost: ArrayLike<number>, width: number, height: number, clusters = 5, seed = 1): Heatmap {
  const n = width * height;
  const cost = new Float64Array(n);
  for (let i = 0; i < threadCost.length; i++) cost[i % n]! += threadCost[i]!;
  let max = 0;
  for (const c of cost) max = Math.max(max, c);
  const normalised = cost.map((c) => (max > 0 ? c / max : 0));
  const pixelColours = Array.from(normalised, (t) => heatColour(t));
  const { assignment, centroids } = kMeansColours(pixelColours, clusters, seed);
  return { width, height, cost, normalised, cluster: assignment, colours: centroids, coldness: centroids.map(coldness) };
}

function toPng(width: number, height: number, colourOf: (i: number) => Rgb): Uint8Array {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    const [r, g, b] = colourOf(i);
    png.data[4 * i] = Math.round(r * 255);
    png.data[4 * i + 1] = Math.round(g * 255);
    png.data[4 * i + 2] = Math.round(b * 255);
    png.data[4 * i + 3] = 255;
  }
  return PNG.sync.write(png);
}

/** Fig. 3 step 1: the raw heat gradient. */
export function heatmapPng(h: Heatmap): Uint8Array {
  return toPng(h.width, h.height, (i) => heatColour(h.normalised[i]!));
}

/** Fig. 4: the quantised heatmap. */
export function quantisedHeatmapPng(h: Heatmap): Uint8Array {
  return toPng(h.width, h.height, (i) => h.colours[h.cluster[i]!]!);
}

/** Fig. 8: the traced pixels in their quantised colour, the rest dark grey. */
export function chosenPixelsPng(h: Heatmap, traced: ReadonlySet<number>): Uint8Array {
  return toPng(h.width, h.height, (i) => (traced.has(i) ? h.colours[h.cluster[i]!]! : [0.12, 0.12, 0.12]));
}
