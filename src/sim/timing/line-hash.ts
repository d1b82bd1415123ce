/**
 * The home slot of a line address in the cache's open-addressing tables (line-frame-table.ts,
 * line-set.ts): the line index as two 32-bit halves (ToUint32 takes it modulo 2^32), mixed
 * multiplicatively, its top `32 - shift` bits.
 */
export function lineHomeSlot(line: number, lineBytes: number, shift: number): number {
  const idx = line / lineBytes;
  const lo = idx >>> 0;
  const hi = (idx / 4294967296) >>> 0;
  return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> shift;
}
