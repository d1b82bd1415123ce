/**
 * The warp timeline: a recorder the timing model reports to (timeline-hooks.ts) when a timeline
 * is asked for; timeline-json.ts writes what it recorded as Chrome trace-event JSON (the format
 * chrome://tracing and Perfetto open).
 *
 * Layout of the trace (1 trace microsecond = 1 core cycle):
 * - one process per SM ("SM i", pid i + 1) and one "GPU" process (pid numSms + 1) for the
 *   GPU-wide counters;
 * - in an SM, one thread per warp slot ("warp slot s") and one per RT-unit warp-buffer entry
 *   ("RT unit entry e"); thread ids are unique in the whole trace (threadIdBase);
 * - on a warp slot: a slice per resident warp ("warp W", from its CTA's launch to its exit) with,
 *   nested in it, "issue" slices (consecutive cycles in which the warp issued, merged; args: warp
 *   and thread instructions), "wait: memory" (not issuing, load / atomic responses outstanding),
 *   "wait: RT unit full" (a traceRay ready but the RT warp buffer full) and "in RT unit" (its
 *   traceRay in the RT unit). A gap inside a warp slice is a cycle in which
 *   the warp was resident but waiting on something else: instruction latency, a functional unit,
 *   the scheduler picking another warp, a full LD/ST queue;
 * - on an RT-unit entry: a slice per warp traversal ("warp W", same name as its warp slice;
 *   args: rays, SM slot);
 * - CTA launches as process-scoped instant events on the SM;
 * - counters sampled every `counterInterval` cycles: IPC (thread instructions per cycle) per SM and
 *   for the GPU, L1D misses per 1K cycles per SM and for the GPU, L2 misses per 1K cycles.
 *
 * Size: only cycles inside the window are kept (slices crossing its edges are cut at them), and
 * recording stops once `maxEvents` events are stored: the window then ends at that cycle, so the
 * file is a complete picture of a shorter window (`truncatedAt` says where). Issue counts are
 * per cycle, so the "issue" slices of a window add up to exactly the instructions issued in it.
 *
 * Invariants: slices on one thread nest (a warp's activity lies inside its warp slice); events are
 * stored in flat typed columns (no object per event), so a cap of a million events stays small.
 */
import { ConfigError } from '../config/config-error.js';
import type { Gpu } from './gpu.js';
import type { SmTimelineHooks } from './timeline-hooks.js';

export interface TimelineOptions {
  /** Record cycles [start, end) only (default: the whole run). */
  window?: { start: number; end: number };
  /** Stop recording once this many events are stored (default DEFAULT_TIMELINE_MAX_EVENTS). */
  maxEvents?: number;
  /** Counter sampling interval in cycles (default 1000). */
  counterInterval?: number;
  /** Record the warp slots, RT unit and counters of these SMs only (default: every SM); GPU-wide counters cover all. */
  sms?: readonly number[];
}

export interface TimelineLayout {
  numSms: number;
  maxWarpsPerSm: number;
  rtMaxWarps: number;
  warpSize: number;
  /** Warps per CTA: warp W of the launch is warp W % ctaSize of CTA floor(W / ctaSize). */
  ctaSize: number;
}

/**
 * The first thread id of SM `sm`: its warp slot s is this + s, its RT-unit entry e this +
 * maxWarpsPerSm + e. Ids are unique across SMs because Perfetto names threads by tid alone
 * (the `thread_name` metadata event); a power of ten per SM keeps them readable (SM 2 slot 5 is
 * 306 when the stride is 100).
 */
export function threadIdBase(layout: Pick<TimelineLayout, 'maxWarpsPerSm' | 'rtMaxWarps'>, sm: number): number {
  let stride = 100;
  while (stride < layout.maxWarpsPerSm + layout.rtMaxWarps + 1) stride *= 10;
  return (sm + 1) * stride + 1;
}

/** About 115 bytes of JSON an event (pt at 64x64 on mobile: 129,278 events, 14.9 MB), so a default file stays under about 60 MB. */
export const DEFAULT_TIMELINE_MAX_EVENTS = 500_000;

/**
 * Event kinds as stored in the columns (timeline-json.ts names them). The order breaks ties when
 * sorting: a warp slice goes before the slices it holds.
 */
export const WARP = 0;
export const ISSUE = 1;
export const MEM = 2;
export const IN_RT = 3;
export const TRAVERSAL = 4;
export const CTA_LAUNCH = 5;
export const RT_FULL = 6;
export const C_IPC = 7;
export const C_L1 = 8;
export const C_L2 = 9;

/** Per warp-slot state: what the open slice is. */
const NONE = 0;

/** Growable columns of events. */
export class EventColumns {
  length = 0;
  kind = new Uint8Array(1024);
  pid = new Int32Array(1024);
  tid = new Int32Array(1024);
  ts = new Float64Array(1024);
  dur = new Float64Array(1024);
  a0 = new Float64Array(1024);
  a1 = new Float64Array(1024);
  a2 = new Float64Array(1024);

  push(kind: number, pid: number, tid: number, ts: number, dur: number, a0: number, a1: number, a2: number): void {
    if (this.length === this.kind.length) this.grow();
    const i = this.length++;
    this.kind[i] = kind;
    this.pid[i] = pid;
    this.tid[i] = tid;
    this.ts[i] = ts;
    this.dur[i] = dur;
    this.a0[i] = a0;
    this.a1[i] = a1;
    this.a2[i] = a2;
  }

  private grow(): void {
    const n = this.kind.length * 2;
    const g = <T extends Uint8Array | Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.kind = g(this.kind, (k) => new Uint8Array(k));
    this.pid = g(this.pid, (k) => new Int32Array(k));
    this.tid = g(this.tid, (k) => new Int32Array(k));
    this.ts = g(this.ts, (k) => new Float64Array(k));
    this.dur = g(this.dur, (k) => new Float64Array(k));
    this.a0 = g(this.a0, (k) => new Float64Array(k));
    this.a1 = g(this.a1, (k) => new Float64Array(k));
    this.a2 = g(this.a2, (k) => new Float64Array(k));
  }
}

export interface TimelineSummary {
  events: number;
  /** The cycles the file covers: [start, end). */
  start: number;
  end: number;
  /** The cycle at which the event cap stopped recording, or null. */
  truncatedAt: number | null;
  maxEvents: number;
  cycles: number;
}

export class TimelineRecorder {
  readonly events = new EventColumns();
  readonly start: number;
  /** End of the recorded cycles (exclusive); lowered when the event cap is reached. */
  end: number;
  truncatedAt: number | null = null;
  readonly maxEvents: number;
  readonly counterInterval: number;
  /** Simulated cycles of the run (set by finish). */
  cycles = 0;
  private readonly tracks: (SmTrack | undefined)[] = [];
  /** Per SM: 1 when it is recorded. */
  readonly recorded: Uint8Array;
  private nextSample: number;
  private lastSample = 0;
  private readonly prevSmInsts: Float64Array;
  private readonly prevSmL1: Float64Array;
  private prevInsts = 0;
  private prevL1 = 0;
  private prevL2 = 0;
  /** The GPU and the cycle the simulation loop reached (advanceTo), for finishAfterError. */
  private gpu: Gpu | null = null;
  private reached = 0;

  constructor(
    readonly layout: TimelineLayout,
    opts: TimelineOptions = {},
  ) {
    this.start = opts.window?.start ?? 0;
    this.end = opts.window?.end ?? Infinity;
    this.maxEvents = opts.maxEvents ?? DEFAULT_TIMELINE_MAX_EVENTS;
    this.counterInterval = opts.counterInterval ?? 1000;
    if (!(this.start >= 0 && this.end > this.start)) throw new RangeError(`timeline window [${this.start}, ${this.end}) is empty`);
    if (!(this.maxEvents >= 1) || !(this.counterInterval >= 1)) throw new RangeError('timeline maxEvents and counterInterval must be at least 1');
    this.recorded = new Uint8Array(layout.numSms).fill(opts.sms === undefined ? 1 : 0);
    for (const sm of opts.sms ?? []) {
      if (!Number.isInteger(sm) || sm < 0 || sm >= layout.numSms) {
        throw new ConfigError(`--timeline-sms: there is no SM ${sm}: this GPU has ${layout.numSms} SMs (0-${layout.numSms - 1})`, 'timeline-sms');
      }
      this.recorded[sm] = 1;
    }
    this.nextSample = this.counterInterval;
    this.prevSmInsts = new Float64Array(layout.numSms);
    this.prevSmL1 = new Float64Array(layout.numSms);
  }

  /** The hooks of SM `id` (gpu.ts attaches them to the SM and its RT unit), or null if it is not recorded. */
  forSm(id: number): SmTimelineHooks | null {
    if (this.recorded[id] !== 1) return null;
    const t = new SmTrack(this, id);
    this.tracks[id] = t;
    return t;
  }

  /** Called by the simulation loop before it moves to cycle `next`: samples every interval boundary up to it. */
  advanceTo(next: number, gpu: Gpu): void {
    this.gpu = gpu;
    this.reached = next;
    while (this.nextSample <= next) {
      this.sample(this.nextSample, gpu);
      this.nextSample += this.counterInterval;
    }
  }

  /** At the end of the run (`cycles` simulated): closes what is open and samples the last partial interval. */
  finish(cycles: number, gpu: Gpu): void {
    this.cycles = cycles;
    for (const t of this.tracks) t?.closeAll(cycles);
    this.sample(cycles, gpu);
  }

  /**
   * After the simulation stopped with an error (a timing deadlock): closes what is open at the
   * last cycle the loop simulated, so the timeline shows where each warp was stuck.
   */
  finishAfterError(): void {
    const cycles = this.reached + 1;
    this.cycles = cycles;
    for (const t of this.tracks) t?.closeAll(cycles);
    if (this.gpu !== null) this.sample(cycles, this.gpu);
  }

  summary(): TimelineSummary {
    return { events: this.events.length, start: this.start, end: Math.max(this.start, Math.min(this.end, this.cycles)), truncatedAt: this.truncatedAt, maxEvents: this.maxEvents, cycles: this.cycles };
  }

  /** Stores slice [start, end) cut to the window; `now` is the cycle it is reported at (for the cap). */
  emit(kind: number, pid: number, tid: number, start: number, end: number, a0: number, a1: number, a2: number, now: number): void {
    const s = Math.max(start, this.start);
    const e = Math.min(end, this.end);
    if (e < s || (e === s && (end > start || s >= this.end))) return;
    this.store(kind, pid, tid, s, e - s, a0, a1, a2, now);
  }

  private store(kind: number, pid: number, tid: number, ts: number, dur: number, a0: number, a1: number, a2: number, now: number): void {
    this.events.push(kind, pid, tid, ts, dur, a0, a1, a2);
    if (this.events.length >= this.maxEvents && this.truncatedAt === null) {
      // The window ends here: what is open is still closed at this cycle (a bounded overshoot of
      // at most one slice per warp slot and RT entry), nothing after it is kept.
      this.truncatedAt = now;
      this.end = Math.min(this.end, now + 1);
    }
  }

  /** Counters over [lastSample, at), stored if that interval overlaps the window. */
  private sample(at: number, gpu: Gpu): void {
    const b0 = this.lastSample;
    const len = at - b0;
    if (len <= 0) return;
    this.lastSample = at;
    const keep = at > this.start && b0 < this.end;
    const ts = Math.max(b0, this.start);
    const gpuPid = this.layout.numSms + 1;
    let insts = 0;
    let l1 = 0;
    for (const sm of gpu.sms) {
      const i = sm.stats.threadInsts;
      const m = sm.l1.cache.stats.misses() + (sm.rtCache !== sm.l1 ? sm.rtCache.cache.stats.misses() : 0);
      if (keep && this.recorded[sm.id] === 1) {
        this.store(C_IPC, sm.id + 1, sm.id + 1, ts, 0, (i - this.prevSmInsts[sm.id]!) / len, 0, 0, at - 1);
        this.store(C_L1, sm.id + 1, sm.id + 1, ts, 0, ((m - this.prevSmL1[sm.id]!) * 1000) / len, 0, 0, at - 1);
      }
      this.prevSmInsts[sm.id] = i;
      this.prevSmL1[sm.id] = m;
      insts += i;
      l1 += m;
    }
    let l2 = 0;
    for (const p of gpu.partitions) for (const b of p.banks) l2 += b.cache.stats.misses();
    if (keep) {
      this.store(C_IPC, gpuPid, gpuPid, ts, 0, (insts - this.prevInsts) / len, 0, 0, at - 1);
      this.store(C_L1, gpuPid, gpuPid, ts, 0, ((l1 - this.prevL1) * 1000) / len, 0, 0, at - 1);
      this.store(C_L2, gpuPid, gpuPid, ts, 0, ((l2 - this.prevL2) * 1000) / len, 0, 0, at - 1);
    }
    this.prevInsts = insts;
    this.prevL1 = l1;
    this.prevL2 = l2;
  }
}

/**
 * One SM's warp slots and RT-unit entries. A slot is in one state at a time: issuing (an issue
 * run lasts while the warp issues in consecutive cycles), in the RT unit, waiting for memory,
 * or none of these; the open state becomes a slice when it changes. An issue run ends lazily: the
 * next event on the slot after the run's last cycle closes it and opens the state the slot was
 * left in (its pending loads and RT residency only change through these hooks, so that state has
 * held since the run ended).
 */
class SmTrack implements SmTimelineHooks {
  private readonly n: number;
  private readonly pid: number;
  /** Thread id of warp slot 0 (threadIdBase). */
  private readonly tid0: number;
  private readonly open: Uint8Array;
  private readonly openStart: Float64Array;
  private readonly issueEnd: Float64Array;
  private readonly insts: Float64Array;
  private readonly threads: Float64Array;
  private readonly pendingCtx: Int32Array;
  private readonly pending: Int32Array;
  private readonly rtCount: Int32Array;
  /** Per context: 1 while its traceRay waits for RT warp-buffer room; per slot: how many contexts do. */
  private readonly rtWaitCtx: Uint8Array;
  private readonly rtWait: Int32Array;
  private readonly resident: Uint8Array;
  private readonly residentSince: Float64Array;
  private readonly warpId: Int32Array;
  private readonly ctaOf: Int32Array;
  private readonly rtSince: Float64Array;
  private readonly rtRays: Int32Array;
  /** Per RT entry: the SM context of the warp in it, or -1. */
  private readonly rtCtx: Int32Array;
  /** The CTA launched last and how many of its warps came before the current one. */
  private lastCta = -1;
  private lastK = 0;

  constructor(
    private readonly rec: TimelineRecorder,
    private readonly id: number,
  ) {
    const { maxWarpsPerSm: n, warpSize, rtMaxWarps } = rec.layout;
    this.n = n;
    this.pid = id + 1;
    this.tid0 = threadIdBase(rec.layout, id);
    this.open = new Uint8Array(n);
    this.openStart = new Float64Array(n);
    this.issueEnd = new Float64Array(n);
    this.insts = new Float64Array(n);
    this.threads = new Float64Array(n);
    this.pendingCtx = new Int32Array(n * Math.max(1, warpSize));
    this.pending = new Int32Array(n);
    this.rtCount = new Int32Array(n);
    this.rtWaitCtx = new Uint8Array(n * Math.max(1, warpSize));
    this.rtWait = new Int32Array(n);
    this.resident = new Uint8Array(n);
    this.residentSince = new Float64Array(n);
    this.warpId = new Int32Array(n);
    this.ctaOf = new Int32Array(n);
    this.rtSince = new Float64Array(rtMaxWarps);
    this.rtRays = new Int32Array(rtMaxWarps);
    this.rtCtx = new Int32Array(rtMaxWarps).fill(-1);
  }

  launch(slot: number, cta: number, now: number): void {
    const k = cta === this.lastCta ? ++this.lastK : (this.lastK = 0);
    this.lastCta = cta;
    this.resident[slot] = 1;
    this.residentSince[slot] = now;
    this.warpId[slot] = cta * this.rec.layout.ctaSize + k;
    this.ctaOf[slot] = cta;
    this.open[slot] = NONE;
    this.pending[slot] = 0;
    this.rtCount[slot] = 0;
    this.rtWait[slot] = 0;
    for (let c = slot; c < this.pendingCtx.length; c += this.n) {
      this.pendingCtx[c] = 0;
      this.rtWaitCtx[c] = 0;
    }
    if (k === 0) this.rec.emit(CTA_LAUNCH, this.pid, this.tid0 + slot, now, now, cta, 0, 0, now);
  }

  issue(c: number, lanes: number, count: number, pendingLoads: number, now: number): void {
    const slot = c % this.n;
    const span = Math.max(1, count);
    this.settle(slot, now);
    this.setPending(c, slot, pendingLoads);
    if (this.open[slot] === ISSUE && this.issueEnd[slot]! >= now) this.issueEnd[slot] = now + span;
    else {
      this.close(slot, now);
      this.open[slot] = ISSUE;
      this.openStart[slot] = now;
      this.issueEnd[slot] = now + span;
      this.insts[slot] = 0;
      this.threads[slot] = 0;
    }
    if (now >= this.rec.start && now < this.rec.end) {
      this.insts[slot]! += count;
      this.threads[slot]! += lanes * count;
    }
  }

  response(c: number, pendingLoads: number, now: number): void {
    const slot = c % this.n;
    this.settle(slot, now);
    this.setPending(c, slot, pendingLoads);
    this.update(slot, now);
  }

  finish(slot: number, now: number): void {
    this.settle(slot, now);
    const end = this.open[slot] === ISSUE ? Math.max(now, this.issueEnd[slot]!) : now;
    this.close(slot, now);
    this.rec.emit(WARP, this.pid, this.tid0 + slot, this.residentSince[slot]!, end, this.warpId[slot]!, this.ctaOf[slot]!, slot, now);
    this.resident[slot] = 0;
  }

  rtBufferFull(c: number, now: number): void {
    if (this.rtWaitCtx[c] === 1) return;
    const slot = c % this.n;
    this.settle(slot, now);
    this.rtWaitCtx[c] = 1;
    this.rtWait[slot]!++;
    this.update(slot, now);
  }

  rtEnter(entry: number, c: number, rays: number, now: number): void {
    const slot = c % this.n;
    this.settle(slot, now);
    if (this.rtWaitCtx[c] === 1) {
      this.rtWaitCtx[c] = 0;
      this.rtWait[slot]!--;
    }
    this.rtCount[slot]!++;
    this.rtSince[entry] = now;
    this.rtRays[entry] = rays;
    this.rtCtx[entry] = c;
    this.update(slot, now);
  }

  rtLeave(entry: number, c: number, now: number): void {
    const slot = c % this.n;
    this.settle(slot, now);
    this.rec.emit(TRAVERSAL, this.pid, this.tid0 + this.n + entry, this.rtSince[entry]!, now, this.warpId[slot]!, slot, this.rtRays[entry]!, now);
    this.rtCtx[entry] = -1;
    this.rtCount[slot]!--;
    this.update(slot, now);
  }

  /** End of the run (or of a run stopped by maxCycles): everything still open ends at `cycles`. */
  closeAll(cycles: number): void {
    for (let e = 0; e < this.rtCtx.length; e++) {
      const c = this.rtCtx[e]!;
      if (c >= 0) this.rtLeave(e, c, cycles);
    }
    for (let slot = 0; slot < this.n; slot++) if (this.resident[slot] === 1) this.finish(slot, cycles);
  }

  private setPending(c: number, slot: number, pendingLoads: number): void {
    this.pending[slot]! += pendingLoads - this.pendingCtx[c]!;
    this.pendingCtx[c] = pendingLoads;
  }

  private derived(slot: number): number {
    return this.rtCount[slot]! > 0 ? IN_RT : this.rtWait[slot]! > 0 ? RT_FULL : this.pending[slot]! > 0 ? MEM : NONE;
  }

  /** Ends an issue run whose last cycle is before `now`; the slot then continues in its derived state. */
  private settle(slot: number, now: number): void {
    if (this.open[slot] !== ISSUE || this.issueEnd[slot]! >= now) return;
    const end = this.issueEnd[slot]!;
    this.close(slot, now);
    this.open[slot] = this.derived(slot);
    this.openStart[slot] = end;
  }

  /** After a non-issue event: the slot's state follows its pending loads and RT residency, unless it is issuing. */
  private update(slot: number, now: number): void {
    if (this.open[slot] === ISSUE) return;
    const d = this.derived(slot);
    if (d === this.open[slot]) return;
    this.close(slot, now);
    this.open[slot] = d;
    this.openStart[slot] = now;
  }

  /** Stores the open slice (ending at `at`, an issue run at its own end) and leaves the slot in NONE. */
  private close(slot: number, at: number): void {
    const k = this.open[slot]!;
    this.open[slot] = NONE;
    if (k === NONE) return;
    const start = this.openStart[slot]!;
    if (k === ISSUE) {
      this.rec.emit(ISSUE, this.pid, this.tid0 + slot, start, this.issueEnd[slot]!, this.insts[slot]!, this.threads[slot]!, 0, at);
    } else if (at > start) this.rec.emit(k, this.pid, this.tid0 + slot, start, at, 0, 0, 0, at);
  }
}
