/**
 * Ray virtualization (paper 001 Sec. 3.1, 4.1, 5): a CTA whose every warp has issued its traceRay
 * to the RT unit is terminated; its state (each thread's registers and each warp's SIMT stack) is
 * stored to memory and its SM slots, CTA slot and registers are reclaimed for new CTAs. When all
 * rays of the terminated CTA have finished, the RT unit injects it back into the CTA scheduler,
 * which resumes it (before any new CTA) on an SM with room; the SM loads the saved state before
 * the warps continue. The functional state of a warp never leaves its `TimingWarp`, so a resumed
 * CTA computes exactly what it would have: only timing and memory traffic change.
 *
 * This object is the GPU-wide table of terminated CTAs (the kernel management unit's table of
 * CTA ids, state addresses and sizes) and the queue of CTAs ready to resume; the SM holds the
 * per-slot save / restore (sm.ts, `suspendCta` / `resumeCta`).
 *
 * Invariants: a CTA is either resident on one SM, suspended, or ready to resume; a suspended CTA
 * becomes ready exactly once, when its last outstanding traceRay completes; `stateAddress` regions
 * of live CTAs never overlap.
 */
import type { GpuConfig } from '../config/gpu-config.js';
import type { TimingWarp } from './sm.js';
import type { WarpStep } from '../warp-step.js';

/** Where terminated CTAs' state is saved. */
export const CTA_STATE_BASE = 2 ** 49;

/** One warp of a terminated CTA: what the SM slot held. */
export interface SavedWarp {
  warp: TimingWarp;
  step: WarpStep | null;
  instIdx: number;
  memIdx: number;
  lastStep: number;
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
