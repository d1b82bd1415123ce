/**
 * One memory request as it travels SM -> L1 -> interconnect -> L2 -> DRAM and back, and the
 * waiters it wakes when it returns.
 *
 * Invariants: `line` is the line id (sector-ids.ts) of the line the request reads or writes, an
 * L1 line from the SMs, an L2 line toward DRAM; `bytes` is the data moved (sectors x 32 or the
 * chunk); `waiters` is null for stores (fire-and-forget).
 *
 * Lifetime: requests are reused (issue 25.2: one object per L1 miss, L2 fill and write-back was
 * the timing model's largest allocation). The last holder of a request releases it, and nothing
 * references it after that: the L1 that takes its reply (after waking its waiters), the L2 bank
 * that takes its DRAM fill, the DRAM channel that completes a write.
 */
import { truncate } from './truncate.js';

export const enum ReqKind {
  Load = 0,
  Store = 1,
  Atomic = 2,
}

/** Who issued the access, for the Fig. 14 cache breakdown. */
export const enum ReqSource {
  Shader = 0,
  Rt = 1,
}

/**
 * Something that is told when a response arrives: an SM warp slot or an RT-unit chunk. It gets
 * its own waiter object back, so a client can make the waiter carry its state (no lookup table).
 */
export interface MemClient {
  onResponse(waiter: Waiter, now: number): void;
  /**
   * A hit answered in the cycle of the access, inside the access call (Vulkan-Sim's RT unit:
   * `rt_unit::process_cache_access` handles a HIT at once); a client without it gets `onResponse`.
   */
  onHit?(waiter: Waiter, now: number): void;
}

export interface Waiter {
  client: MemClient;
  tag: number;
}

export interface MemRequest {
  /** The line id (sector-ids.ts: a small integer; the address map decodes the byte address it stands for). */
  line: number;
  bytes: number;
  /** The 4-byte words of the line `addr` the request reads or writes (cache.ts ALL_WORDS: the whole line). */
  words: number;
  kind: ReqKind;
  source: ReqSource;
  /** Issuing SM (reply destination). */
  sm: number;
  /** Destination memory sub-partition (global index). */
  subPartition: number;
  waiters: Waiter[] | null;
  /** Cycle the request left the L1 (for latency stats). */
  sentAt: number;
  /** Cycle the request was made (a shader load: its entry into the L1D latency pipeline), for mem-latency-stats.ts. */
  createdAt: number;
  /** Cycle the L2 pushed its reply into the network. */
  returnAt: number;
  /** A load that bypasses the L1 (no MSHR, no fill): treelet queues' ray data (paper 001 Sec. 4.2). */
  uncached: boolean;
  /** The MSHR entry it holds: the line, or in a sectored cache its first sector's id (GPGPU-Sim SECTOR_ASSOC MSHRs); NO_MSHR when none. */
  mshrKey: number;
}

/** `mshrKey` of a request that holds no MSHR entry. */
export const NO_MSHR = -1;

/**
 * A request with every field, always in this order: all requests then share one object shape,
 * so the network, L2 and DRAM code that reads them stays monomorphic (issue 25.2).
 */
export function memRequest(
  line: number, bytes: number, words: number, kind: ReqKind, source: ReqSource, sm: number, subPartition: number,
  waiters: Waiter[] | null, sentAt: number, createdAt: number, returnAt: number, uncached: boolean, mshrKey: number,
): MemRequest {
  const r = freeRequests.pop();
  if (r === undefined) return { line, bytes, words, kind, source, sm, subPartition, waiters, sentAt, createdAt, returnAt, uncached, mshrKey };
  r.line = line;
  r.bytes = bytes;
  r.words = words;
  r.kind = kind;
  r.source = source;
  r.sm = sm;
  r.subPartition = subPartition;
  r.waiters = waiters;
  r.sentAt = sentAt;
  r.createdAt = createdAt;
  r.returnAt = returnAt;
  r.uncached = uncached;
  r.mshrKey = mshrKey;
  return r;
}

/** Released requests and waiter lists, reused by memRequest and waiterList (see the file comment). */
const freeRequests: MemRequest[] = [];
const freeWaiterLists: Waiter[][] = [];

/** A waiter list for a new request: empty, or holding `first`. */
export function waiterList(first: Waiter | null): Waiter[] {
  const l = freeWaiterLists.pop() ?? [];
  if (first !== null) l.push(first);
  return l;
}

/** The request's last holder is done with it (see the file comment). */
export function releaseRequest(r: MemRequest): void {
  if (r.waiters !== null) {
    truncate(r.waiters, 0);
    freeWaiterLists.push(r.waiters);
    r.waiters = null;
  }
  freeRequests.push(r);
}
