import test from 'ava';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';
import { ReqKind } from '../../../src/sim/timing/mem-request.js';
import { CTA_STATE_BASE, type CtaSlots, CtaSuspension, RayVirtualization, type SlotState } from '../../../src/sim/timing/ray-virtualization.js';
import type { TimingWarp } from '../../../src/sim/timing/sm.js';

/** Slot tables of a pretend SM: `ctaOf[slot]`, which slots wait only in the RT unit, and what was evicted, restored and accessed. */
class FakeSlots implements CtaSlots {
  readonly accesses: { addr: number; bytes: number; kind: ReqKind; slot: number }[] = [];
  readonly restored: number[][] = [];
  constructor(readonly ctaOf: number[], readonly waiting: Set<number>) {}
  ctas(): Iterable<number> {
    return new Set(this.ctaOf.filter((c) => c >= 0));
  }
  ctaSlots(cta: number): number[] {
    return this.ctaOf.flatMap((c, slot) => (c === cta ? [slot] : []));
  }
  waitsOnlyInRt(slot: number): boolean {
    return this.waiting.has(slot);
  }
  evictCta(cta: number): SlotState[] {
    return this.ctaSlots(cta).map((slot) => {
      this.ctaOf[slot] = -1;
      return { warp: { id: slot } as unknown as TimingWarp, step: null, instIdx: slot, memIdx: 0, lastStep: 0 };
    });
  }
  restoreCta(cta: number, warps: readonly SlotState[]): number[] {
    const slots = warps.map(() => {
      const s = this.ctaOf.indexOf(-1);
      this.ctaOf[s] = cta;
      return s;
    });
    this.restored.push(slots);
    return slots;
  }
  stateAccess(addr: number, bytes: number, kind: ReqKind, slot: number): void {
    this.accesses.push({ addr, bytes, kind, slot });
  }
}

test('a CTA whose warps all wait in the RT unit is saved, becomes ready when its traceRays finish, and is restored with loads per warp', (t) => {
  const cfg = loadConfig('treelet', ['rt_ray_virtualization=1', 'rt_cta_simt_stack_bytes=128']);
  const table = new RayVirtualization(cfg, 2);
  const slots = new FakeSlots([0, 0, 1, -1], new Set([0, 1]));
  const sm = new CtaSuspension(table, slots, 3, 8);
  const t0 = sm.token(0);
  t.is(t0 % 4096, 3, 'the ticket names the SM');
  sm.accepted(0);
  const t1 = sm.token(1);
  sm.accepted(1);
  t.not(t0, t1);
  sm.suspendWaiting(10);
  // CTA 1's warp (slot 2) has not issued its traceRay: only CTA 0 goes.
  t.deepEqual(slots.ctaOf, [-1, -1, 1, -1]);
  const perWarp = 32 * 2 * 4 + 128;
  t.is(table.warpStateBytes, perWarp);
  const saves = slots.accesses.filter((a) => a.kind === ReqKind.Store);
  t.is(saves.reduce((n, a) => n + a.bytes, 0), 2 * perWarp);
  t.true(saves.every((a) => a.addr >= CTA_STATE_BASE && a.slot === -1));
  t.is(table.stats.ctasSuspended, 1);
  // Its traceRays finish after it left: no slot to wake; the CTA is ready after the second.
  t.is(sm.traceDone(t0), -1);
  t.is(table.peekReady(), undefined);
  t.is(sm.traceDone(t1), -1);
  const rec = table.takeReady();
  t.is(rec.cta, 0);
  t.deepEqual(rec.warps.map((w) => w.instIdx), [0, 1]);
  sm.resume(rec, 20);
  t.deepEqual(slots.restored, [[0, 1]]);
  const loads = slots.accesses.filter((a) => a.kind === ReqKind.Load);
  t.is(loads.filter((a) => a.slot === 0).reduce((n, a) => n + a.bytes, 0), perWarp);
  t.is(loads.filter((a) => a.slot === 1).reduce((n, a) => n + a.bytes, 0), perWarp);
  t.true(table.idle());
});

test('a resident warp\'s finished traceRay wakes its slot; nothing is suspended without a reason to look', (t) => {
  const cfg = loadConfig('treelet', ['rt_ray_virtualization=1']);
  const table = new RayVirtualization(cfg, 4);
  const slots = new FakeSlots([5], new Set([0]));
  const sm = new CtaSuspension(table, slots, 0, 4);
  const token = sm.token(0);
  sm.accepted(0);
  t.is(sm.traceDone(token), 0);
  // The ticket is gone: the warp no longer counts as waiting in the RT unit.
  sm.suspendWaiting(1);
  t.deepEqual(slots.ctaOf, [5]);
  t.is(table.stats.ctasSuspended, 0);
});
