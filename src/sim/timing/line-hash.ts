/**
 * The home slot of a line address in the cache's open-addressing tables (line-frame-table.ts,
 * line-set.ts, line-map.ts): the line index as two 32-bit halves (ToUint32 takes it modulo 2^32),
 * mixed multiplicatively, its top `32 - shift` bits; and the tables' deletion.
 */
export function lineHomeSlot(line: number, lineBytes: number, shift: number): number {
  const idx = line / lineBytes;
  const lo = idx >>> 0;
  const hi = (idx / 4294967296) >>> 0;
  return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> shift;
}

/** The key of a free slot in those tables (every stored key is non-negative). */
export const EMPTY_SLOT = -1;

/**
 * Backward-shift deletion of the key in `slot` of a linear-probing table (no tombstones): later
 * keys of its probe run move into the hole when their home slot does not lie cyclically in
 * (hole, their slot]; `move(to, from)` moves the value beside each. Returns the slot left empty.
 */
export function removeSlot(
  keys: Float64Array, slot: number, mask: number, home: (key: number) => number, move: (to: number, from: number) => void,
): number {
  let hole = slot;
  for (let j = (slot + 1) & mask; keys[j] !== EMPTY_SLOT; j = (j + 1) & mask) {
    const h = home(keys[j]!);
    if (((j - h) & mask) >= ((j - hole) & mask)) {
      keys[hole] = keys[j]!;
      move(hole, j);
      hole = j;
    }
  }
  keys[hole] = EMPTY_SLOT;
  return hole;
}
