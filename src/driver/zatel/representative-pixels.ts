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

export type Balance = 'cost' | 'none';

/** Default relative tolerance of the cost balance: chosen cost share within 1% of the pixel share. */
export const COST_BALANCE_TOLERANCE = 0.01;

export interface Selection {
  /** Pixel indices to trace. */
  pixels: number[];
  /** Traced pixels / group pixels (block granularity makes it differ slightly from the target). */
  fraction: number;
  /** The fraction asked for (eq. 1 or the cap). */
  target: number;
  /**
   * Heatmap cost of the traced pixels / the group's cost, divided by `fraction`: 1 when linear
   * extrapolation of the instruction count is exact; 1.12 means instructions come out 12% high.
   */
  costRatio: number;
  /** Blocks swapped by the cost balance (0 with `balance: 'none'`). */
  swaps: number;
}

export function selectRepresentativePixels(
  group: PixelGroup, heat: Heatmap, fraction: number, distribution: Distribution, seed: number,
  balance: Balance = 'none', tolerance = COST_BALANCE_TOLERANCE,
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
  const blockCost = group.blocks.map((b) => b.reduce((a, p) => a + heat.cost[p]!, 0));
  const groupCost = blockCost.reduce((a, b) => a + b, 0);
  const swaps = balance === 'cost' ? balanceCost(group, blockColour, blockCost, chosen, traced, groupCost, tolerance) : 0;
  const pixels = [...chosen].sort((a, b) => a - b).flatMap((bi) => group.blocks[bi]!);
  const pixelShare = group.pixels > 0 ? pixels.length / group.pixels : 0;
  let chosenCost = 0;
  for (const bi of chosen) chosenCost += blockCost[bi]!;
  const costRatio = groupCost > 0 && pixelShare > 0 ? chosenCost / groupCost / pixelShare : 1;
  return { pixels, fraction: pixelShare, target: fraction, costRatio, swaps };
}

/**
 * Swaps chosen and unchosen blocks of equal pixel count until the chosen blocks' cost is within
 * `tolerance` (relative) of `traced / group pixels` x the group's cost; same-colour swaps first.
 * Each step takes the swap that brings the chosen cost closest to its goal (binary search over
 * the unchosen blocks sorted by cost), and stops when no swap improves it. Returns the swaps made.
 */
function balanceCost(
  group: PixelGroup, blockColour: number[], blockCost: number[], chosen: Set<number>, traced: number, groupCost: number, tolerance: number,
): number {
  if (groupCost <= 0 || traced === 0 || traced >= group.pixels) return 0;
  const goal = (traced / group.pixels) * groupCost;
  let chosenCost = 0;
  for (const bi of chosen) chosenCost += blockCost[bi]!;
  let swaps = 0;
  for (const sameColour of [true, false]) {
    for (let step = 0; step < group.blocks.length; step++) {
      const gap = goal - chosenCost;
      if (Math.abs(gap) <= tolerance * goal) return swaps;
      // Candidates in: unchosen blocks by (colour class, size), sorted by cost.
      const pool = new Map<string, number[]>();
      group.blocks.forEach((b, i) => {
        if (chosen.has(i)) return;
        const key = `${sameColour ? blockColour[i] : '*'}/${b.length}`;
        let list = pool.get(key);
        if (!list) pool.set(key, (list = []));
        list.push(i);
      });
      for (const list of pool.values()) list.sort((a, b) => blockCost[a]! - blockCost[b]!);
      let best: { out: number; in: number; gap: number } | undefined;
      for (const a of chosen) {
        const list = pool.get(`${sameColour ? blockColour[a] : '*'}/${group.blocks[a]!.length}`);
        if (!list || list.length === 0) continue;
        const want = blockCost[a]! + gap;
        let lo = 0;
        let hi = list.length - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (blockCost[list[mid]!]! < want) lo = mid + 1;
          else hi = mid;
        }
        for (const j of [lo - 1, lo]) {
          if (j < 0 || j >= list.length) continue;
          const b = list[j]!;
          const after = Math.abs(gap - (blockCost[b]! - blockCost[a]!));
          if (!best || after < best.gap) best = { out: a, in: b, gap: after };
        }
      }
      if (!best || best.gap >= Math.abs(gap)) break;
      chosen.delete(best.out);
      chosen.add(best.in);
      chosenCost += blockCost[best.in]! - blockCost[best.out]!;
      swaps++;
    }
  }
  return swaps;
}
