/**
 * The home slot of a key in the memory side's open-addressing tables, and the tables' deletion.
 * Two key kinds: sector and line ids (sector-ids.ts: non-negative integers below 2^30, in
 * Int32Arrays; line-frame-table.ts, sector-map.ts) and other numeric keys such as the
 * RT unit's chunk keys (doubles below 2^53, in Float64Arrays; line-map.ts).
 */

/**
 * The home slot of a sector or line id: its index in units of 2^`unitLog2` ids (a line is
 * 2^unitLog2 sector ids), mixed multiplicatively, the top `32 - shift` bits.
 */
export function idHomeSlot(id: number, unitLog2: number, shift: number): number {
  return Math.imul(id >>> unitLog2, 0x9e3779b1) >>> shift;
}

/**
 * The home slot of a double key: the key in units of `unit` as two 32-bit halves (ToUint32
 * takes it modulo 2^32), mixed multiplicatively, its top `32 - shift` bits.
 */
export function lineHomeSlot(line: number, unit: number, shift: number): number {
  const idx = line / unit;
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

/** `removeSlot` for a table of ids (Int32Array keys). */
export function removeIdSlot(
  keys: Int32Array, slot: number, mask: number, unitLog2: number, shift: number, move: (to: number, from: number) => void,
): number {
  let hole = slot;
  for (let j = (slot + 1) & mask; keys[j] !== EMPTY_SLOT; j = (j + 1) & mask) {
    const h = idHomeSlot(keys[j]!, unitLog2, shift);
    if (((j - h) & mask) >= ((j - hole) & mask)) {
      keys[hole] = keys[j]!;
      move(hole, j);
      hole = j;
    }
  }
  keys[hole] = EMPTY_SLOT;
  return hole;
}
