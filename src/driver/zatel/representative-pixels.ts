/**
 * Selecting a group's representative pixels (paper 004, Sec. III-E, Fig. 8):
 * - how many: eq. 1, P = (1/M) * sum_i c_i over the group's M pixels (c = coldness of the
 *   pixel's quantised colour), bounded to [0.3, 0.6]; or a user cap (P = min(eq. 1, cap), the
 *   paper's "trace only up to 10%");
 * - which: whole section blocks. Each block takes the quantised colour most of its pixels have.
 *   Colour j should supply p_j of the traced pixels: uniform, p_j = M_j / M (the group's own
 *   distribution); temperature (eq. 2), p_j = M_j c'_j / sum_i c'_i with c' = 1 - c the warmth;
 *   temperature5 (eq. 3), the same with c'^5. Blocks of each colour are drawn at random until
 *   the colour's share is met; if a colour runs out, other blocks are drawn at random until the
 *   total is reached.
 */
import { seededRandom } from '../../sim/seeded-random.js';
import type { PixelGroup } from './division.js';
import type { Heatmap } from './heatmap.js';

export type Distribution = 'uniform' | 'temperature' | 'temperature5';

export const FRACTION_BOUNDS = [0.3, 0.6] as const;

/** Eq. 1 for one group, bounded to [0.3, 0.6]. */
export function tracedFraction(group: PixelGroup, heat: Heatmap): number {
  let sum = 0;
  for (const b of group.blocks) for (const p of b) sum += heat.coldness[heat.cluster[p]!]!;
  const p = group.pixels > 0 ? sum / group.pixels : FRACTION_BOUNDS[0];
  return Math.min(FRACTION_BOUNDS[1], Math.max(FRACTION_BOUNDS[0], p));
}

export interface Selection {
  /** Pixel indices to trace. */
  pixels: number[];
  /** Traced pixels / group pixels (block granularity makes it differ slightly from the target). */
  fraction: number;
  /** The fraction asked for (eq. 1 or the cap). */
  target: number;
}

export function selectRepresentativePixels(
  group: PixelGroup, heat: Heatmap, fraction: number, distribution: Distribution, seed: number,
): Selection {
  const random = seededRandom(seed * 7919 + group.index * 104729 + 17);
  const colours = heat.colours.length;
  const blockColour = group.blocks.map((b) => {
    const votes = new Array<number>(colours).fill(0);
    for (const p of b) votes[heat.cluster[p]!]!++;
    return votes.indexOf(Math.max(...votes));
  });
  const pixelsOfColour = new Array<number>(colours).fill(0);
  for (const b of group.blocks) for (const p of b) pixelsOfColour[heat.cluster[p]!]!++;
  const weight = (j: number) => {
    const warmth = 1 - heat.coldness[j]!;
    if (distribution === 'uniform') return pixelsOfColour[j]!;
    return pixelsOfColour[j]! * (distribution === 'temperature' ? warmth : warmth ** 5);
  };
  const weights = Array.from({ length: colours }, (_, j) => weight(j));
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const wanted = Math.max(1, Math.round(fraction * group.pixels));
  const chosen = new Set<number>();
  let traced = 0;
  const take = (bi: number) => {
    chosen.add(bi);
    traced += group.blocks[bi]!.length;
  };
  const shuffled = (list: number[]) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  };
  // Hottest colour first, so its blocks are not crowded out by rounding.
  const order = Array.from({ length: colours }, (_, j) => j).sort((a, b) => heat.coldness[a]! - heat.coldness[b]!);
  for (const j of order) {
    const share = totalWeight > 0 ? (weights[j]! / totalWeight) * wanted : 0;
    let got = 0;
    for (const bi of shuffled(group.blocks.map((_, i) => i).filter((i) => blockColour[i] === j))) {
      if (got >= share || traced >= wanted) break;
      take(bi);
      got += group.blocks[bi]!.length;
    }
  }
  for (const bi of shuffled(group.blocks.map((_, i) => i).filter((i) => !chosen.has(i)))) {
    if (traced >= wanted) break;
    take(bi);
  }
  const pixels = [...chosen].sort((a, b) => a - b).flatMap((bi) => group.blocks[bi]!);
  return { pixels, fraction: group.pixels > 0 ? pixels.length / group.pixels : 0, target: fraction };
}
