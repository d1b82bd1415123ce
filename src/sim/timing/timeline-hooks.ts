/**
 * What one SM and its RT unit report to a warp-timeline recorder (timeline.ts) when one is
 * attached. The SM and the RT unit hold `timeline: SmTimelineHooks | null` and call it only when
 * it is not null, so a run without a timeline pays one null check per call site and nothing else.
 *
 * `c` is the SM's warp context: the warp slot, or under independent thread scheduling
 * k * maxWarpsPerSm + slot (sm.ts). `now` is the core cycle of the event. Calls for one SM arrive
 * in simulated-time order.
 */
export interface SmTimelineHooks {
  /** The next warp of CTA `cta` (its warps arrive in order, one call each) takes warp slot `slot`. */
  launch(slot: number, cta: number, now: number): void;
  /** Context c issued an instruction standing for `count` PTX instructions (issued on consecutive cycles) of `lanes` active lanes. */
  issue(c: number, lanes: number, count: number, pendingLoads: number, now: number): void;
  /** A load / atomic response for context c arrived; `pendingLoads` are still outstanding. */
  response(c: number, pendingLoads: number, now: number): void;
  /** The warp in `slot` finished and left its slot. */
  finish(slot: number, now: number): void;
  /** Context c has a traceRay to send but the RT unit's warp buffer is full (reported at least once per wait). */
  rtBufferFull(c: number, now: number): void;
  /** The warp of SM context c entered RT-unit warp-buffer entry `entry` with `rays` rays. */
  rtEnter(entry: number, c: number, rays: number, now: number): void;
  /** The warp in RT-unit entry `entry` (SM context c) left the RT unit. */
  rtLeave(entry: number, c: number, now: number): void;
}
