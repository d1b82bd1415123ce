/**
 * The GPGPU-Sim cache configuration string, e.g. `N:64:128:6,L:L:m:N:H,A:128:8,8` or
 * `S:4:128:64,L:T:m:L:L,A:512:8,16:0,32`:
 *   [N|S:]<nsets>:<line bytes>:<assoc>, <rep>:<write>:<alloc>:<write alloc>[:<set index>],
 *   <mshr type>:<mshr entries>:<max merge>, <miss queue>[:<result fifo>][, <data port width>]
 * The leading sector letter is optional (GPGPU-Sim 3.x strings omit it).
 *
 * Invariants: nsets, line bytes and assoc are positive integers; line bytes is a power of two.
 */
import { ConfigError } from './config-error.js';
import type { SetIndexFunction } from '../timing/index-hash.js';

export type ReplacementPolicy = 'lru' | 'fifo';
/** R read-only, B write-back, T write-through, E write-evict, L local write-back / global write-through. */
export type WritePolicy = 'readOnly' | 'writeBack' | 'writeThrough' | 'writeEvict' | 'localWriteBack';
export type AllocPolicy = 'onMiss' | 'onFill' | 'streaming';
/** N no write-allocate, W write-allocate, F fetch-on-write, L lazy fetch-on-read. */
export type WriteAllocPolicy = 'none' | 'allocate' | 'fetchOnWrite' | 'lazyFetchOnRead';

export interface CacheGeometry {
  /** Sectored (S) caches are modelled at line granularity; traffic is still counted in 32 B sectors. */
  sectored: boolean;
  sets: number;
  lineBytes: number;
  ways: number;
  replacement: ReplacementPolicy;
  write: WritePolicy;
  alloc: AllocPolicy;
  writeAlloc: WriteAllocPolicy;
  mshrEntries: number;
  mshrMaxMerge: number;
  missQueue: number;
  /** The optional fifth letter of the policy group: L linear (default), P IPOLY, H Fermi hash, X bitwise XOR. */
  setIndex: SetIndexFunction;
  /** Bytes the data array moves per cycle (the optional last group; GPGPU-Sim's default is the line size). */
  dataPortWidth: number;
}

/**
 * Cycles a fill occupies the cache's fill port (GPGPU-Sim bandwidth_management::use_fill_port):
 * one atom (a 32 B sector, or the line when not sectored) over the data port width, rounded down,
 * so a port as wide as the atom takes one fill per cycle and a wider one never blocks.
 */
export function fillPortCycles(g: CacheGeometry): number {
  return Math.floor((g.sectored ? 32 : g.lineBytes) / g.dataPortWidth);
}

const REP: Record<string, ReplacementPolicy> = { L: 'lru', F: 'fifo' };
const WR: Record<string, WritePolicy> = { R: 'readOnly', B: 'writeBack', T: 'writeThrough', E: 'writeEvict', L: 'localWriteBack' };
const ALLOC: Record<string, AllocPolicy> = { m: 'onMiss', f: 'onFill', s: 'streaming' };
const WALLOC: Record<string, WriteAllocPolicy> = { N: 'none', W: 'allocate', F: 'fetchOnWrite', L: 'lazyFetchOnRead' };
const SET_INDEX: Record<string, SetIndexFunction> = { L: 'linear', P: 'ipoly', H: 'fermi', X: 'xor' };

/** GPGPU-Sim MAX_DEFAULT_CACHE_SIZE_MULTIBLIER: a streaming cache's MSHR entries per line. */
export const STREAMING_MSHR_MULTIPLIER = 4;
/** GPGPU-Sim MAX_WARP_PER_SM: a streaming cache's MSHR merge limit. */
export const STREAMING_MSHR_MAX_MERGE = 64;

export function cacheBytes(g: CacheGeometry): number {
  return g.sets * g.lineBytes * g.ways;
}

export function parseCacheConfig(text: string, key: string): CacheGeometry {
  const bad = (why: string): never => {
    throw new ConfigError(`${key}: cannot read cache config "${text}": ${why}`, key);
  };
  const groups = text.trim().split(',');
  if (groups.length < 4) bad('expected <sets:line:assoc>,<rep:wr:alloc:walloc>,<mshr:n:merge>,<missq>');
  const geo = groups[0]!.split(':');
  let sectored = false;
  if (geo[0] === 'N' || geo[0] === 'S') {
    sectored = geo[0] === 'S';
    geo.shift();
  }
  if (geo.length !== 3) bad('first group must be [N|S:]<nsets>:<line bytes>:<assoc>');
  const [sets, lineBytes, ways] = geo.map((s) => positiveInt(s, bad));
  if ((lineBytes! & (lineBytes! - 1)) !== 0) bad(`line size ${lineBytes} is not a power of two`);
  const pol = groups[1]!.split(':');
  if (pol.length < 4) bad('second group must be <rep>:<write>:<alloc>:<write alloc>[:<set index>]');
  const replacement = REP[pol[0]!] ?? bad(`unknown replacement policy "${pol[0]}" (L or F)`);
  const write = WR[pol[1]!] ?? bad(`unknown write policy "${pol[1]}" (R, B, T, E or L)`);
  const alloc = ALLOC[pol[2]!] ?? bad(`unknown allocation policy "${pol[2]}" (m, f or s)`);
  const writeAlloc = WALLOC[pol[3]!] ?? bad(`unknown write-allocate policy "${pol[3]}" (N, W, F or L)`);
  const setIndex = pol[4] === undefined ? 'linear' : SET_INDEX[pol[4]] ?? bad(`unknown set index function "${pol[4]}" (L, P, H or X)`);
  if (setIndex === 'ipoly' && ![16, 32, 64].includes(sets!) && sets !== 1) bad(`the IPOLY set index (P) needs 16, 32 or 64 sets, not ${sets}`);
  if (setIndex === 'fermi' && ![32, 64].includes(sets!)) bad(`the Fermi set index hash (H) needs 32 or 64 sets, not ${sets}`);
  const mshr = groups[2]!.split(':');
  if (mshr.length !== 3) bad('third group must be <mshr type>:<entries>:<max merge>');
  let mshrEntries = positiveInt(mshr[1]!, bad);
  let mshrMaxMerge = positiveInt(mshr[2]!, bad);
  if (alloc === 'streaming') {
    // GPGPU-Sim's streaming cache (Volta/Turing L1D, cache_config::init): the tag is shared
    // between line and MSHR entry, so there are as many MSHR entries as lines x 4
    // (MAX_DEFAULT_CACHE_SIZE_MULTIBLIER), x 4 sectors in a sectored cache, each merging up to
    // 64 (MAX_WARP_PER_SM) requests; lines are allocated on fill. The string's own MSHR figures
    // are overridden, as GPGPU-Sim overrides them.
    mshrEntries = sets! * ways! * STREAMING_MSHR_MULTIPLIER * (sectored ? 4 : 1);
    mshrMaxMerge = STREAMING_MSHR_MAX_MERGE;
  }
  const missQueue = positiveInt(groups[3]!.split(':')[0]!, bad);
  const dataPortWidth = groups[4] === undefined || groups[4].trim() === '0' ? lineBytes! : positiveInt(groups[4].trim(), bad);
  if (lineBytes! % dataPortWidth !== 0) bad(`data port width ${dataPortWidth} does not divide the line size ${lineBytes}`);
  return {
    sectored, sets: sets!, lineBytes: lineBytes!, ways: ways!,
    replacement, write, alloc, writeAlloc, mshrEntries, mshrMaxMerge, missQueue, setIndex, dataPortWidth,
  };
}

function positiveInt(s: string, bad: (why: string) => never): number {
  const n = Number(s);
  if (!Number.isInteger(n) || n <= 0) bad(`"${s}" is not a positive integer`);
  return n;
}
