/**
 * GPGPU-Sim's `gpgpu_mem_addr_mapping` syntax (addrdec.cc addrdec_parseoption): an optional
 * `dramid@<bit>;` and 64 bit characters from bit 63 down: R row, B bank, C column, S burst (also a
 * column bit), D chip, 0 unused; '.', '|' and spaces are separators. Checked when a config loads;
 * the timing model's AddressMap (src/sim/timing/address-map.ts) decodes with it.
 */
import { ConfigError } from './config-error.js';

export interface ParsedMapping {
  chipStart: number;
  chip: bigint;
  bank: bigint;
  row: bigint;
  col: bigint;
}

/** Reads `[dramid@N;]<64 mapping characters, '.', '|' and spaces ignored>`. */
export function parseAddressMapping(text: string, key: string): ParsedMapping {
  const s = text.trim().replace(/^"|"$/g, '');
  let chipStart = -1;
  let body = s;
  const m = /^dramid@(\d+)\s*;?/.exec(s);
  if (m) {
    chipStart = Number(m[1]);
    body = s.slice(m[0].length);
  } else if (s.includes(';')) {
    body = s.slice(s.indexOf(';') + 1);
  }
  const out: ParsedMapping = { chipStart, chip: 0n, bank: 0n, row: 0n, col: 0n };
  let ofs = 63;
  for (const ch of body) {
    if (ch === '.' || ch === '|' || ch === ' ') continue;
    if (ofs < 0) throw new ConfigError(`${key}: the mapping has more than 64 bit characters`, key);
    const bit = 1n << BigInt(ofs);
    switch (ch) {
      case 'D': case 'd':
        if (chipStart >= 0) throw new ConfigError(`${key}: 'D' bits and dramid@ both give the chip bits`, key);
        out.chip |= bit;
        break;
      case 'B': case 'b': out.bank |= bit; break;
      case 'R': case 'r': out.row |= bit; break;
      case 'C': case 'c': case 'S': case 's': out.col |= bit; break;
      case '0': break;
      default:
        throw new ConfigError(`${key}: invalid address mapping character '${ch}' (R, B, C, S, D, 0)`, key);
    }
    ofs--;
  }
  if (ofs !== -1) throw new ConfigError(`${key}: the mapping has ${63 - ofs} bit characters; it needs 64`, key);
  if (chipStart < 0 && out.chip === 0n) throw new ConfigError(`${key}: no chip bits (give dramid@<bit>; or 'D' characters)`, key);
  if (out.bank === 0n) throw new ConfigError(`${key}: no bank ('B') bits`, key);
  return out;
}

