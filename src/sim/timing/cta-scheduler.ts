/**
 * Hands CTAs (groups of `ctaSize` consecutive warps of the launch, in launch order) to SMs that
 * have room under their limits (warp slots, CTAs, registers). Like GPGPU-Sim's issue_block2core,
 * at most one CTA goes to each SM per cycle, visiting SMs round-robin from where it stopped.
 *
 * Invariant: CTA i is issued before CTA i+1 (deterministic placement).
 */
import type { RayVirtualization } from './ray-virtualization.js';
import type { Sm, TimingWarp } from './sm.js';

export class CtaScheduler {
  private nextCta = 0;
  private rr = 0;
  readonly ctaCount: number;

  constructor(
    private readonly warps: readonly TimingWarp[],
    private readonly ctaSize: number,
    /** Ray virtualization (paper 001 Sec. 4.1): terminated CTAs ready to resume go before new ones. */
    private readonly virt: RayVirtualization | null = null,
  ) {
    this.ctaCount = Math.ceil(warps.length / ctaSize);
  }

  get allIssued(): boolean {
    return this.nextCta >= this.ctaCount;
  }

  private warpsOf(cta: number): readonly TimingWarp[] {
    return this.warps.slice(cta * this.ctaSize, Math.min(this.warps.length, (cta + 1) * this.ctaSize));
  }

  private sizeOf(cta: number): number {
    return Math.min(this.warps.length, (cta + 1) * this.ctaSize) - cta * this.ctaSize;
  }

  /** Issues up to one CTA per SM; returns true if any was issued. */
  cycle(sms: readonly Sm[], now: number): boolean {
    let issued = false;
    for (let k = 0; k < sms.length && (!this.allIssued || this.virt?.peekReady() !== undefined); k++) {
      const sm = sms[(this.rr + k) % sms.length]!;
      const resume = this.virt?.peekReady();
      if (resume !== undefined) {
        if (!sm.canAccept(resume.warps.length)) continue;
        sm.resumeCta(this.virt!.takeReady(), now);
        issued = true;
        continue;
      }
      if (this.allIssued) break;
      if (!sm.canAccept(this.sizeOf(this.nextCta)) || !sm.hasRayRoom(this.sizeOf(this.nextCta))) continue;
      sm.assignCta(this.nextCta, this.warpsOf(this.nextCta), now);
      this.nextCta++;
      issued = true;
    }
    if (issued) this.rr = (this.rr + 1) % sms.length;
    return issued;
  }

  /** now + 1 if some SM could take the next CTA, else Infinity (a finishing warp wakes us). */
  nextEvent(sms: readonly Sm[], now: number): number {
    const resume = this.virt?.peekReady();
    if (resume !== undefined && sms.some((s) => s.canAccept(resume.warps.length))) return now + 1;
    if (this.allIssued) return Infinity;
    const size = this.sizeOf(this.nextCta);
    return sms.some((s) => s.canAccept(size) && s.hasRayRoom(size)) ? now + 1 : Infinity;
  }
}
