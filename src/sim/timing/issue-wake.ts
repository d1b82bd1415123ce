/**
 * When the SM's issue stage (sm.ts) scans its warp schedulers, and which of them it may skip: the
 * issue-scan wake bookkeeping. The SM asks it at every tick whether to scan (`beginScan`), whether
 * a scheduler's last scan still holds (`asleep`), where a GTO scheduler's scan may start
 * (`prefixStart`); the SM's issue path reports each rejected warp (`notReadyUntil`,
 * `refusedUntilEvent`, `refusedByRtBuffer`, `refusedByLsu`, `itsTried`) and each event that may let
 * a warp issue sooner (`wakeAll`, `wakeScheduler`, `anyEvent`, `queueProgress`, `slotListChanged`).
 *
 * Invariants:
 * - Skipping a scan changes no statistic: a scheduler or prefix is skipped only while a rescan
 *   would reject every warp it covers again. A warp's rejection depends on its own state (its
 *   contexts, its register table), its scheduler's (ID_OC slots, the busy cycle) and the shared
 *   LD/ST queue and RT warp buffer; those two only fill up between events, so a rejection with a
 *   wake time holds until that time or until an event of the warp's scheduler (`epochOf`).
 * - A wake bound may be early (that costs a rescan that finds nothing), never late.
 * - A rejection without a wake time (refusedUntilEvent, ITS warps) keeps nothing: its scheduler is
 *   rescanned at every SM scan. So an event that matters only to such rejections (anyEvent) wakes
 *   the issue stage but voids no kept bound: a kept refusal by the full RT warp buffer is retried
 *   at every scan the buffer has room in, and without room a rescan would refuse it again.
 * - Events during the SM's scan void what the scan keeps (`scanEpoch`).
 * - Typed arrays per scheduler and scalar fields only: no allocation after the constructor.
 */

/** What the bookkeeping reads of the RT unit: whether its warp buffer has room (no event says when it gains some). */
export interface RtRoom {
  hasRoom(): boolean;
}

export class IssueWake {
  /**
   * The issue stage sleeps until this cycle after a cycle in which no scheduler could issue;
   * events (wakeAll, wakeScheduler: responses, RT completions, CTA arrivals, LD/ST progress)
   * reset it to 0 (wake now).
   */
  wakeAt = 0;
  /** A warp finished or a CTA left in this scan: the slot lists shifted, so not every warp was tried. */
  private slotsChanged = false;
  /**
   * The last issue scan refused an instruction for a reason no wake time covers (a full RT warp
   * buffer, an ITS warp), or left asleep a scheduler with such a refusal (schedRtWait,
   * prefixRtWait): then every response and every access leaving the LD/ST queue wakes the issue
   * stage. Otherwise only a load's last response does (the others change nothing an issue
   * depends on), and queue progress only as far as wakeAtQueued says.
   */
  private wakeOnAnyEvent = false;
  /**
   * In one scheduler's scan: a reject without a wake time other than the RT warp buffer's
   * (refusedUntilEvent; ITS warps make the scan's wake bound NaN), so it is rescanned at every
   * SM scan; and a refusal by the full RT warp buffer at a traceRay instruction (refusedByRtBuffer).
   * A scheduler asleep or a prefix kept with such a refusal (schedRtWait, prefixRtWait) is tried
   * again at every SM scan the RT unit has room in, and otherwise counts as refused again
   * (wakeOnAnyEvent), as a rescan would find it. Room is not an event: the RT unit may gain it
   * without one (the predictor's repacked warps leave the buffer without a traceRay ending), so
   * such a warp is retried at the scans a rescan happened at before, not when room appears.
   */
  private refusedWithoutBound = false;
  private rtRefused = false;
  /**
   * The refusals by the LD/ST unit (refusedByLsu) of the warps the last issue scan tried or left
   * asleep (schedFitsAt, prefixFitsAt): the queue length at or below which one of the refused
   * instructions may fit (-1: none was refused for queue room). Queue progress wakes the issue
   * stage only once the queue is that short; an instruction refused for want of a load slot waits
   * for a load's last response, which always wakes it. Either wake is an event (epochOf), so a
   * refusal by the LD/ST unit needs no rescan before it.
   */
  private wakeAtQueued = -1;
  /**
   * The issue scan's own wake bound: while every context it tries is rejected, the earliest cycle
   * one of them could issue or fetch without an outside event, as the SM's issueWake would find it
   * (or earlier, which only costs a tick). NaN once a context was rejected in a way only issueWake
   * accounts for exactly (ITS contexts), so issueWake runs.
   */
  private scanWake = Infinity;
  /** The SM-wide scan state of the schedulers before the one being scanned (beginScheduler, endScheduler). */
  private othersWake = Infinity;
  private othersAnyEvent = false;
  private othersQueued = -1;
  /**
   * Per scheduler: after a scan in which it issued nothing, the scan's wake bound for its warps
   * alone (schedWake), valid while no event of its own has happened since (schedEpoch === epochOf): until
   * then it is not rescanned, even in cycles its neighbours issue in; its refusals by the LD/ST
   * unit stay in wakeAtQueued (schedFitsAt). Nothing another scheduler does can make one of its
   * warps issue sooner: contexts, register tables and ID_OC slots are per warp or per scheduler,
   * and the shared LD/ST queue and RT warp buffer only fill up (their room is an event).
   */
  private readonly schedWake: Float64Array;
  private readonly schedEpoch: Int32Array;
  private readonly schedFitsAt: Int32Array;
  private readonly schedRtWait: Uint8Array;
  /**
   * Per scheduler under GTO: after a scan that issued from the warp at list position k, the first
   * k positions (all rejected) with the earliest of their wake times and their refusals by the
   * LD/ST unit (prefixFitsAt), valid while no event has happened since (prefixEpoch ===
   * epochOf): until then the scheduler's next scans start at position k. The warp that issued
   * issues again or is tried first, and what it does to the rejected warps (an ID_OC slot
   * reserved, the shared queues filled) only delays them, as for schedWake. A prefix with a
   * reject without a wake time (refusedWithoutBound, ITS) is not kept; one with a full RT warp
   * buffer's refusal is, as prefixRtWait.
   */
  private readonly prefixLen: Int32Array;
  private readonly prefixWake: Float64Array;
  private readonly prefixFitsAt: Int32Array;
  private readonly prefixRtWait: Uint8Array;
  private readonly prefixEpoch: Int32Array;
  /** Per scheduler, the value of epochOf when the SM's scan began: an event during the scan voids what it kept. */
  private readonly scanEpoch: Int32Array;
  /**
   * Per scheduler, counts the events that may let one of its warps issue sooner than its wake
   * bound: a load's last response or a traversal's end for one of its contexts (wakeScheduler),
   * and the SM-wide ones (wakeAll: queue room, CTAs placed or resumed; slot-list changes).
   */
  private readonly epochOf: Int32Array;

  constructor(
    schedulers: number,
    private readonly rt: RtRoom,
  ) {
    this.schedWake = new Float64Array(schedulers);
    this.schedEpoch = new Int32Array(schedulers).fill(-1);
    this.schedFitsAt = new Int32Array(schedulers);
    this.schedRtWait = new Uint8Array(schedulers);
    this.prefixLen = new Int32Array(schedulers);
    this.prefixWake = new Float64Array(schedulers);
    this.prefixFitsAt = new Int32Array(schedulers);
    this.prefixRtWait = new Uint8Array(schedulers);
    this.prefixEpoch = new Int32Array(schedulers).fill(-1);
    this.scanEpoch = new Int32Array(schedulers);
    this.epochOf = new Int32Array(schedulers);
  }

  // --- Events ---------------------------------------------------------------------------------

  /** Something happened that may let any warp issue now: every scheduler is scanned at the next tick. */
  wakeAll(): void {
    this.wakeAt = 0;
    this.newEpochs();
  }

  /** Something happened that may let a warp of scheduler s issue now: s is scanned at the next tick. */
  wakeScheduler(s: number): void {
    this.wakeAt = 0;
    this.epochOf[s]!++;
  }

  /**
   * An event that matters only to a refusal without a wake time (a load's response that is not
   * its last): it wakes the issue stage, but no scheduler's kept bound or prefix lapses. Such a
   * refusal keeps none, so its scheduler is rescanned anyway; a kept refusal by the full RT warp
   * buffer is tried again at every scan the buffer has room in (asleep, prefixStart), and without
   * room a rescan would refuse it again.
   */
  anyEvent(): void {
    if (this.wakeOnAnyEvent) this.wakeAt = 0;
  }

  /**
   * Accesses left the LD/ST queue, `queued` are left: room matters only to an instruction it
   * refused, once there is enough of it; otherwise this is an event as anyEvent's.
   */
  queueProgress(queued: number): void {
    if (queued <= this.wakeAtQueued) this.wakeAll();
    else this.anyEvent();
  }

  /** A warp finished or a CTA was evicted: the slot lists shifted, every wake bound and prefix lapses. */
  slotListChanged(): void {
    this.slotsChanged = true;
    this.newEpochs();
  }

  private newEpochs(): void {
    for (let s = 0; s < this.epochOf.length; s++) this.epochOf[s]!++;
  }

  // --- The SM's scan --------------------------------------------------------------------------

  /** Whether the issue stage scans at `now` (false: it sleeps); a scan starts with nothing rejected. */
  beginScan(now: number): boolean {
    if (now < this.wakeAt) return false;
    this.slotsChanged = false;
    this.wakeOnAnyEvent = false;
    this.wakeAtQueued = -1;
    this.scanWake = Infinity;
    this.scanEpoch.set(this.epochOf);
    return true;
  }

  /**
   * Whether scheduler s's warps were all rejected, with a wake time after `now` and no event
   * since (or a full RT warp buffer still full): then it is not rescanned, and its kept refusals
   * count in this scan.
   */
  asleep(s: number, now: number): boolean {
    if (this.schedEpoch[s] !== this.scanEpoch[s] || now >= this.schedWake[s]! || (this.schedRtWait[s] === 1 && this.rt.hasRoom())) return false;
    if (this.schedWake[s]! < this.scanWake) this.scanWake = this.schedWake[s]!;
    if (this.schedFitsAt[s]! > this.wakeAtQueued) this.wakeAtQueued = this.schedFitsAt[s]!;
    if (this.schedRtWait[s] === 1) this.wakeOnAnyEvent = true;
    return true;
  }

  /** Scheduler s is scanned next: its rejections are collected apart from the other schedulers'. */
  beginScheduler(): void {
    this.othersWake = this.scanWake;
    this.othersAnyEvent = this.wakeOnAnyEvent;
    this.othersQueued = this.wakeAtQueued;
    this.scanWake = Infinity;
    this.wakeOnAnyEvent = false;
    this.wakeAtQueued = -1;
    this.refusedWithoutBound = false;
    this.rtRefused = false;
  }

  /** Scheduler s was scanned: without an issue and with every rejection bounded it sleeps (asleep); its rejections join the SM's. */
  endScheduler(s: number, issued: boolean): void {
    if (issued || !this.scanKeepable()) this.schedEpoch[s] = -1;
    else {
      this.schedEpoch[s] = this.scanEpoch[s]!;
      this.schedWake[s] = this.scanWake;
      this.schedFitsAt[s] = this.wakeAtQueued;
      this.schedRtWait[s] = this.rtRefused ? 1 : 0;
    }
    this.scanWake = Math.min(this.othersWake, this.scanWake);
    this.wakeOnAnyEvent ||= this.othersAnyEvent;
    if (this.othersQueued > this.wakeAtQueued) this.wakeAtQueued = this.othersQueued;
  }

  /** Whether this scheduler's scan so far tried every warp it covers and every rejection had a wake time. */
  private scanKeepable(): boolean {
    return !this.refusedWithoutBound && !this.slotsChanged && !Number.isNaN(this.scanWake);
  }

  /**
   * After a scan without issue: sleeps until its wake bound (a scan cut short by a slot-list
   * change: the next cycle); false when only the SM's issueWake knows the bound (set it with sleepUntil).
   */
  sleep(now: number): boolean {
    if (this.slotsChanged) this.wakeAt = now + 1;
    else if (Number.isNaN(this.scanWake)) return false;
    else this.wakeAt = Math.max(now + 1, this.scanWake);
    return true;
  }

  sleepUntil(t: number): void {
    this.wakeAt = t;
  }

  // --- GTO prefixes ---------------------------------------------------------------------------

  /** Whether scheduler s's kept prefix holds (no event since); its refusals by the LD/ST unit wait for queue room whatever this scan does. */
  prefixHeld(s: number): boolean {
    const held = this.prefixEpoch[s] === this.epochOf[s];
    if (held && this.prefixFitsAt[s]! > this.wakeAtQueued) this.wakeAtQueued = this.prefixFitsAt[s]!;
    return held;
  }

  /** The list position a GTO scan of s starts at: past a held prefix before its wake time (or RT room), whose rejections then count. */
  prefixStart(s: number, now: number, held: boolean): number {
    if (!held || now >= this.prefixWake[s]! || (this.prefixRtWait[s] === 1 && this.rt.hasRoom())) return 0;
    this.notReadyUntil(this.prefixWake[s]!);
    if (this.prefixRtWait[s] === 1) {
      this.wakeOnAnyEvent = true;
      this.rtRefused = true;
    }
    return this.prefixLen[s]!;
  }

  /** Scheduler s issued from list position k: keeps the positions before it as its prefix when every reject in its scan had a wake time. */
  keepPrefix(s: number, k: number): void {
    if (!this.scanKeepable()) {
      this.prefixEpoch[s] = -1;
      return;
    }
    this.prefixLen[s] = k;
    this.prefixWake[s] = this.scanWake;
    this.prefixFitsAt[s] = this.wakeAtQueued;
    this.prefixRtWait[s] = this.rtRefused ? 1 : 0;
    this.prefixEpoch[s] = this.scanEpoch[s]!;
  }

  dropPrefix(s: number): void {
    this.prefixEpoch[s] = -1;
  }

  // --- Rejections, as the issue path reports them (each returns false, the reject) ------------

  /** A rejected context could issue at `t` at the earliest. */
  notReadyUntil(t: number): false {
    if (t < this.scanWake) this.scanWake = t;
    return false;
  }

  /** A rejected context waits for an event no wake time covers. */
  refusedUntilEvent(): false {
    this.wakeOnAnyEvent = true;
    this.refusedWithoutBound = true;
    return false;
  }

  /** The full RT warp buffer refused the context's traceRay instruction. */
  refusedByRtBuffer(): false {
    this.wakeOnAnyEvent = true;
    this.rtRefused = true;
    return false;
  }

  /**
   * The LD/ST unit refused the context's instruction (no queue room or load slot); it may fit once
   * the queue holds `fitsAtQueued` accesses. Its scheduler is rescanned at the SM's next scan (no
   * wake bound), which happens once the queue is short enough for it (wakeAtQueued) or a load's
   * last response frees a slot.
   */
  refusedByLsu(fitsAtQueued: number): false {
    if (fitsAtQueued > this.wakeAtQueued) this.wakeAtQueued = fitsAtQueued;
    return false;
  }

  /** An ITS warp is tried: only the SM's issueWake bounds its contexts, and every event may let one go on. */
  itsTried(): void {
    this.scanWake = NaN;
    this.wakeOnAnyEvent = true;
  }
}
