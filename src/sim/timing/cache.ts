/**
 * A set-associative cache tag array (LRU or FIFO replacement, dirty bits) with its MSHR table and
 * access statistics split by source (shader vs RT unit) and outcome (hit, hit on a pending miss,
 * compulsory miss, capacity/conflict miss, reservation failure) -- the data behind Vulkan-Sim
 * Fig. 14. Used for L1D, the dedicated RT cache, L2 banks and the instruction cache.
 *
 * Lines are named by their line id (sector-ids.ts: the id of their first 32-byte sector, a small
 * integer), not their byte address; the set index is computed from the byte address the id stands
 * for, as GPGPU-Sim computes it, so the numbering changes no statistic.
 *
 * Invariants:
 * - `frameOf` maps exactly the valid lines to their frame and every other line ever filled to
 *   ABSENT; a line is in at most one frame.
 * - Each set's frames form one recency list; the tail is the next victim.
 * - Lines are allocated at fill time (the MSHR holds the miss until then).
 * - A miss is compulsory until the line has been filled into this cache once.
 */
import type { CacheGeometry } from '../config/cache-config.js';
import { ConfigError } from '../config/config-error.js';
import { hashIndex } from './index-hash.js';
import { ABSENT, LineFrameTable, NEVER } from './line-frame-table.js';
import { type MemRequest, ReqSource } from './mem-request.js';
import { SECTOR_BYTES, SectorIds } from './sector-ids.js';
import { SectorMap } from './sector-map.js';

export const enum AccessOutcome {
  Hit = 0,
  HitReserved = 1,
  MissCompulsory = 2,
  MissCapacityConflict = 3,
  ReservationFail = 4,
  /** Sectored caches: the line is here but a needed sector is not readable (GPGPU-Sim SECTOR_MISS). */
  MissSector = 5,
}
export const OUTCOME_NAMES = ['hit', 'hit_reserved', 'miss_compulsory', 'miss_capacity_conflict', 'reservation_fail', 'miss_sector'] as const;
export const OUTCOMES = OUTCOME_NAMES.length;

/** Every word of a 128-byte line (32-bit word mask). */
export const ALL_WORDS = 0xffffffff;

/** The 4-bit mask of the 32-byte sectors a 32-bit word mask touches. */
export function sectorsOf(words: number): number {
  return (words & 0xff ? 1 : 0) | (words & 0xff00 ? 2 : 0) | (words & 0xff0000 ? 4 : 0) | (words & 0xff000000 ? 8 : 0);
}

/** How many of a line's four sectors the mask `sectors` has. */
export function sectorCount(sectors: number): number {
  return (sectors & 1) + ((sectors >> 1) & 1) + ((sectors >> 2) & 1) + ((sectors >> 3) & 1);
}

/** The word mask of whole sectors. */
export function wordsOfSectors(sectors: number): number {
  return ((sectors & 1 ? 0xff : 0) | (sectors & 2 ? 0xff00 : 0) | (sectors & 4 ? 0xff0000 : 0) | (sectors & 8 ? 0xff000000 : 0)) >>> 0;
}

/** Why an access was refused (GPGPU-Sim cache_reservation_fail_reason). */
export const enum FailCause {
  /** No free MSHR entry (MSHR_ENRTY_FAIL). */
  MshrEntry = 0,
  /** The sector's MSHR entry already merges its maximum (MSHR_MERGE_ENRTY_FAIL). */
  MshrMerge = 1,
  /** The miss queue is full (MISS_QUEUE_FULL). */
  MissQueue = 2,
}
export const FAIL_CAUSE_NAMES = ['mshr_entry', 'mshr_merge', 'miss_queue'] as const;

export class CacheStats {
  /** [source * OUTCOMES + outcome] */
  readonly counts = new Float64Array(2 * OUTCOMES);
  /** Reservation failures by `FailCause`, where the cache reports them (the L2 banks). */
  readonly failCauses = new Float64Array(FAIL_CAUSE_NAMES.length);
  /** Requests this cache sent to the level below: [reads, writes] (an L1D's packets into the interconnect). */
  readonly sentBelow = new Float64Array(2);
  count(source: ReqSource, outcome: AccessOutcome): void {
    this.counts[source * OUTCOMES + outcome]!++;
  }
  get(source: ReqSource, outcome: AccessOutcome): number {
    return this.counts[source * OUTCOMES + outcome]!;
  }
  /** Accesses excluding reservation failures (those are retried and counted again), as GPGPU-Sim's get_sub_stats. */
  accesses(): number {
    let n = 0;
    for (let s = 0; s < 2; s++) for (let o = 0; o < OUTCOMES; o++) if (o !== AccessOutcome.ReservationFail) n += this.counts[s * OUTCOMES + o]!;
    return n;
  }
  /** MISS + SECTOR_MISS, as GPGPU-Sim counts misses. */
  misses(): number {
    let n = 0;
    for (let s = 0; s < 2; s++) n += this.counts[s * OUTCOMES + 2]! + this.counts[s * OUTCOMES + 3]! + this.counts[s * OUTCOMES + 5]!;
    return n;
  }
  add(o: CacheStats): void {
    for (let i = 0; i < this.counts.length; i++) this.counts[i]! += o.counts[i]!;
    for (let i = 0; i < this.failCauses.length; i++) this.failCauses[i]! += o.failCauses[i]!;
    this.sentBelow[0]! += o.sentBelow[0]!;
    this.sentBelow[1]! += o.sentBelow[1]!;
  }
}

/** A line a fill evicted: `line` is its line id; `dirtySectors` its modified 32 B sectors (all four when not sectored). */
export interface Eviction {
  line: number;
  dirty: boolean;
  dirtySectors: number;
}

/**
 * What a dirty eviction writes back: GPGPU-Sim's sectored blocks send only their MODIFIED sectors
 * (sector_cache_block::get_modified_size, 32 B each), a line cache block the whole line.
 */
export function writebackBytes(ev: Eviction, sectored: boolean, lineBytes: number): { bytes: number; words: number } {
  if (!sectored) return { bytes: lineBytes, words: 0xffffffff };
  const s = ev.dirtySectors;
  return { bytes: 32 * sectorCount(s), words: wordsOfSectors(s) };
}

export class Cache {
  readonly lineBytes: number;
  private readonly sets: number;
  private readonly ways: number;
  private readonly lru: boolean;
  /** Per frame: the line id held, -1 when invalid. */
  private readonly tags: Int32Array;
  /** Per frame: its modified sectors (bit k = sector k; 0xf for a dirty line of a cache that is not sectored). */
  private readonly dirty: Uint8Array;
  /** Sectored caches track readability per 32-byte sector (`sectored` false: whole lines). */
  private readonly sectored: boolean;
  /** Per frame: sectors filled from below (readable). */
  private readonly filled: Uint8Array;
  /** Per frame: words written here (the line holds data while any are). */
  private readonly written: Uint32Array;
  /**
   * Per frame: sectors that one write covered whole, readable without a fetch (GPGPU-Sim
   * `wr_miss_wa_lazy_fetch_on_read` sets a sector readable only when that write's byte mask is the
   * whole atom; partial writes do not add up, so a sector written word by word stays unreadable
   * until a read fetches it).
   */
  private readonly wholeWritten: Uint8Array;
  /** Per-set recency list over frames: head = most recent, tail = victim (invalid frames sit at the tail). */
  private readonly prev: Int32Array;
  private readonly next: Int32Array;
  private readonly head: Int32Array;
  private readonly tail: Int32Array;
  /** The frame of each valid line; ABSENT for the other lines ever filled (the compulsory / capacity split). */
  private readonly frameOf: LineFrameTable;
  readonly stats = new CacheStats();
  /** Outstanding misses by MSHR key (`mshrKeyOf`). */
  readonly mshr: SectorMap<MemRequest>;

  private readonly linearSets: boolean;
  private readonly lineLog2: number;
  /** Sector ids per line, less one: a line id is a sector id with these bits clear. */
  private readonly lineIdMask: number;
  /** The eviction `fill` returns (reused: valid until the next fill). */
  private readonly eviction: Eviction = { line: 0, dirty: false, dirtySectors: 0 };
  /** What the last `allocate` evicted: `eviction`, or undefined. */
  private evicted: Eviction | undefined = undefined;

  /**
   * `ids`: the numbering of the byte addresses this cache's line ids stand for (one for the whole
   * memory side: an L1's line id is the L2's). `indexAddress`: the address the set index is
   * computed from, given the line id (the L2 of a sub-partition uses the partition address of
   * the line's byte address, GPGPU-Sim l2_cache_config::set_index); the tag stays the full line.
   */
  constructor(readonly geometry: CacheGeometry, readonly ids = new SectorIds(), private readonly indexAddress?: (line: number) => number) {
    this.lineBytes = geometry.lineBytes;
    if (this.lineBytes < SECTOR_BYTES) {
      throw new ConfigError(`cache line size ${this.lineBytes} bytes: the timing model's caches need lines of at least ${SECTOR_BYTES} bytes (its 32-byte sectors)`, 'cache');
    }
    this.lineLog2 = Math.log2(geometry.lineBytes);
    const idsPerLineLog2 = this.lineLog2 - Math.log2(SECTOR_BYTES);
    this.lineIdMask = (1 << idsPerLineLog2) - 1;
    this.linearSets = geometry.setIndex === 'linear' && indexAddress === undefined;
    this.sets = geometry.sets;
    this.ways = geometry.ways;
    this.lru = geometry.replacement === 'lru';
    const frames = this.sets * this.ways;
    this.frameOf = new LineFrameTable(2 * frames, idsPerLineLog2);
    this.mshr = new SectorMap<MemRequest>(2 * geometry.mshrEntries);
    this.tags = new Int32Array(frames).fill(-1);
    this.dirty = new Uint8Array(frames);
    this.sectored = geometry.sectored && geometry.lineBytes === 128;
    this.filled = new Uint8Array(frames);
    this.written = new Uint32Array(frames);
    this.wholeWritten = new Uint8Array(frames);
    this.prev = new Int32Array(frames);
    this.next = new Int32Array(frames);
    this.head = new Int32Array(this.sets);
    this.tail = new Int32Array(this.sets);
    for (let s = 0; s < this.sets; s++) {
      const base = s * this.ways;
      for (let w = 0; w < this.ways; w++) {
        this.prev[base + w] = w === 0 ? -1 : base + w - 1;
        this.next[base + w] = w === this.ways - 1 ? -1 : base + w + 1;
      }
      this.head[s] = base;
      this.tail[s] = base + this.ways - 1;
    }
  }

  /** The line id of the line holding sector `id`. */
  lineOf(id: number): number {
    return id & ~this.lineIdMask;
  }

  /** The line id of the line holding byte address `addr`. */
  lineIdOf(addr: number): number {
    return this.ids.idOf(addr) & ~this.lineIdMask;
  }

  private setOf(line: number): number {
    if (this.sets === 1) return 0;
    if (this.linearSets) return Math.floor(this.ids.addressOf(line) / this.lineBytes) % this.sets;
    return hashIndex(this.geometry.setIndex, this.indexAddress ? this.indexAddress(line) : this.ids.addressOf(line), this.sets, this.lineLog2);
  }

  /** The set frame f belongs to (frames are laid out set by set): no hashing of the line on a hit. */
  private setOfFrame(f: number): number {
    return Math.floor(f / this.ways);
  }

  /** Moves frame f to the most-recent end of its set's list. */
  private touch(set: number, f: number): void {
    if (this.head[set] === f) return;
    const p = this.prev[f]!;
    const n = this.next[f]!;
    this.next[p] = n;
    if (n >= 0) this.prev[n] = p;
    else this.tail[set] = p;
    this.prev[f] = -1;
    this.next[f] = this.head[set]!;
    this.prev[this.head[set]!] = f;
    this.head[set] = f;
  }

  /** True on hit (and updates recency under LRU); does not count stats. */
  probe(line: number): boolean {
    const f = this.frameOf.get(line);
    if (f < 0) return false;
    if (this.lru) this.touch(this.setOfFrame(f), f);
    return true;
  }

  /**
   * Classifies an access that missed in the tags: compulsory if the line was never filled into
   * this cache, else capacity/conflict (it was here and got evicted).
   */
  missKind(line: number): AccessOutcome {
    return this.frameOf.get(line) === NEVER ? AccessOutcome.MissCompulsory : AccessOutcome.MissCapacityConflict;
  }

  /**
   * Sector-aware lookup of the words an access needs (GPGPU-Sim tag_array::probe): Hit when the
   * line is here and every sector touched is readable (filled, or written whole by one write),
   * MissSector when the line is here but a touched sector is not, else the line's miss kind.
   * Updates recency when the line is here. Non-sectored caches look at whole lines.
   */
  lookup(line: number, words: number): AccessOutcome {
    const f = this.frameOf.get(line);
    if (f < 0) return f === NEVER ? AccessOutcome.MissCompulsory : AccessOutcome.MissCapacityConflict;
    if (this.lru) this.touch(this.setOfFrame(f), f);
    if (!this.sectored) return AccessOutcome.Hit;
    const need = sectorsOf(words);
    return (need & ~this.readable(f)) === 0 ? AccessOutcome.Hit : AccessOutcome.MissSector;
  }

  private readable(f: number): number {
    return this.filled[f]! | this.wholeWritten[f]!;
  }

  /** Sectors of `words` this line lacks (all of them when the line is absent). */
  missingSectors(line: number, words: number): number {
    const need = this.sectored ? sectorsOf(words) : 0xf;
    const f = this.frameOf.get(line);
    if (f < 0) return need;
    return this.sectored ? need & ~this.readable(f) : 0;
  }

  /** Fills the sectors of `words` (allocating the line if absent); returns the evicted line, if any. */
  fillWords(line: number, words: number, dirty: boolean): Eviction | undefined {
    const f = this.allocate(line, dirty ? this.sectorMask(words) : 0);
    this.filled[f]! |= this.sectored ? sectorsOf(words) : 0xf;
    return this.evicted;
  }

  /** Writes `words` into the line (allocating it, without fetching, if absent: lazy fetch-on-read). */
  writeWords(line: number, words: number): Eviction | undefined {
    const f = this.allocate(line, this.sectorMask(words));
    this.written[f]! |= words;
    this.wholeWritten[f]! |= ((words & 0xff) === 0xff ? 1 : 0) | ((words & 0xff00) === 0xff00 ? 2 : 0)
      | ((words & 0xff0000) === 0xff0000 ? 4 : 0) | ((words >>> 24) === 0xff ? 8 : 0);
    if (!this.sectored) this.filled[f] = 0xf;
    return this.evicted;
  }

  /** Write-evict of the sectors of `words` (GPGPU-Sim wr_hit_we: block->set_status(INVALID, sector mask)). */
  invalidateWords(line: number, words: number): void {
    if (!this.sectored) {
      this.invalidate(line);
      return;
    }
    const f = this.frameOf.get(line);
    if (f < 0) return;
    const s = sectorsOf(words);
    this.filled[f]! &= ~s;
    this.dirty[f]! &= ~s;
    this.written[f] = (this.written[f]! & ~wordsOfSectors(s)) >>> 0;
    this.wholeWritten[f]! &= ~s;
    if (this.filled[f] === 0 && this.written[f] === 0) this.invalidate(line);
  }

  /** The sectors of `words` (an atomic's) are modified in place. */
  markDirty(line: number, words: number): void {
    const f = this.frameOf.get(line);
    if (f >= 0) this.dirty[f]! |= this.sectorMask(words);
  }

  /** The sectors `words` touch, or the whole line in a cache that is not sectored. */
  private sectorMask(words: number): number {
    return this.sectored ? sectorsOf(words) : 0xf;
  }

  /**
   * Drops `line` if present (write-evict). Its frame becomes the set's next victim, as an invalid
   * frame is; a later miss of the line counts as capacity/conflict (it was here).
   */
  invalidate(line: number): void {
    const f = this.frameOf.get(line);
    if (f < 0) return;
    this.frameOf.set(line, ABSENT);
    this.tags[f] = -1;
    this.dirty[f] = 0;
    this.filled[f] = 0;
    this.written[f] = 0;
    this.wholeWritten[f] = 0;
    const set = this.setOfFrame(f);
    // Move the frame to the tail (next victim).
    if (this.tail[set] !== f) {
      const p = this.prev[f]!;
      const n = this.next[f]!;
      if (p >= 0) this.next[p] = n;
      else this.head[set] = n;
      this.prev[n] = p;
      const t = this.tail[set]!;
      this.next[t] = f;
      this.prev[f] = t;
      this.next[f] = -1;
      this.tail[set] = f;
    }
  }

  /** Allocates `line` (no-op if present); returns the evicted valid line, if any (an object reused by the next fill). */
  fill(line: number, dirty: boolean): Eviction | undefined {
    this.allocate(line, dirty ? 0xf : 0);
    return this.evicted;
  }

  /** `fill`, returning the line's frame; what it evicted is left in `evicted`. */
  private allocate(line: number, dirtySectors: number): number {
    const present = this.frameOf.get(line);
    this.evicted = undefined;
    if (present >= 0) {
      this.dirty[present]! |= dirtySectors;
      return present;
    }
    const set = this.setOf(line);
    const victim = this.tail[set]!;
    if (this.tags[victim] !== -1) {
      const ev = (this.evicted = this.eviction);
      ev.line = this.tags[victim]!;
      ev.dirtySectors = this.dirty[victim]!;
      ev.dirty = ev.dirtySectors !== 0;
      this.frameOf.set(ev.line, ABSENT);
    }
    this.tags[victim] = line;
    this.dirty[victim] = dirtySectors;
    this.filled[victim] = this.sectored ? 0 : 0xf;
    this.written[victim] = 0;
    this.wholeWritten[victim] = 0;
    this.frameOf.set(line, victim);
    // Both LRU and FIFO insert at the most-recent end; only LRU moves a line again on a hit.
    this.touch(set, victim);
    return victim;
  }

  /**
   * The MSHR entry a miss of `words` in `line` takes: the line, or in a sectored cache its first
   * sector's id (GPGPU-Sim's SECTOR_ASSOC MSHRs are per 32 B sector).
   */
  mshrKeyOf(line: number, words: number): number {
    if (!this.sectored || words === 0) return line;
    return line + ((31 - Math.clz32(words & -words)) >> 3);
  }

  /** True if an MSHR entry can be allocated for a new line. */

  mshrFree(): boolean {
    return this.mshr.size < this.geometry.mshrEntries;
  }

  /** True if one more waiter may merge into the pending miss of `line`. */
  mshrCanMerge(req: MemRequest): boolean {
    return (req.waiters?.length ?? 0) < this.geometry.mshrMaxMerge;
  }

  /**
   * Drops every line: the flush between two launches (gpgpu_flush_l1_cache / gpgpu_flush_l2_cache),
   * taken when the memory system has drained. Returns the lines that were dirty; their write-back
   * is not timed (GPGPU-Sim's flush between kernels takes no cycles either).
   */
  invalidateAll(): number {
    let dirty = 0;
    for (let f = 0; f < this.tags.length; f++) {
      const line = this.tags[f]!;
      if (line === -1) continue;
      if (this.dirty[f] !== 0) dirty++;
      this.invalidate(line);
    }
    return dirty;
  }
}
