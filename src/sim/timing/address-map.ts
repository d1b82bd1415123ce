/**
 * Address decoding as GPGPU-Sim's `linear_to_raw_address_translation` (addrdec.cc) does it, from
 * the config's `gpgpu_mem_addr_mapping` string: which memory channel (chip), L2 sub-partition,
 * DRAM bank, row and column a byte address lives in, and the "partition address" (the address
 * with the channel and sub-partition bits taken out) that the L2 indexes its sets with.
 *
 * The mapping string lists 64 address bits from bit 63 down: R row, B bank, C column, S burst
 * (also column), D chip, 0 unused. `dramid@N;` instead puts the chip bits at bit N: with a
 * power-of-two channel count log2(channels) bits are inserted there and the R/B/C masks above N
 * move up; otherwise (12 channels) the chip is (addr >> N) mod channels and the masks apply to
 * the rest of the address, ((addr >> N) / channels) << N | (addr mod 2^N).
 * The sub-partition is chip * subPerChannel + the low log2(subPerChannel) bank bits.
 *
 * `gpgpu_memory_partition_indexing` (0 consecutive, 1 bitwise XOR, 2 IPOLY) may hash the chip /
 * sub-partition with the higher address bits; `dram_bnk_indexing_policy` (0 linear, 1 XOR,
 * 2 IPOLY) hashes the bank with the row inside the DRAM (dram_req_t).
 *
 * A scale model (Zatel, paper 004: a GPU with 1/K of the target's channels) may keep the target's
 * DRAM row layout (`rowLayoutChannels`, the knob zatel_target_n_mem): the channel and
 * sub-partition still come from this GPU's own channel count, but bank, row and column are decoded
 * as the target with `rowLayoutChannels` channels decodes them, and the target's channel number is
 * put above the target's row bits. A row of this GPU then holds exactly the addresses a row of one
 * of the target's channels holds (2 KB spread over the 16 KB the target interleaves over 4
 * channels, with `mobile`'s mapping), instead of the contiguous range the mapping gives a single
 * channel; the target's channels' rows stay distinct rows. Without it a 1-channel scale model's
 * rows take 4 times the target's neighbouring 256-byte chunks, and its row-buffer hit rate is the
 * one a target with 4 KB interleaving would have (docs/zatel.md, "Why the one partition is faster").
 *
 * Invariants: a pure function of the address and the configuration (determinism); two
 * different addresses never decode to the same (chip, bank, row, column) (tested by sweep).
 */
import { parseAddressMapping } from '../config/address-mapping.js';
import { ConfigError } from '../config/config-error.js';
import { bitwiseHash, ipolyHash } from './index-hash.js';
import { SectorIds } from './sector-ids.js';

/** Bit fields of the mapping, as 64-bit masks split into two 32-bit halves. */
interface BitMask {
  lo: number;
  hi: number;
}

export interface AddressMapConfig {
  channels: number;
  subPerChannel: number;
  /** gpgpu_mem_addr_mapping */
  mapping: string;
  /** gpgpu_memory_partition_indexing: 0 consecutive, 1 bitwise XOR, 2 IPOLY. */
  partitionIndexing: number;
  /** dram_bnk_indexing_policy: 0 linear, 1 bitwise XOR with the row, 2 IPOLY with the row. */
  bankIndexing: number;
  /** DRAM banks per channel (nbk of the timing string). */
  banks: number;
  /**
   * zatel_target_n_mem: decode bank, row and column as a GPU with this many channels does (its
   * channel number above its row bits); 0 or `channels`: this GPU's own layout.
   */
  rowLayoutChannels?: number;
}

/** A decoded address (GPGPU-Sim addrdec_t, with the bank already hashed by dram_bnk_indexing_policy). */
export interface DecodedAddress {
  chip: number;
  subPartition: number;
  bank: number;
  row: number;
  col: number;
}

const TWO32 = 2 ** 32;
/** POW2[k] = 2 ** k (a table: `2 ** k` with a variable k is a call to pow; this runs for every L1 miss and DRAM request). */
const POW2 = Array.from({ length: 64 }, (_, k) => 2 ** k);

export class AddressMap {
  /**
   * The memory side's numbering of the sectors it touches (sector-ids.ts): the caches, MSHRs and
   * requests carry ids, and the decode here takes the byte address an id stands for.
   */
  readonly sectors = new SectorIds();
  readonly channels: number;
  readonly subPerChannel: number;
  readonly banks: number;
  private readonly chipStart: number;
  /** 2 ** chipStart, and the place value of the lowest address bit above the chip and sub-partition bits. */
  private readonly chipUnit: number;
  private readonly higherUnit: number;
  /** Channels rounded up to a power of two, times sub-partitions per channel: the IPOLY partition hash's range. */
  private readonly hashedPartitions: number;
  private readonly gap: boolean;
  private readonly chipMask: BitMask;
  private readonly bankMask: BitMask;
  private readonly rowMask: BitMask;
  private readonly colMask: BitMask;
  private readonly subIdMask: BitMask;
  /** removedBits of subIdMask, and of chipMask | subIdMask (partitionAddress). */
  private readonly subIdRemoved: number[];
  private readonly chipSubIdRemoved: number[];
  private readonly log2Channels: number;
  private readonly log2Sub: number;
  private readonly partitionIndexing: number;
  private readonly bankIndexing: number;
  /** The target's address map whose bank / row / column this scale model keeps (null: its own). */
  private readonly rowLayout: AddressMap | null;
  /** 2 ** (the target's row bits): the place value of the target's channel number in the row. */
  private readonly rowLayoutChipUnit: number;
  private readonly rowLayoutScratch: DecodedAddress = { chip: 0, subPartition: 0, bank: 0, row: 0, col: 0 };

  constructor(c: AddressMapConfig, key = 'gpgpu_mem_addr_mapping') {
    this.channels = c.channels;
    this.subPerChannel = c.subPerChannel;
    this.banks = c.banks;
    this.partitionIndexing = c.partitionIndexing;
    this.bankIndexing = c.bankIndexing;
    if (!isPow2(c.subPerChannel)) throw new ConfigError(`gpgpu_n_sub_partition_per_mchannel: ${c.subPerChannel} is not a power of two (GPGPU-Sim requires one)`, 'gpgpu_n_sub_partition_per_mchannel');
    this.log2Sub = Math.log2(c.subPerChannel);
    let log2Ch = Math.floor(Math.log2(c.channels));
    this.gap = 2 ** log2Ch !== c.channels;
    if (this.gap) log2Ch++;
    this.log2Channels = log2Ch;

    const parsed = parseAddressMapping(c.mapping, key);
    let { bank, row, col, chip } = parsed;
    this.chipStart = parsed.chipStart;
    if (parsed.chipStart >= 0) {
      if (!this.gap) {
        // Insert log2(channels) chip bits at chipStart: every R/B/C bit at or above it moves up.
        const shift = (m: bigint): bigint => {
          const low = m & ((1n << BigInt(parsed.chipStart)) - 1n);
          return ((m & ~((1n << BigInt(parsed.chipStart)) - 1n)) << BigInt(log2Ch)) | low;
        };
        bank = shift(bank);
        row = shift(row);
        col = shift(col);
        chip = 0n;
        for (let i = parsed.chipStart; i < parsed.chipStart + log2Ch; i++) chip |= 1n << BigInt(i);
      }
    } else if (this.gap) {
      throw new ConfigError(`${key}: with ${c.channels} channels (not a power of two) the chip bits must be given as dramid@<bit>`, key);
    }
    if (c.partitionIndexing === 1 && this.gap) {
      throw new ConfigError(`gpgpu_memory_partition_indexing: 1 (bitwise XOR) needs a power-of-two channel count, not ${c.channels}`, 'gpgpu_memory_partition_indexing');
    }
    if (popcount(bank) < this.log2Sub) throw new ConfigError(`${key}: fewer bank bits than log2(sub-partitions per channel)`, key);
    // The sub-partition id is the lowest log2(subPerChannel) bank bits.
    let subId = 0n;
    let found = 0;
    for (let i = 0n; i < 64n && found < this.log2Sub; i++) {
      if (bank & (1n << i)) {
        subId |= 1n << i;
        found++;
      }
    }
    this.chipMask = split(chip);
    this.bankMask = split(bank);
    this.rowMask = split(row);
    this.colMask = split(col);
    this.subIdMask = split(subId);
    this.subIdRemoved = removedBits(this.subIdMask);
    this.chipSubIdRemoved = removedBits(split(chip | subId));
    this.chipUnit = 2 ** this.chipStart;
    this.higherUnit = 2 ** (this.chipStart + this.log2Channels + this.log2Sub);
    this.hashedPartitions = 2 ** this.log2Channels * this.subPerChannel;
    const target = c.rowLayoutChannels ?? 0;
    if (target !== 0 && target !== c.channels) {
      if (target % c.channels !== 0) {
        throw new ConfigError(`zatel_target_n_mem: ${target} channels is not a multiple of gpgpu_n_mem ${c.channels} (a scale model has 1/K of its target's channels)`, 'zatel_target_n_mem');
      }
      this.rowLayout = new AddressMap({ ...c, channels: target, rowLayoutChannels: 0 }, key);
      // Above the target's row bits, as it decodes them (its own chip bits inserted).
      this.rowLayoutChipUnit = 2 ** popcountMask(this.rowLayout.rowMask);
    } else {
      this.rowLayout = null;
      this.rowLayoutChipUnit = 1;
    }
  }

  /** Memory channel of an address. */
  channelOf(addr: number): number {
    return this.subPartitionOf(addr) >> this.log2Sub;
  }

  /** Global sub-partition (L2 bank) index: chip * subPerChannel + sub. */
  subPartitionOf(addr: number): number {
    const rest = this.restOf(addr);
    return this.subPartitionFrom(addr, pext(rest, this.bankMask));
  }

  /**
   * `subPartitionOf` the line or sector `id` (sector-ids.ts) stands for: the byte address stays
   * inside this call (a double passed across a call that V8 does not inline is boxed).
   */
  subPartitionOfSector(id: number): number {
    return this.subPartitionOf(this.sectors.addressOf(id));
  }

  /** `decodeInto` of the line or sector `id` (sector-ids.ts) stands for (see subPartitionOfSector). */
  decodeSectorInto(id: number, out: DecodedAddress): DecodedAddress {
    return this.decodeInto(this.sectors.addressOf(id), out);
  }

  /** `partitionAddress` of the line `id` (sector-ids.ts) stands for (see subPartitionOfSector). */
  partitionAddressOfSector(id: number): number {
    return this.partitionAddress(this.sectors.addressOf(id));
  }

  /** Bank (after dram_bnk_indexing_policy), row and column inside the channel. */
  decode(addr: number): DecodedAddress {
    return this.decodeInto(addr, { chip: 0, subPartition: 0, bank: 0, row: 0, col: 0 });
  }

  /** `decode` into `out` (the DRAM's scratch: no object per request). */
  decodeInto(addr: number, out: DecodedAddress): DecodedAddress {
    const rest = this.restOf(addr);
    const rawBank = pext(rest, this.bankMask);
    const subPartition = this.subPartitionFrom(addr, rawBank);
    if (this.rowLayout !== null) {
      // Bank, row and column as the target decodes them; its channel number above its row bits.
      const t = this.rowLayout.decodeInto(addr, this.rowLayoutScratch);
      out.chip = subPartition >> this.log2Sub;
      out.subPartition = subPartition;
      out.bank = t.bank;
      out.row = t.chip * this.rowLayoutChipUnit + t.row;
      out.col = t.col;
      return out;
    }
    const row = pext(rest, this.rowMask);
    const col = pext(rest, this.colMask);
    let bank = rawBank;
    if (this.bankIndexing === 1) bank = bitwiseHash(row, rawBank, this.banks);
    else if (this.bankIndexing === 2) bank = ipolyHash(row, rawBank, this.banks);
    out.chip = subPartition >> this.log2Sub;
    out.subPartition = subPartition;
    out.bank = bank % this.banks;
    out.row = row;
    out.col = col;
    return out;
  }

  /**
   * The address the bank / row / column masks apply to: the address itself, or with a
   * non-power-of-two channel count ((addr >> chipStart) / channels) << chipStart | the low bits.
   */
  private restOf(addr: number): number {
    if (!this.gap) return addr;
    const unit = this.chipUnit;
    const above = Math.floor(addr / unit);
    // addr - above * unit is addr % unit (exact: unit is a power of two), without a floating-point modulo.
    return Math.floor(above / this.channels) * unit + (addr - above * unit);
  }

  /** The sub-partition of `addr`, given its raw bank bits (the partition index hash applied). */
  private subPartitionFrom(addr: number, rawBank: number): number {
    const chip = this.gap ? Math.floor(addr / this.chipUnit) % this.channels : pext(addr, this.chipMask);
    const sub = rawBank & (this.subPerChannel - 1);
    if (this.partitionIndexing === 0) return chip * this.subPerChannel + sub;
    const higher = this.gap
      ? Math.floor(Math.floor(addr / this.chipUnit) / this.channels)
      : Math.floor(addr / this.higherUnit);
    if (this.partitionIndexing === 1) return bitwiseHash(higher, chip, this.channels) * this.subPerChannel + sub;
    // IPOLY over channels x sub-partitions (next power of two of the channel count), then modulo.
    return ipolyHash(higher, chip * this.subPerChannel + sub, this.hashedPartitions) % (this.channels * this.subPerChannel);
  }

  /**
   * The address without its channel and sub-partition bits (GPGPU-Sim partition_address): what
   * the L2 of a sub-partition indexes its sets with, so the sets are not camped on.
   */
  partitionAddress(addr: number): number {
    // With the gap the chip is already out of the rest; otherwise its bits are removed too.
    return this.gap ? removeBits(this.restOf(addr), this.subIdRemoved) : removeBits(addr, this.chipSubIdRemoved);
  }
}

function split(m: bigint): BitMask {
  return { lo: Number(m & 0xffffffffn) >>> 0, hi: Number((m >> 32n) & 0xffffffffn) >>> 0 };
}

function popcountMask(m: BitMask): number {
  let n = 0;
  for (let x = m.lo; x !== 0; x &= x - 1) n++;
  for (let x = m.hi; x !== 0; x &= x - 1) n++;
  return n;
}

function popcount(m: bigint): number {
  let n = 0;
  for (let x = m; x > 0n; x >>= 1n) if (x & 1n) n++;
  return n;
}

function isPow2(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}

/** Gathers the address bits under `mask` into the low bits of the result, in order (x86 PEXT). */
function pext(addr: number, mask: BitMask): number {
  const lo = addr >>> 0;
  const hi = Math.floor(addr / TWO32) >>> 0;
  let out = 0;
  let pos = 0;
  for (let m = mask.lo; m !== 0; m &= m - 1) {
    const b = 31 - Math.clz32(m & -m);
    if ((lo >>> b) & 1) out += POW2[pos]!;
    pos++;
  }
  for (let m = mask.hi; m !== 0; m &= m - 1) {
    const b = 31 - Math.clz32(m & -m);
    if ((hi >>> b) & 1) out += POW2[pos]!;
    pos++;
  }
  return out;
}

/** The place values (2 ** bit) of the bits under `mask`, highest first: what removeBits takes. */
function removedBits(mask: BitMask): number[] {
  const out: number[] = [];
  for (let b = 63; b >= 0; b--) if (((b < 32 ? mask.lo >>> b : mask.hi >>> (b - 32)) & 1) !== 0) out.push(2 ** b);
  return out;
}

/**
 * The address with the bits at `removed` (removedBits: place values, highest first) removed and
 * the bits above each moved down. Highest first, so a removal never moves a bit still to remove;
 * exact for addresses below 2^53. One step per removed bit, not per address bit (issue 25: this
 * runs for every L2 access).
 */
function removeBits(addr: number, removed: readonly number[]): number {
  let a = addr;
  for (let i = 0; i < removed.length; i++) {
    const p = removed[i]!;
    const above = Math.floor(a / p);
    // a - above * p is a % p (exact: p is a power of two), without a floating-point modulo.
    a = Math.floor(above / 2) * p + (a - above * p);
  }
  return a;
}
