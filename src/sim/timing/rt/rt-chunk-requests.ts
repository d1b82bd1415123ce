/**
 * The unique chunk requests of an RT unit's memory scheduler (Vulkan-Sim III-C), shared by the
 * RT unit whatever its traversal policy (rt-unit.ts): a ray's next transaction is split into chunks of
 * `chunkBytes`; a chunk already requested under the same key is merged into that request (one
 * response serves every ray waiting on it), any other chunk takes an MSHR and a place in the
 * memory access queue. A ray gets all of its chunks or none: when the MSHRs or the queue cannot
 * take its fresh chunks, `blocked` is set until a response or a sent request frees room (a
 * transaction larger than all MSHRs still goes when nothing is outstanding). The MSHR limit may be
 * Infinity: then only the queue (and the cache refusing its head) holds rays back.
 *
 * Keys: `chunk index * stride + offset`; stride 1 and offset 0 merge requests across groups
 * (gpgpu_rt_coalesce_warps), stride = the number of groups and offset = the group's entry keep
 * each group's requests apart.
 *
 * Invariants: `mshrUsed` equals the requests issued and not yet answered (`pending.size`); every
 * queued request is pending; a ray's `pendingChunks` counts the requests it still waits on; a
 * released request is referenced by nothing (its response was popped and its rays woken) and is
 * reused by a later `request`, with a fresh tag.
 */
import { LineMap } from '../line-map.js';
import type { MemClient, Waiter } from '../mem-request.js';
import { truncate } from '../truncate.js';

/** A unique chunk request; it is its own cache waiter (client = the RT unit). */
export interface ChunkReq<R> extends Waiter {
  key: number;
  addr: number;
  rays: R[];
}

/** What the scheduler needs of a ray: the group it is scheduled with and its outstanding chunks. */
export interface ChunkRequester {
  warp: unknown;
  pendingChunks: number;
}

/** Merge counters (RtStats). */
export interface MergeCounters {
  mergedInWarp: number;
  mergedAcrossWarps: number;
}

export class RtChunkRequests<R extends ChunkRequester> {
  readonly pending: LineMap<ChunkReq<R>>;
  /** The Memory Access Queue: requests not yet accepted by the cache. */
  readonly memQueue: ChunkReq<R>[] = [];
  mshrUsed = 0;
  /** Set when a ray could not get MSHR / queue space; cleared when either frees up. */
  blocked = false;
  private nextId = 0;
  /** Released requests (`release`), reused: one object per chunk was the RT unit's largest allocation (issue 25.2). */
  private readonly free: ChunkReq<R>[] = [];

  constructor(
    private readonly client: MemClient,
    private readonly chunkBytes: number,
    /** Unique requests outstanding at most; Infinity: no limit (see RtUnit's constructor). */
    private readonly maxMshr: number,
    private readonly queueSize: number,
  ) {
    this.pending = new LineMap<ChunkReq<R>>(1, 2 * Math.min(maxMshr, queueSize));
  }

  /**
   * Requests the chunks of `size` bytes at `address` for `ray` (scheduled with `group`); returns
   * how many it waits on, or -1 (and `blocked`) when the fresh ones do not fit.
   */
  request(ray: R, address: number, size: number, stride: number, offset: number, group: unknown, merges: MergeCounters): number {
    const cb = this.chunkBytes;
    const first = address - (address % cb);
    const last = address + Math.max(1, size) - 1;
    // Count the new requests this ray needs before committing any (all-or-nothing per ray).
    let fresh = 0;
    for (let a = first; a <= last; a += cb) if (!this.pending.has((a / cb) * stride + offset)) fresh++;
    const idle = this.mshrUsed === 0 && this.memQueue.length === 0; // a node larger than the MSHRs still goes
    if (fresh > 0 && !idle && (this.mshrUsed + fresh > this.maxMshr || this.memQueue.length + fresh > this.queueSize)) {
      this.blocked = true;
      return -1;
    }
    let chunks = 0;
    for (let a = first; a <= last; a += cb) {
      const key = (a / cb) * stride + offset;
      let c = this.pending.get(key);
      if (c) {
        if (c.rays.length === 0 || c.rays[0]!.warp === group) merges.mergedInWarp++;
        else merges.mergedAcrossWarps++;
      } else {
        c = this.free.pop();
        if (c === undefined) c = { client: this.client, tag: this.nextId++, key, addr: a, rays: [] };
        else {
          c.tag = this.nextId++;
          c.key = key;
          c.addr = a;
        }
        this.pending.set(key, c);
        this.memQueue.push(c);
        this.mshrUsed++;
      }
      c.rays.push(ray);
      chunks++;
    }
    return chunks;
  }

  /** The cache accepted the queue head. */
  sent(): void {
    this.memQueue.shift();
    this.blocked = false;
  }

  /** A response popped from the Response FIFO: its MSHR is free. */
  answered(c: ChunkReq<R>): void {
    this.pending.delete(c.key);
    this.mshrUsed--;
    this.blocked = false;
  }

  /** The answered request's rays were woken: nothing references it any more. */
  release(c: ChunkReq<R>): void {
    truncate(c.rays, 0);
    this.free.push(c);
  }
}

/** The words of its 128-byte line that a chunk of `bytes` at `addr` covers. */
export function chunkWords(addr: number, bytes: number): number {
  const first = (addr % 128) >> 2;
  const n = Math.min(32 - first, Math.max(1, bytes >> 2));
  return n >= 32 ? 0xffffffff : (((1 << n) - 1) << first) >>> 0;
}
