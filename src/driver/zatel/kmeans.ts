/**
 * K-means colour quantisation (Lloyd's algorithm, k-means++ seeding from a seeded PRNG) over RGB
 * colours. Pixels with the same colour are clustered once with their count as weight, so a
 * heatmap of any size costs as much as its distinct colours.
 */
import { seededRandom } from '../../sim/seeded-random.js';
import type { Rgb } from './heatmap.js';

export interface Quantisation {
  /** Cluster index per input colour. */
  assignment: Uint8Array;
  centroids: Rgb[];
}

const dist2 = (a: Rgb, b: Rgb) => (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;

export function kMeansColours(colours: readonly Rgb[], k: number, seed = 1, maxIterations = 100): Quantisation {
  if (!(Number.isInteger(k) && k >= 1 && k <= 255)) throw new RangeError(`K-means needs 1..255 clusters, got ${k}`);
  // Distinct colours with weights.
  const key = (c: Rgb) => `${c[0].toFixed(6)},${c[1].toFixed(6)},${c[2].toFixed(6)}`;
  const index = new Map<string, number>();
  const points: Rgb[] = [];
  const weights: number[] = [];
  const pointOf = new Int32Array(colours.length);
  colours.forEach((c, i) => {
    const kk = key(c);
    let p = index.get(kk);
    if (p === undefined) {
      p = points.length;
      index.set(kk, p);
      points.push(c);
      weights.push(0);
    }
    weights[p]! += 1;
    pointOf[i] = p;
  });
  const clusters = Math.min(k, points.length);
  const random = seededRandom(seed);
  // k-means++ seeding (weighted by pixel count).
  const centroids: Rgb[] = [];
  const total = weights.reduce((a, b) => a + b, 0);
  let r = random() * total;
  let first = 0;
  while (first < points.length - 1 && (r -= weights[first]!) > 0) first++;
  centroids.push([...points[first]!] as Rgb);
  const d = points.map((p) => dist2(p, centroids[0]!));
  while (centroids.length < clusters) {
    const sum = d.reduce((a, x, i) => a + x * weights[i]!, 0);
    let pick = 0;
    if (sum > 0) {
      let t = random() * sum;
      while (pick < points.length - 1 && (t -= d[pick]! * weights[pick]!) > 0) pick++;
    } else pick = centroids.length;
    centroids.push([...points[pick]!] as Rgb);
    points.forEach((p, i) => (d[i] = Math.min(d[i]!, dist2(p, centroids[centroids.length - 1]!))));
  }
  const label = new Uint8Array(points.length);
  for (let it = 0; it < maxIterations; it++) {
    let changed = it === 0;
    points.forEach((p, i) => {
      let best = 0;
      let bestD = Infinity;
      centroids.forEach((c, j) => {
        const dd = dist2(p, c);
        if (dd < bestD) {
          bestD = dd;
          best = j;
        }
      });
      if (label[i] !== best) changed = true;
      label[i] = best;
    });
    if (!changed) break;
    const sums = centroids.map(() => [0, 0, 0, 0]);
    points.forEach((p, i) => {
      const s = sums[label[i]!]!;
      const w = weights[i]!;
      s[0]! += p[0] * w;
      s[1]! += p[1] * w;
      s[2]! += p[2] * w;
      s[3]! += w;
    });
    sums.forEach((s, j) => {
      if (s[3]! > 0) centroids[j] = [s[0]! / s[3]!, s[1]! / s[3]!, s[2]! / s[3]!];
    });
  }
  const assignment = new Uint8Array(colours.length);
  for (let i = 0; i < colours.length; i++) assignment[i] = label[pointOf[i]!]!;
  return { assignment, centroids };
}
