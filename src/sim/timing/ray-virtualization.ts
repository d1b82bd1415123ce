/**
 * Ray virtualization (paper 001 Sec. 3.1, 4.1, 5): a CTA whose every warp has issued its traceRay
 * to the RT unit is terminated; its state (each thread's registers and each warp's SIMT stack) is
 * stored to memory and its SM slots, CTA slot and registers are reclaimed for new CTAs. When all
 * rays of the terminated CTA have finished, the RT unit injects it back into the CTA scheduler,
 * which resumes it (before any new CTA) on an SM with room; the SM loads the saved state before
 * the warps continue. The functional state of a warp never leaves its `TimingWarp`, so a resumed
 * CTA computes exactly what it would have: only timing and memory traffic change.
 *
 * `RayVirtualization` is the GPU-wide table of terminated CTAs (the kernel management unit's
 * table of CTA ids, state addresses and sizes) and the queue of CTAs ready to resume.
 * `CtaSuspension` is one SM's side: the RT tickets of its resident warps, which CTAs to terminate,
 * and the save / restore traffic; it works on the SM's slot tables through `CtaSlots` (sm.ts), so
 * the SM itself only evicts and restores slots.
 *
 * Invariants: a CTA is either resident on one SM, suspended, or ready to resume; a suspended CTA
 * becomes ready exactly once, when its last outstanding traceRay completes; `stateAddress` regions
 * of live CTAs never overlap; a resident warp's traceRay ticket is in `tokenSlot` from its
 * acceptance until it completes or its CTA is terminated.
 */
import type { GpuConfig } from '../config/gpu-config.js';
import type { TimingWarp } from './sm.js';
import type { WarpStep } from '../warp-step.js';
import { ReqKind } from './mem-request.js';

/** Where terminated CTAs' state is saved. */
export const CTA_STATE_BASE = 2 ** 49;

/** What an SM slot holds of a warp between its instructions (saved when its CTA is terminated). */
export interface SlotState {
  warp: TimingWarp;
  step: WarpStep | null;
  instIdx: number;
  memIdx: number;
  lastStep: number;
}

/** One warp of a terminated CTA: what the SM slot held. */
export interface SavedWarp extends SlotState {
  /** The RT-unit ticket of its traceRay. */
  token: number;
}

export interface SuspendedCta {
  cta: number;
  warps: SavedWarp[];
  /** traceRays of its warps not yet completed. */
  outstanding: number;
  /** Saved state region (registers + SIMT stacks). */
  stateAddress: number;
  stateBytes: number;
}

export class VirtualizationStats {
  ctasSuspended = 0;
  ctasResumed = 0;
  /** Bytes of CTA state stored and loaded. */
  savedBytes = 0;
  restoredBytes = 0;
  /** Peak CTAs suspended at once. */
  peakSuspended = 0;
  /** Register words saved per thread. */
  registersPerThread = 0;
}

export class RayVirtualization {
  private readonly byToken = new Map<number, SuspendedCta>();
  private readonly ready: SuspendedCta[] = [];
  private suspended = 0;
  private nextState = 0;
  private readonly freeStates: number[] = [];
  readonly stats = new VirtualizationStats();
  /** Bytes of state per warp: registers of 32 threads + the SIMT stack. */
  readonly warpStateBytes: number;

  /** `savedRegisters`: register words saved per thread (from liveness, or the ptxas-style count). */
  constructor(private readonly cfg: GpuConfig, readonly savedRegisters: number) {
    this.warpStateBytes = cfg.warpSize * savedRegisters * 4 + cfg.treelet.simtStackBytes;
    this.stats.registersPerThread = savedRegisters;
  }

  /** The region for a CTA of up to the SM's warps (reused after the CTA resumes). */
  allocateState(): number {
    const slot = this.freeStates.pop() ?? this.nextState++;
    return CTA_STATE_BASE + slot * this.cfg.maxWarpsPerSm * this.warpStateBytes;
  }

  suspend(rec: SuspendedCta): void {
    for (const w of rec.warps) this.byToken.set(w.token, rec);
    this.suspended++;
    this.stats.ctasSuspended++;
    this.stats.savedBytes += rec.stateBytes;
    this.stats.peakSuspended = Math.max(this.stats.peakSuspended, this.suspended);
  }

  /** The RT unit finished a traceRay; true if it belonged to a suspended CTA. */
  traceDone(token: number): boolean {
    const rec = this.byToken.get(token);
    if (!rec) return false;
    this.byToken.delete(token);
    if (--rec.outstanding === 0) this.ready.push(rec);
    return true;
  }

  /** The oldest CTA ready to resume, without removing it. */
  peekReady(): SuspendedCta | undefined {
    return this.ready[0];
  }

  /** Removes the CTA peekReady returned (it is being resumed on an SM). */
  takeReady(): SuspendedCta {
    const rec = this.ready.shift()!;
    this.suspended--;
    this.stats.ctasResumed++;
    this.stats.restoredBytes += rec.stateBytes;
    this.freeStates.push((rec.stateAddress - CTA_STATE_BASE) / (this.cfg.maxWarpsPerSm * this.warpStateBytes));
    return rec;
  }

  /** No CTA suspended or waiting to resume. */
  idle(): boolean {
    return this.suspended === 0;
  }
}

/** What ray virtualization needs of an SM's slot tables (sm.ts implements it). */
export interface CtaSlots {
  /** The resident CTAs (iterable while one of them is evicted). */
  ctas(): Iterable<number>;
  /** The slots of a resident CTA's warps, in slot order. */
  ctaSlots(cta: number): number[];
  /** The warp in `slot` has handed its traceRay to the RT unit and waits for nothing else (no ITS splits, no loads). */
  waitsOnlyInRt(slot: number): boolean;
  /** Takes a CTA's warps out of their slots and frees its CTA slot and registers; what each slot held, in slot order. */
  evictCta(cta: number, now: number): SlotState[];
  /** Puts saved warps back into free slots as CTA `cta`, their traceRays done; the slots, in order. */
  restoreCta(cta: number, warps: readonly SlotState[], now: number): number[];
  /** A state store (`slot` -1) or a load woken in `slot`, through the LD/ST unit. */
  stateAccess(addr: number, bytes: number, kind: ReqKind, slot: number): void;
}

/**
 * One SM's side of ray virtualization (paper 001 Sec. 4.1): RT tickets for its warps' traceRays,
 * the termination of CTAs whose warps all wait in the RT unit, and their resumption.
 */
export class CtaSuspension {
  /** RT ticket -> slot of the resident warp that issued it, and back. */
  private readonly tokenSlot = new Map<number, number>();
  private readonly slotToken = new Map<number, number>();
  private nextToken = 0;
  /** Set when a warp entered the RT unit or a load returned: a CTA may have become suspendable. */
  private check = false;

  /** `contexts`: the SM's warp contexts (tickets name the context and the SM). */
  constructor(private readonly table: RayVirtualization, private readonly sm: CtaSlots, private readonly smId: number, private readonly contexts: number) {}

  /**
   * The ticket the RT unit reports back for context c's traceRay: a number unique in the GPU that
   * still names the context (`floor(token / 4096) % contexts`, for the intersection table) and the
   * SM (`token % 4096`).
   */
  token(c: number): number {
    return (this.nextToken * this.contexts + c) * 4096 + this.smId;
  }

  /** Context c's traceRay was accepted with the ticket token(c) gave. */
  accepted(c: number): void {
    const token = this.token(c);
    this.nextToken++;
    this.tokenSlot.set(token, c);
    this.slotToken.set(c, token);
    this.check = true;
  }

  /** A CTA may have become suspendable since the last suspendWaiting: the SM must tick. */
  get pending(): boolean {
    return this.check;
  }

  /** A load returned: a CTA may have become suspendable. */
  mayChange(): void {
    this.check = true;
  }

  /** The RT unit finished a traceRay: the slot whose warp it wakes, or -1 when it belonged to a terminated CTA. */
  traceDone(token: number): number {
    const slot = this.tokenSlot.get(token);
    if (slot === undefined) {
      this.table.traceDone(token);
      return -1;
    }
    this.tokenSlot.delete(token);
    this.slotToken.delete(slot);
    return slot;
  }

  /** Terminates every resident CTA whose warps all wait in the RT unit, saving their state. */
  suspendWaiting(now: number): void {
    if (!this.check) return;
    this.check = false;
    for (const cta of this.sm.ctas()) {
      if (this.sm.ctaSlots(cta).every((slot) => this.sm.waitsOnlyInRt(slot) && this.slotToken.has(slot))) this.suspend(cta, now);
    }
  }

  private suspend(cta: number, now: number): void {
    const tokens = this.sm.ctaSlots(cta).map((slot) => {
      const token = this.slotToken.get(slot)!;
      this.slotToken.delete(slot);
      this.tokenSlot.delete(token);
      return token;
    });
    const warps: SavedWarp[] = this.sm.evictCta(cta, now).map((w, k) => ({ ...w, token: tokens[k]! }));
    const rec: SuspendedCta = {
      cta, warps, outstanding: warps.length, stateAddress: this.table.allocateState(), stateBytes: warps.length * this.table.warpStateBytes,
    };
    this.stateTraffic(rec, ReqKind.Store, -1);
    this.table.suspend(rec);
  }

  /** Resumes a terminated CTA whose rays all finished: its warps wait for their state loads. */
  resume(rec: SuspendedCta, now: number): void {
    const slots = this.sm.restoreCta(rec.cta, rec.warps, now);
    slots.forEach((slot, k) => this.stateTraffic(rec, ReqKind.Load, slot, k));
  }

  /** Save (stores) or restore (loads of warp `k`, woken in `slot`) of a CTA's state, in 128 B lines through the LD/ST queue. */
  private stateTraffic(rec: SuspendedCta, kind: ReqKind, slot: number, k = -1): void {
    const per = this.table.warpStateBytes;
    const first = k < 0 ? 0 : k;
    const last = k < 0 ? rec.warps.length - 1 : k;
    for (let w = first; w <= last; w++) {
      const base = rec.stateAddress + w * per;
      for (let a = base; a < base + per; a += 128) this.sm.stateAccess(a, Math.min(128, base + per - a), kind, slot);
    }
  }
}
