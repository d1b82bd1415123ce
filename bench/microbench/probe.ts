/**
 * What the microbenchmarks measure inside a run, through the timing model's timeline hooks
 * (src/sim/timing/timeline-hooks.ts) rather than from end-to-end cycles, so loop overhead and
 * launch ramp do not blur a latency:
 * - load-to-use latency: for each warp context, the cycle an instruction raised its outstanding
 *   load count from 0 to the cycle that count fell back to 0 (for a one-lane pointer chase this is
 *   exactly one dependent load, from issue to the data being usable);
 * - RT-unit residency: each warp's cycles from entering the RT unit to leaving it.
 *
 * It records nothing else (no trace events), so it costs a few array writes per hook call.
 */
import type { GpuConfig } from '../../src/sim/config/gpu-config.js';
import { TimelineRecorder } from '../../src/sim/timing/index.js';
import type { SmTimelineHooks } from '../../src/sim/timing/timeline-hooks.js';

export interface ProbeRecord {
  /** Load-to-use latencies in issue order, per SM (all its warp contexts interleaved). */
  loadLatencies: number[][];
  /** RT-unit residencies (enter to leave) in completion order, per SM. */
  rtResidencies: number[][];
}

export class MicrobenchProbe extends TimelineRecorder {
  readonly record: ProbeRecord;

  constructor(config: GpuConfig) {
    super({ numSms: config.numSms, maxWarpsPerSm: config.maxWarpsPerSm, rtMaxWarps: config.rt.maxWarps, warpSize: config.warpSize, ctaSize: 1 });
    this.record = { loadLatencies: Array.from({ length: config.numSms }, () => []), rtResidencies: Array.from({ length: config.numSms }, () => []) };
  }

  override forSm(id: number): SmTimelineHooks {
    const loads = this.record.loadLatencies[id]!;
    const rt = this.record.rtResidencies[id]!;
    const pending = new Map<number, number>();
    const since = new Map<number, number>();
    const rtSince = new Map<number, number>();
    return {
      launch: () => {},
      issue: (c, _lanes, _count, pendingLoads, now) => {
        if ((pending.get(c) ?? 0) === 0 && pendingLoads > 0) since.set(c, now);
        pending.set(c, pendingLoads);
      },
      response: (c, pendingLoads, now) => {
        if (pendingLoads === 0 && (pending.get(c) ?? 0) > 0) loads.push(now - since.get(c)!);
        pending.set(c, pendingLoads);
      },
      finish: () => {},
      rtBufferFull: () => {},
      rtEnter: (entry, _c, _rays, now) => { rtSince.set(entry, now); },
      rtLeave: (entry, _c, now) => { rt.push(now - rtSince.get(entry)!); },
    };
  }

  override advanceTo(): void {}

  override finish(cycles: number): void {
    this.cycles = cycles;
  }
}
