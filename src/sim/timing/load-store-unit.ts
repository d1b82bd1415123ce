/**
 * An SM's LD/ST unit from an issued memory instruction to the L1D (GPGPU-Sim ldst_unit):
 * - `send` expands instruction i's accesses of a warp step into line requests (coalescer.ts; one
 *   request per lane and word for `per_thread` ray tracing state, rt-thread-state.ts) and queues
 *   them (ldst-queue.ts), or refuses the instruction when the queue or the context's load slots
 *   lack room;
 * - `cycle` moves the L1D latency pipelines (l1-latency-queue.ts) and lets queued requests into
 *   them;
 * - load slots track each load (or atomic) instruction in flight: its responses still to come,
 *   its instruction and step. A request carries its load slot as tag, and its waiter (one per
 *   slot) reports the response to the SM (`MemClient.onResponse`), which settles its scoreboard
 *   when `responseArrived` says the load's last response is in.
 *
 * The SM owns the per-context pending counts and the scoreboards; this unit owns the queue, the
 * L1D pipelines, the load slots and, per context, the position of its step's next memory access.
 *
 * Invariants:
 * - Load slot e belongs to context e / LOAD_SLOTS; a slot is free when it holds no step and no
 *   response is left for it.
 * - Instruction i's requests leave for the L1D from the cycle the issue stage gives (`readyFrom`),
 *   never earlier; a refused instruction leaves nothing in the queue and counts nothing.
 * - No allocation per request; a slot's waiter is made once, at its first load.
 */
import type { GpuConfig } from '../config/gpu-config.js';
import type { WarpStep } from '../warp-step.js';
import { coalesce, perComponentRequests, perWordRequestCount } from './coalescer.js';
import { hashIndex } from './index-hash.js';
import type { L1DataCache } from './l1-cache.js';
import { type L1Lookup, L1LatencyQueue } from './l1-latency-queue.js';
import { LdstQueue } from './ldst-queue.js';
import { type MemClient, ReqKind, ReqSource, type Waiter } from './mem-request.js';
import { popcount } from './bit-count.js';
import { perThreadRequests } from './rt-thread-state.js';

/** Load (and atomic) instructions a warp context may have outstanding, each with its own responses and waiter. */
export const LOAD_SLOTS = 16;
/** The instruction of the load slot that carries ray virtualization's state loads. */
const STATE_LOAD = -2;

/** The SM's counters this unit adds to (SmStats). */
export interface LdstCounters {
  /** Cycles the unit stopped at an L1D bank conflict (GPGPU-Sim BK_CONF). */
  l1BankConflicts: number;
  /** Cycles that ended with a ready access still queued (GPGPU-Sim gpgpu_n_stall_shd_mem). */
  ldstStallCycles: number;
  /** Active lanes of memory loads and stores sent. */
  loadThreads: number;
  storeThreads: number;
}

export class LoadStoreUnit {
  private readonly queue = new LdstQueue();
  /** The L1D latency pipelines, one per bank (gpgpu_l1_latency stages). */
  private readonly l1Pipe: L1LatencyQueue;
  private readonly l1Lookup: L1Lookup;
  private readonly bankUnitLog2: number;
  /** Per load slot (context * LOAD_SLOTS + k): responses still to come, the instruction and the step it belongs to. */
  private readonly ldLeft: Int32Array;
  private readonly ldInst: Int32Array;
  private readonly ldStep: (WarpStep | null)[];
  /**
   * One immutable waiter per load slot, made at the slot's first load, so loads allocate nothing
   * after that; most slots (those of ITS contexts never used) never get one, which spares the heap
   * 16 objects per context of every SM.
   */
  private readonly slotWaiter: (Waiter | null)[];
  /** Per context: the index of its step's next memory access, and that access's instruction (-1: none left). */
  private readonly memIdx: Int32Array;
  private readonly nextMemInst: Int32Array;

  /** Set by `send`: the load slot the instruction took (-1: it loads nothing) and the responses it waits for. */
  loadSlot = -1;
  responses = 0;
  /**
   * Set by a `send` that refused the instruction: the queue length at or below which it may fit
   * (its requests, or a lower bound of them, in the room left; 0 for more than the whole queue,
   * which goes once the queue is empty), or -1 when a load slot was missing (one frees only with
   * a load's last response).
   */
  fitsAtQueued = -1;

  constructor(
    private readonly cfg: GpuConfig,
    private readonly l1: L1DataCache,
    private readonly client: MemClient,
    contexts: number,
    private readonly counters: LdstCounters,
    /** Per private block, the block of Vulkan-Sim's allocation it stands for (undefined: each its own). */
    private readonly rtStateBlocks?: Int32Array,
  ) {
    this.l1Pipe = new L1LatencyQueue(cfg.l1Banks.count, cfg.l1Latency);
    this.bankUnitLog2 = Math.log2(cfg.l1Banks.interleaveBytes);
    this.l1Lookup = (sector, bytes, words, kind, slot, local, now) =>
      this.l1.accessSector(sector, bytes, kind, ReqSource.Shader, kind === ReqKind.Store ? null : this.waiterOf(slot), now, local, words);
    this.ldLeft = new Int32Array(contexts * LOAD_SLOTS);
    this.ldInst = new Int32Array(contexts * LOAD_SLOTS);
    this.ldStep = new Array<WarpStep | null>(contexts * LOAD_SLOTS).fill(null);
    this.slotWaiter = new Array<Waiter | null>(contexts * LOAD_SLOTS).fill(null);
    this.memIdx = new Int32Array(contexts);
    this.nextMemInst = new Int32Array(contexts).fill(-1);
  }

  /** Requests queued, not yet in the L1D pipelines. */
  get queued(): number {
    return this.queue.length;
  }

  /** Context c holds `step` (null: none) from its memory access k on. */
  hold(c: number, step: WarpStep | null, k: number): void {
    if (step === null) {
      this.nextMemInst[c] = -1;
      return;
    }
    this.memIdx[c] = k;
    this.nextMemInst[c] = nextMemoryInst(step, k);
  }

  /** The index of context c's next memory access in its step. */
  memoryIndex(c: number): number {
    return this.memIdx[c]!;
  }

  /** A new warp in context c: no load of the warp before is pending for it. */
  clearContext(c: number): void {
    this.ldLeft.fill(0, c * LOAD_SLOTS, (c + 1) * LOAD_SLOTS);
    this.ldStep.fill(null, c * LOAD_SLOTS, (c + 1) * LOAD_SLOTS);
    this.ldInst.fill(0, c * LOAD_SLOTS, (c + 1) * LOAD_SLOTS);
  }

  /**
   * Queues instruction i's accesses of context c's `step` (coalesced); false, with nothing queued,
   * when the queue or the context's load slots lack room. Sets `loadSlot` and `responses`.
   */
  send(c: number, step: WarpStep, i: number): boolean {
    this.loadSlot = -1;
    this.responses = 0;
    if (this.nextMemInst[c] !== i) return true;
    const mem = step.memory;
    let k = this.memIdx[c]!;
    // A load slot for its responses (its waiter tells the scoreboard which load is back).
    let ls = -1;
    for (let j = k; j < mem.length && mem[j]!.instIndex === i; j++) {
      if (mem[j]!.kind === 'store') continue;
      for (let e = c * LOAD_SLOTS, end = e + LOAD_SLOTS; e < end; e++) {
        if (this.ldStep[e] === null && this.ldLeft[e] === 0) {
          ls = e;
          break;
        }
      }
      if (ls < 0) {
        this.fitsAtQueued = -1;
        return false;
      }
      break;
    }
    // Cheap lower bound first: an instruction that cannot fit is retried every cycle, and
    // expanding uncoalesced per-thread accesses into their requests is the expensive part.
    const q = this.queue;
    const queued = q.length;
    if (queued > 0) {
      let least = 0;
      for (let j = k; j < mem.length && mem[j]!.instIndex === i; j++) {
        const a = mem[j]!;
        least += (a.space === 'rtState' && this.cfg.rt.threadState === 'per_thread') || a.space === 'traversal' ? perWordRequestCount(a) : 1;
      }
      if (queued + least > this.cfg.ldstQueueSize) {
        this.fitsAtQueued = Math.max(0, this.cfg.ldstQueueSize - least);
        return false;
      }
    }
    // The requests go straight into the queue, and are taken back if the instruction does not fit.
    let responses = 0;
    let loadLanes = 0;
    let storeLanes = 0;
    for (; k < mem.length && mem[k]!.instIndex === i; k++) {
      const a = mem[k]!;
      if (a.space === 'traversal' && !this.cfg.rt.traversalDataLoads) continue;
      const before = q.length;
      const perThread = a.space === 'rtState' && this.cfg.rt.threadState === 'per_thread';
      const kind = a.kind === 'load' ? ReqKind.Load : a.kind === 'store' ? ReqKind.Store : ReqKind.Atomic;
      q.setAccess(kind, ls >= 0 ? ls : c * LOAD_SLOTS, a.space === 'local' || (a.space === 'rtState' && !perThread));
      if (perThread) perThreadRequests(a, q, this.rtStateBlocks);
      else if (a.space === 'traversal') perComponentRequests(a, q);
      else coalesce(a, q);
      if (kind !== ReqKind.Store) responses += q.length - before;
      // GPGPU-Sim counts active lanes per PTX instruction, and NIR-to-PTX writes one ld / st per
      // 32-bit component (an image access is one instruction): lanes x words sent.
      if (kind === ReqKind.Load) loadLanes += a.space === 'texture' ? popcount(a.laneMask) : perWordRequestCount(a);
      else if (kind === ReqKind.Store) storeLanes += a.space === 'texture' ? popcount(a.laneMask) : perWordRequestCount(a);
    }
    // An instruction with more requests than the whole queue (uncoalesced per-thread accesses of
    // a wide value) still goes when the queue is empty, as it would drain through it in order.
    if (queued > 0 && q.length > this.cfg.ldstQueueSize) {
      this.fitsAtQueued = Math.max(0, this.cfg.ldstQueueSize - (q.length - queued));
      q.dropNewest(q.length - queued);
      return false;
    }
    // The L1D takes one instruction's accesses a cycle: mark where this one starts.
    q.startsInstruction(queued);
    // Counted once the instruction goes (a refused one is retried and would count again).
    this.counters.loadThreads += loadLanes;
    this.counters.storeThreads += storeLanes;
    this.memIdx[c] = k;
    this.nextMemInst[c] = nextMemoryInst(step, k);
    this.responses = responses;
    if (responses > 0) {
      this.ldLeft[ls] = responses;
      this.ldInst[ls] = i;
      this.ldStep[ls] = step;
      this.loadSlot = ls;
    }
    return true;
  }

  /** The requests queued after the first `queuedBefore` (one instruction's) leave for the L1D from cycle `at`. */
  readyFrom(queuedBefore: number, at: number): void {
    this.queue.readyFrom(queuedBefore, at);
  }

  /**
   * A state access of ray virtualization for context c (-1: none): state loads share one load
   * slot of the context (instruction STATE_LOAD), so the warp waits for all of them.
   */
  stateAccess(addr: number, bytes: number, kind: ReqKind, c: number): void {
    let tag = c < 0 ? 0 : c * LOAD_SLOTS;
    if (kind === ReqKind.Load) {
      let e = -1;
      for (let k = c * LOAD_SLOTS, end = k + LOAD_SLOTS; k < end && e < 0; k++) if (this.ldInst[k] === STATE_LOAD && this.ldLeft[k]! > 0) e = k;
      for (let k = c * LOAD_SLOTS, end = k + LOAD_SLOTS; k < end && e < 0; k++) if (this.ldStep[k] === null && this.ldLeft[k] === 0) e = k;
      this.ldInst[e] = STATE_LOAD;
      this.ldLeft[e]!++;
      tag = e;
    }
    this.queue.push(addr, bytes, bytes >= 128 ? 0xffffffff : ((1 << (bytes >> 2)) - 1) >>> 0, kind, tag, false);
  }

  /** A response for load slot `tag`: true when it was the load's last (loadStep / loadInst then name the load until `release`). */
  responseArrived(tag: number): boolean {
    return --this.ldLeft[tag]! === 0;
  }

  /** The step of the load in slot `tag` (null for state loads). */
  loadStep(tag: number): WarpStep | null {
    return this.ldStep[tag]!;
  }

  /** The instruction of the load in slot `tag`. */
  loadInst(tag: number): number {
    return this.ldInst[tag]!;
  }

  /** Frees load slot `tag` after its last response. */
  release(tag: number): void {
    this.ldStep[tag] = null;
    this.ldInst[tag] = 0;
  }

  /**
   * One cycle, in GPGPU-Sim's order (ldst_unit::cycle): the access at stage 0 of each bank's
   * latency pipeline looks up the tags, then queued accesses enter the pipelines, per LD/ST unit
   * at most one per bank each cycle, stopping at the first bank whose last stage is occupied
   * (ldst_unit::process_memory_access_queue_l1cache's BK_CONF with gpgpu_l1_banks), and at the
   * end of an instruction: GPGPU-Sim serves only the instruction in its dispatch register, and the
   * next one enters that register for the next cycle. A cycle that
   * ends with a ready access still queued is a stall (GPGPU-Sim's ldst_unit::cycle counts
   * gpgpu_n_stall_shd_mem when its dispatch register's instruction is not done: bank conflicts
   * and instructions of more accesses than one cycle takes). Returns the number of accesses that
   * left the queue.
   */
  cycle(now: number): number {
    this.l1Pipe.cycle(now, this.l1Lookup);
    const banks = this.cfg.l1Banks;
    const q = this.queue;
    let moved = 0;
    let insts = 0;
    for (let k = 0; k < this.cfg.units.mem * banks.count && q.length > 0; k++) {
      if (q.headReadyAt() > now) break;
      // One instruction per LD/ST unit a cycle (the one in its dispatch register).
      if (moved === 0 || q.headFirst()) {
        if (insts === this.cfg.units.mem) break;
        insts++;
      }
      const addr = q.headAddr();
      const words = q.headWords();
      const bank = banks.count > 1 ? hashIndex(banks.hash, addr + 4 * firstWord(words), banks.count, this.bankUnitLog2) : 0;
      if (!this.l1Pipe.canEnter(bank, now)) {
        this.counters.l1BankConflicts++;
        break;
      }
      this.l1Pipe.enter(bank, this.l1.sectorOf(addr), q.headBytes(), words, q.headKind(), q.headSlot(), q.headLocal(), now);
      q.shift();
      moved++;
    }
    if (q.length > 0 && q.headReadyAt() <= now) this.counters.ldstStallCycles++;
    return moved;
  }

  /** The next cycle the L1D pipelines need a tick (Infinity: empty); a non-empty queue needs every cycle (the caller checks `queued`). */
  nextEvent(now: number): number {
    return this.l1Pipe.nextEvent(now);
  }

  idle(): boolean {
    return this.queue.length === 0 && this.l1Pipe.length === 0;
  }

  private waiterOf(tag: number): Waiter {
    return this.slotWaiter[tag] ?? (this.slotWaiter[tag] = { client: this.client, tag });
  }
}

/** The instruction of the step's memory access k (-1: past its last). */
function nextMemoryInst(step: WarpStep, k: number): number {
  return k < step.memory.length ? step.memory[k]!.instIndex : -1;
}

/** Index of the lowest 4-byte word a word mask touches (0 for an empty mask). */
function firstWord(words: number): number {
  return words === 0 ? 0 : 31 - Math.clz32(words & -words);
}
