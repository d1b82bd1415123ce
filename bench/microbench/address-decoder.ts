/**
 * GPGPU-Sim's DRAM address decoding from `gpgpu_mem_addr_mapping` (addrdec.cc,
 * linear_to_raw_address_translation), written from the option's documented format so the
 * microbenchmarks can say which channel, bank and row the config puts an address in — an oracle
 * independent of the timing model's own address map.
 *
 * Format: `dramid@<bit>;<64 mask characters, dots ignored, bit 63 first>`: the channel id is taken
 * at address bit <bit> (for a channel count that is not a power of two GPGPU-Sim divides: chip =
 * (addr >> bit) % channels, and the quotient closes the gap), the remaining bits are assigned by
 * the mask: R row, B bank, C column, S burst (byte in the atom). An empty or unreadable mapping
 * gives undefined (GPGPU-Sim then derives one from the geometry; the expected row figures are
 * left out rather than guessed).
 */
export interface DramCoordinates {
  channel: number;
  bank: number;
  row: number;
  column: number;
}

export interface AddressDecoder {
  chipBit: number;
  channels: number;
  /** Bit positions (in the channel-local address) of each field, lowest first. */
  bits: Record<'R' | 'B' | 'C' | 'S', number[]>;
}

export function parseAddressMapping(text: string, channels: number): AddressDecoder | undefined {
  const m = /dramid@(\d+);([RBCS0.]+)/.exec(text.replace(/\s+/g, ''));
  if (!m) return undefined;
  const mask = m[2]!.replace(/\./g, '');
  if (mask.length !== 64) return undefined;
  const bits: AddressDecoder['bits'] = { R: [], B: [], C: [], S: [] };
  for (let i = 0; i < 64; i++) {
    const c = mask[63 - i]!;
    if (c === 'R' || c === 'B' || c === 'C' || c === 'S') bits[c].push(i);
  }
  return { chipBit: Number(m[1]), channels, bits };
}

function gather(x: bigint, positions: number[]): number {
  let v = 0;
  for (let k = 0; k < positions.length; k++) if ((x >> BigInt(positions[k]!)) & 1n) v += 2 ** k;
  return v;
}

export function decode(d: AddressDecoder, addr: number): DramCoordinates {
  const a = BigInt(addr);
  const low = a & ((1n << BigInt(d.chipBit)) - 1n);
  const high = a >> BigInt(d.chipBit);
  const n = BigInt(d.channels);
  const local = ((high / n) << BigInt(d.chipBit)) | low;
  return { channel: Number(high % n), bank: gather(local, d.bits.B), row: gather(local, d.bits.R), column: gather(local, d.bits.C) };
}

/** Bytes one bank's open row covers in its channel's local address space (columns x burst bytes). */
export function rowBytes(d: AddressDecoder): number {
  return 2 ** (d.bits.C.length + d.bits.S.length);
}

/**
 * The row-buffer hit rate an in-order stream of accesses (one per DRAM atom) would see under this map
 * (each bank keeps its last row open; FR-FCFS can only do better) and the channels it touches.
 */
export function streamLocality(d: AddressDecoder, addresses: Iterable<number>): { rowHitRate: number; channels: number } {
  const open = new Map<string, number>();
  const used = new Set<number>();
  let hits = 0;
  let total = 0;
  for (const base of addresses) {
    const c = decode(d, base);
    used.add(c.channel);
    const key = `${c.channel}:${c.bank}`;
    if (open.get(key) === c.row) hits++;
    open.set(key, c.row);
    total++;
  }
  return { rowHitRate: total > 0 ? hits / total : 0, channels: used.size };
}
