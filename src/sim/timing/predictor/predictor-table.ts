/**
 * The predictor table of one SM (paper 002, Section 4.1, Fig. 5): `entries` predictor entries in
 * sets of `ways` (1 = direct-mapped), each a valid bit, a ray-hash tag of `tagBits` and up to
 * `nodesPerEntry` predicted nodes. The set index is the ray hash folded gshare-style to the index
 * width; the tag is the hash's low `tagBits` bits (the paper: 15, the whole 15-bit hash).
 *
 * Replacement (Section 6.1.3): of entries within a set and of nodes within an entry, by LRU, LFU
 * or LRU-K (K = 2: the victim is the one whose second most recent use is oldest; one used only
 * once goes first), each with its own policy. Ties go to the lowest way / slot.
 *
 * Invariants: at most one valid entry per (set, tag); an entry's nodes are distinct.
 */
import type { ReplacementPolicy } from '../../config/predictor-config.js';
import { foldHash } from './ray-hash.js';

export interface PredictorTableParams {
  entries: number;
  ways: number;
  nodesPerEntry: number;
  tagBits: number;
  /** Bits of the ray hash (3n). */
  hashBits: number;
  entryReplacement: ReplacementPolicy;
  nodeReplacement: ReplacementPolicy;
}

/** A predicted node: (acceleration structure id, node, instance). */
export interface PredictedNode {
  accel: number;
  node: number;
  instance: number;
}

/** Use history of an entry or a node slot. */
interface Use {
  last: number;
  previous: number;
  count: number;
}

interface Entry extends Use {
  valid: boolean;
  tag: number;
  nodes: (PredictedNode & Use)[];
}

const LRU_K_NEVER = -Infinity;

function victim(items: readonly Use[], policy: ReplacementPolicy): number {
  let best = 0;
  const key = (u: Use): number => (policy === 'lru' ? u.last : policy === 'lfu' ? u.count : u.previous);
  for (let i = 1; i < items.length; i++) {
    const a = items[i]!, b = items[best]!;
    const ka = key(a), kb = key(b);
    // LFU breaks frequency ties by recency; LRU-K breaks ties (never used twice) by recency.
    if (ka < kb || (ka === kb && a.last < b.last)) best = i;
  }
  return best;
}

function touch(u: Use, now: number): void {
  u.previous = u.last;
  u.last = now;
  u.count++;
}

export class PredictorTable {
  private readonly sets: Entry[][];
  private readonly indexBits: number;
  private readonly tagMask: number;
  /** Logical clock of uses (recency order). */
  private clock = 0;

  constructor(readonly params: PredictorTableParams) {
    const nSets = Math.max(1, Math.floor(params.entries / params.ways));
    this.indexBits = Math.round(Math.log2(nSets));
    this.tagMask = params.tagBits >= 31 ? 0x7fffffff : (1 << params.tagBits) - 1;
    this.sets = Array.from({ length: nSets }, () =>
      Array.from({ length: params.ways }, (): Entry => ({ valid: false, tag: 0, nodes: [], last: LRU_K_NEVER, previous: LRU_K_NEVER, count: 0 })));
  }

  private setOf(hash: number): Entry[] {
    return this.sets[foldHash(hash, this.params.hashBits, this.indexBits)]!;
  }

  private find(hash: number): Entry | undefined {
    const tag = hash & this.tagMask;
    for (const e of this.setOf(hash)) if (e.valid && e.tag === tag) return e;
    return undefined;
  }

  /** The predicted nodes for `hash` (most recent use recorded), or undefined on a tag miss. */
  lookup(hash: number): readonly PredictedNode[] | undefined {
    const e = this.find(hash);
    if (!e || e.nodes.length === 0) return undefined;
    const now = ++this.clock;
    touch(e, now);
    for (const n of e.nodes) touch(n, now);
    return e.nodes;
  }

  /** Records that a ray of `hash` intersected under `node`. */
  update(hash: number, node: PredictedNode): void {
    const now = ++this.clock;
    let e = this.find(hash);
    if (!e) {
      const set = this.setOf(hash);
      const free = set.findIndex((x) => !x.valid);
      e = set[free >= 0 ? free : victim(set, this.params.entryReplacement)]!;
      e.valid = true;
      e.tag = hash & this.tagMask;
      e.nodes = [];
      e.last = LRU_K_NEVER; e.previous = LRU_K_NEVER; e.count = 0;
    }
    touch(e, now);
    const same = e.nodes.find((n) => n.accel === node.accel && n.node === node.node && n.instance === node.instance);
    if (same) {
      touch(same, now);
      return;
    }
    const slot = { ...node, last: now, previous: LRU_K_NEVER, count: 1 };
    if (e.nodes.length < this.params.nodesPerEntry) e.nodes.push(slot);
    else e.nodes[victim(e.nodes, this.params.nodeReplacement)] = slot;
  }

  /** Every node held by a valid entry (oracle lookup chooses among them). */
  *nodes(): IterableIterator<PredictedNode> {
    for (const set of this.sets) for (const e of set) if (e.valid) yield* e.nodes;
  }

  /** Storage in bits: per entry a valid bit, the tag and `nodesPerEntry` node indices of `nodeBits`. */
  storageBits(nodeBits = 27): number {
    return this.params.entries * (1 + this.params.tagBits + this.params.nodesPerEntry * nodeBits);
  }
}
