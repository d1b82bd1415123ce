/**
 * Address decoding: which memory channel, L2 sub-partition, DRAM bank and row a byte address
 * lives in. Consecutive 256 B chunks interleave across channels (with a skew from the higher bits
 * so power-of-two strides do not camp on one channel); inside a chunk, 128 B lines alternate
 * between the channel's sub-partitions.
 *
 * Invariant: a pure function of the address and the configuration (determinism).
 */
export interface AddressMap {
  channels: number;
  subPerChannel: number;
  banks: number;
  rowBytes: number;
}

const CHUNK = 256;

export function channelOf(m: AddressMap, addr: number): number {
  const chunk = Math.floor(addr / CHUNK);
  const skew = Math.floor(chunk / (m.channels * 64));
  return (chunk + skew) % m.channels;
}

/** Global sub-partition index: channel * subPerChannel + sub. */
export function subPartitionOf(m: AddressMap, addr: number): number {
  const sub = Math.floor(addr / 128) % m.subPerChannel;
  return channelOf(m, addr) * m.subPerChannel + sub;
}

/** Index of the 256 B chunk inside its channel. */
function localChunk(m: AddressMap, addr: number): number {
  return Math.floor(Math.floor(addr / CHUNK) / m.channels);
}

export function bankOf(m: AddressMap, addr: number): number {
  return localChunk(m, addr) % m.banks;
}

export function rowOf(m: AddressMap, addr: number): number {
  const chunksPerRow = Math.max(1, Math.floor(m.rowBytes / CHUNK));
  return Math.floor(localChunk(m, addr) / m.banks / chunksPerRow);
}
