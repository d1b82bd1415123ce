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

/**
 * How the drawn blocks are corrected. 'rows' (default): the cost balance, then the row balance:
 * swaps that bring the chosen rows' mean cost uniformity (per 32-pixel row of a block, mean / max
 * of its pixels' cost) within the tolerance of the group's, never taking the cost share out of its
 * tolerance. 'cost': the cost balance alone. 'none': the paper's draw.
 *
 * Why rows: the cost balance alone swaps costly blocks for cheaper ones, and in a path tracer a
 * costly row is often one whose pixels end their paths at different bounces; the chosen rows came
 * out more uniform than the group's (pt 128x128: 0.737 against 0.710), and a row of pixels is a
 * warp of rays, so the traced warps' RT efficiency (rt_avg_efficiency) came out 8.7% high on the
 * full GPU (docs/zatel.md, the selection check).
 */
export type Balance = 'rows' | 'cost' | 'none';

/** Default relative tolerance of the cost and row balances: chosen share within 1% of the pixel share. */
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
  /**
   * The chosen rows' mean cost uniformity (rowUniformity) / the group's: 1 when the traced rows
   * are as uniform as the group's, the figure the row balance brings within its tolerance.
   */
  uniformityRatio: number;
  /** Blocks swapped by the cost and row balances (0 with `balance: 'none'`). */
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
  let swaps = balance === 'none' ? 0 : balanceCost(group, blockColour, blockCost, chosen, traced, groupCost, tolerance);
  const rows = group.blocks.map((b) => blockRows(b, heat));
  if (balance === 'rows') swaps += balanceRows(group, blockColour, blockCost, rows, chosen, traced, groupCost, tolerance);
  const pixels = [...chosen].sort((a, b) => a - b).flatMap((bi) => group.blocks[bi]!);
  const pixelShare = group.pixels > 0 ? pixels.length / group.pixels : 0;
  let chosenCost = 0;
  for (const bi of chosen) chosenCost += blockCost[bi]!;
  const costRatio = groupCost > 0 && pixelShare > 0 ? chosenCost / groupCost / pixelShare : 1;
  return { pixels, fraction: pixelShare, target: fraction, costRatio, uniformityRatio: uniformityRatio(rows, chosen), swaps };
}

/** A block's rows: how many, and the sum of their cost uniformities. */
interface BlockRows {
  count: number;
  uniformity: number;
}

/**
 * The cost uniformity of one row of pixels: mean / max of their heatmap cost (1 when all cost the
 * same, or nothing). A section block row is 32 pixels, a warp of rays in a 2D launch whose width
 * is a multiple of 32.
 */
export function rowUniformity(costs: ArrayLike<number>): number {
  let max = 0;
  let total = 0;
  for (let i = 0; i < costs.length; i++) {
    max = Math.max(max, costs[i]!);
    total += costs[i]!;
  }
  return max > 0 ? total / costs.length / max : 1;
}

function blockRows(block: readonly number[], heat: Heatmap): BlockRows {
  const byRow = new Map<number, number[]>();
  for (const p of block) {
    const y = Math.floor(p / heat.width);
    let row = byRow.get(y);
    if (!row) byRow.set(y, (row = []));
    row.push(heat.cost[p]!);
  }
  let uniformity = 0;
  for (const row of byRow.values()) uniformity += rowUniformity(row);
  return { count: byRow.size, uniformity };
}

function uniformityRatio(rows: readonly BlockRows[], chosen: ReadonlySet<number>): number {
  let all = 0;
  let allCount = 0;
  let mine = 0;
  let mineCount = 0;
  rows.forEach((r, i) => {
    all += r.uniformity;
    allCount += r.count;
    if (chosen.has(i)) {
      mine += r.uniformity;
      mineCount += r.count;
    }
  });
  return all > 0 && mineCount > 0 ? mine / mineCount / (all / allCount) : 1;
}

/** Candidates each side of the nearest in the row balance's search (by uniformity), checked against the cost bound. */
const ROW_SWAP_WINDOW = 8;

/**
 * After the cost balance: swaps chosen and unchosen blocks of equal pixel and row counts until the
 * chosen rows' mean uniformity is within `tolerance` (relative) of the group's, same-colour swaps
 * first. A swap may not take the chosen cost further from its goal than the larger of the cost
 * tolerance and where it stands. Each step takes the allowed swap that brings the uniformity
 * closest to its goal (a binary search over the unchosen blocks sorted by uniformity, then the
 * nearest few each side); it stops when none improves it. Returns the swaps made.
 */
function balanceRows(
  group: PixelGroup, blockColour: number[], blockCost: number[], rows: BlockRows[], chosen: Set<number>, traced: number, groupCost: number,
  tolerance: number,
): number {
  if (traced === 0 || traced >= group.pixels) return 0;
  let allU = 0;
  let allRows = 0;
  for (const r of rows) {
    allU += r.uniformity;
    allRows += r.count;
  }
  if (allU <= 0) return 0;
  const mean = allU / allRows;
  const costGoal = (traced / group.pixels) * groupCost;
  let chosenCost = 0;
  let chosenU = 0;
  let chosenRows = 0;
  for (const bi of chosen) {
    chosenCost += blockCost[bi]!;
    chosenU += rows[bi]!.uniformity;
    chosenRows += rows[bi]!.count;
  }
  const costBound = Math.max(tolerance * costGoal, Math.abs(costGoal - chosenCost));
  let swaps = 0;
  for (const sameColour of [true, false]) {
    for (let step = 0; step < group.blocks.length; step++) {
      // Swaps keep the row count, so the goal stays mean x chosenRows.
      const gap = mean * chosenRows - chosenU;
      if (Math.abs(gap) <= tolerance * mean * chosenRows) return swaps;
      const key = (i: number) => `${sameColour ? blockColour[i] : '*'}/${group.blocks[i]!.length}/${rows[i]!.count}`;
      const pool = new Map<string, number[]>();
      group.blocks.forEach((_, i) => {
        if (chosen.has(i)) return;
        let list = pool.get(key(i));
        if (!list) pool.set(key(i), (list = []));
        list.push(i);
      });
      for (const list of pool.values()) list.sort((a, b) => rows[a]!.uniformity - rows[b]!.uniformity);
      let best: { out: number; in: number; gap: number } | undefined;
      for (const a of chosen) {
        const list = pool.get(key(a));
        if (!list || list.length === 0) continue;
        const want = rows[a]!.uniformity + gap;
        let lo = 0;
        let hi = list.length - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (rows[list[mid]!]!.uniformity < want) lo = mid + 1;
          else hi = mid;
        }
        for (let j = Math.max(0, lo - ROW_SWAP_WINDOW); j <= Math.min(list.length - 1, lo + ROW_SWAP_WINDOW); j++) {
          const b = list[j]!;
          if (Math.abs(costGoal - (chosenCost + blockCost[b]! - blockCost[a]!)) > costBound) continue;
          const after = Math.abs(gap - (rows[b]!.uniformity - rows[a]!.uniformity));
          if (!best || after < best.gap) best = { out: a, in: b, gap: after };
        }
      }
      if (!best || best.gap >= Math.abs(gap)) break;
      chosen.delete(best.out);
      chosen.add(best.in);
      chosenCost += blockCost[best.in]! - blockCost[best.out]!;
      chosenU += rows[best.in]!.uniformity - rows[best.out]!.uniformity;
      swaps++;
    }
  }
  return swaps;
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
