/**
 * Memory coalescing of one warp memory instruction, as GPGPU-Sim does for sm_70+: the active
 * lanes' byte ranges are grouped by 128 B line, and each line request carries the number of 32 B
 * sectors it touches (the data actually moved).
 *
 * Invariants: output lines are unique, 128 B aligned, in first-touch lane order (deterministic);
 * `bytes` is a multiple of 32 between 32 and 128.
 */
import type { MemAccess } from '../warp-step.js';

export const LINE_BYTES = 128;
export const SECTOR_BYTES = 32;

export interface LineRequest {
  line: number;
  bytes: number;
}

export function coalesce(access: MemAccess, out: LineRequest[] = []): LineRequest[] {
  const masks = new Map<number, number>();
  const order: number[] = [];
  const size = Math.max(1, access.size);
  for (let lane = 0; lane < 32; lane++) {
    if (((access.laneMask >>> lane) & 1) === 0) continue;
    const a0 = access.addresses[lane]!;
    const a1 = a0 + size - 1;
    for (let s = a0 - (a0 % SECTOR_BYTES); s <= a1; s += SECTOR_BYTES) {
      const line = s - (s % LINE_BYTES);
      const bit = 1 << ((s - line) / SECTOR_BYTES);
      const m = masks.get(line);
      if (m === undefined) {
        masks.set(line, bit);
        order.push(line);
      } else masks.set(line, m | bit);
    }
  }
  for (const line of order) {
    let m = masks.get(line)!;
    let n = 0;
    while (m) {
      n += m & 1;
      m >>>= 1;
    }
    out.push({ line, bytes: n * SECTOR_BYTES });
  }
  return out;
}
