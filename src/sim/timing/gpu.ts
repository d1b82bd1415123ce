/**
 * The whole GPU and the `simulate` entry point: SMs (with their L1D and RT unit), the request and
 * reply interconnects, memory partitions (L2 banks + DRAM) and the CTA scheduler, ticked once per
 * core cycle in reverse pipeline order (memory partitions, then SMs, then CTA issue) so a value
 * produced this cycle is consumed next cycle without double-buffering.
 *
 * Event skipping, at two levels. Each SM and each memory partition ticks only from the cycle its
 * own next event is due (its `nextEvent` after its last tick), or when something from outside
 * reaches it: a reply or request off the network, a CTA. And when no SM issued in a cycle, the
 * loop asks every component for the next cycle at which anything can happen and jumps there. A
 * component skipped over a span changes nothing in it: per-cycle averages (occupancy, DRAM
 * activity, RT-unit residency) are accumulated over the skipped span by the component when it
 * next ticks, as if every cycle had been simulated.
 *
 * Invariants: deterministic (no wall-clock or random input reaches the model); `warp.step()` is
 * called in simulated-time order; the run ends when every warp has finished and the memory system has drained (or at maxCycles).
 */
import type { GpuConfig } from '../config/gpu-config.js';
import { fillPortCycles } from '../config/cache-config.js';
import { ConfigError } from '../config/config-error.js';
import { AddressMap } from './address-map.js';
import { CacheStats } from './cache.js';
import { CtaScheduler } from './cta-scheduler.js';
import { DramStats } from './dram.js';
import { FlitCrossbar } from './flit-crossbar.js';
import { LocalCrossbar } from './local-crossbar.js';
import { MemLatencyStats } from './mem-latency-stats.js';
import type { CrossbarCounters, Network } from './network.js';
import { MemoryPartition } from './memory-partition.js';
import { ReplyEjection } from './reply-ejection.js';
import { RtStats } from './rt/rt-stats.js';
import { Sm, type TimingWarp } from './sm.js';
import { SmStats } from './sm-stats.js';
import { type StatsInput, type TimingStats, buildStats } from './stats.js';
import type { TimelineRecorder } from './timeline.js';
import { DeadlockWatchdog } from './watchdog.js';
import { DeviceHeap } from './device-heap.js';
import { RT_HIT_STORE_BASE } from './rt-thread-state.js';
import { RayVirtualization, VirtualizationStats } from './ray-virtualization.js';
import type { TreeletMap } from '../rt/treelets.js';
import { TreeletPolicy } from './treelets/treelet-policy.js';
import { TreeletStats } from './treelets/treelet-stats.js';
import { treeletTableArea } from './treelets/treelet-queues.js';
import { AccessOutcome } from './cache.js';
import { ReqSource } from './mem-request.js';

export type { TimingWarp } from './sm.js';

export interface SimulateOptions {
  /** Called about every `progressInterval` simulated cycles and at the end. */
  onProgress?(cycle: number, warpsDone: number): void;
  progressInterval?: number;
  /** Warps per CTA (default 1: 32x1 thread blocks). */
  ctaSize?: number;
  /** Stop (and mark the stats truncated) after this many cycles. */
  maxCycles?: number;
  /** Records the warp timeline (timeline.ts); without it the model runs no timeline code. */
  timeline?: TimelineRecorder;
  /** The BVH's treelets: needed when the config turns on rt_treelet_queues (paper 001). */
  treelets?: TreeletMap;
  /**
   * Register words per thread live across the raygen's traceRay (liveness): what ray
   * virtualization saves per thread when rt_cta_saved_registers is 0; without it,
   * gpgpu_registers_per_thread (the paper's ptxas count).
   */
  liveRegisters?: number;
  /** Per 256-byte block of a thread's private memory, the block of Vulkan-Sim's allocation it stands for (ModuleStatics.rtStateBlocks; default: each its own). */
  rtStateBlocks?: Int32Array;
}

export class Gpu {
  readonly sms: Sm[];
  readonly partitions: MemoryPartition[];
  readonly reqNet: Network;
  readonly replyNet: Network;
  readonly map: AddressMap;

  /** Ray virtualization's table of terminated CTAs (null when rt_ray_virtualization is off). */
  readonly virt: RayVirtualization | null;

  /** `program`: what the compiled program tells the timing model beside its warps (SimulateOptions). */
  constructor(readonly cfg: GpuConfig, program: Pick<SimulateOptions, 'treelets' | 'liveRegisters' | 'rtStateBlocks'> = {}) {
    const { treelets, liveRegisters, rtStateBlocks } = program;
    // Live values beyond the thread's register allocation would be spilled by the compiler, not saved.
    const saved = cfg.treelet.savedRegisters ||
      (liveRegisters !== undefined && liveRegisters > 0 ? Math.min(liveRegisters, cfg.registersPerThread) : cfg.registersPerThread);
    this.virt = cfg.treelet.virtualization ? new RayVirtualization(cfg, saved) : null;
    this.map = new AddressMap({
      channels: cfg.numMemChannels, subPerChannel: cfg.subPartitionsPerChannel, banks: cfg.dram.nbk, ...cfg.addressMapping,
    });
    const subs = cfg.numMemChannels * cfg.subPartitionsPerChannel;
    // The model ticks at the core clock; interconnect and L2 latencies given in their own clock
    // domains are converted (identical clocks in every preset, so this is usually a no-op).
    const icntLatency = Math.max(1, Math.round((cfg.icnt.latency * cfg.clocks.coreMhz) / cfg.clocks.icntMhz));
    if (cfg.icnt.mode === 2) {
      const xbar = { inBufferLimit: cfg.icnt.bufferPackets, outBufferLimit: cfg.icnt.outBufferPackets, arbiter: cfg.icnt.arbiter, grantCycles: cfg.icnt.grantCycles };
      this.reqNet = new LocalCrossbar(cfg.numSms, subs, 0, cfg.numSms, xbar);
      this.replyNet = new LocalCrossbar(cfg.numSms, subs, cfg.numSms, 0, xbar);
    } else {
      this.reqNet = new FlitCrossbar(cfg.numSms, subs, icntLatency, cfg.icnt.flitBytes, cfg.icnt.bufferPackets);
      this.replyNet = new FlitCrossbar(subs, cfg.numSms, icntLatency, cfg.icnt.flitBytes, cfg.icnt.bufferPackets);
    }
    this.partitions = Array.from({ length: cfg.numMemChannels }, (_, c) => new MemoryPartition(cfg, c, this.map, this.memLatency));
    const mech = { ...(treelets ? { treelets } : {}), ...(this.virt ? { virt: this.virt } : {}), ...(rtStateBlocks ? { rtStateBlocks } : {}), hitStoreHeap: new DeviceHeap(RT_HIT_STORE_BASE) };
    this.sms = Array.from({ length: cfg.numSms }, (_, i) => new Sm(cfg, i, this.map, mech));
    this.ejection = new ReplyEjection(cfg.numSms, cfg.ejection.clusterBuffer, cfg.ejection.ldstResponseBuffer, fillPortCycles(cfg.l1d), this.memLatency);
    this.partitionWake = new Float64Array(this.partitions.length);
    this.smWake = new Float64Array(this.sms.length);
  }

  /** Memory replies delivered to SMs so far (progress, for the deadlock watchdog). */
  repliesDelivered = 0;
  readonly memLatency = new MemLatencyStats();
  /** The cluster ejection FIFOs and LD/ST response queues between the reply network and the SMs. */
  private readonly ejection: ReplyEjection;

  /** Per partition: no tick needed before this cycle unless a request arrives. */
  private readonly partitionWake: Float64Array;
  /** Per SM: no tick needed before this cycle unless a reply or a CTA reaches it (its nextEvent after its last tick). */
  private readonly smWake: Float64Array;

  /** CTAs were placed (or resumed): every SM ticks from `now` on until its own next event says otherwise. */
  wakeSms(now: number): void {
    this.smWake.fill(now);
  }

  /**
   * One core cycle, in GPGPU-Sim's order (gpgpu_sim::cycle): SMs take a reply each, memory
   * partitions send replies, run DRAM and L2 and take requests, the network moves packets, then
   * the SMs run (and send requests). Returns true if any SM issued an instruction.
   */
  cycle(now: number): boolean {
    const sms = this.sms;
    const ej = this.ejection;
    if (!ej.idle() || this.replyNet.nextDelivery() <= now) {
      for (let i = 0; i < sms.length; i++) {
        if (ej.cycle(i, now, this.replyNet, sms[i]!)) {
          this.repliesDelivered++;
          this.smWake[i] = now;
        }
      }
    }
    for (let i = 0; i < this.partitions.length; i++) {
      const p = this.partitions[i]!;
      if (now < this.partitionWake[i]!) {
        if (this.reqNet.nextDelivery() > now) continue;
        let arrived = false;
        for (const b of p.banks) if (this.reqNet.nextArrival(b.id) <= now) arrived = true;
        if (!arrived) continue;
      }
      p.cycle(now, this.reqNet, this.replyNet);
      this.partitionWake[i] = p.wakeAfter(now);
    }
    this.reqNet.advance(now);
    this.replyNet.advance(now);
    let issued = false;
    const virt = this.virt !== null;
    for (let i = 0; i < sms.length; i++) {
      // Without ray virtualization a sleeping SM is skipped on the wake table alone.
      if (now < this.smWake[i]! && (!virt || !sms[i]!.suspensionPending)) continue;
      const sm = sms[i]!;
      if (sm.cycle(now, this.reqNet)) {
        issued = true;
        this.smWake[i] = now + 1;
      } else this.smWake[i] = sm.nextEvent(now);
    }
    return issued;
  }

  idle(): boolean {
    return this.reqNet.idle() && this.replyNet.idle() && this.ejection.idle() && this.partitions.every((p) => p.idle()) && this.sms.every((s) => s.idle());
  }

  nextEvent(now: number): number {
    if (!this.ejection.idle()) return now + 1;
    let t = Math.min(this.reqNet.nextEvent(now), this.replyNet.nextEvent(now));
    for (const p of this.partitions) {
      t = Math.min(t, p.nextEvent(now));
      if (t === now + 1) return t;
    }
    // An SM's next event was taken after its last tick, and nothing has reached it since.
    for (let i = 0; i < this.smWake.length; i++) {
      t = Math.min(t, this.smWake[i]!);
      if (t === now + 1) return t;
    }
    return t;
  }
}

export function simulate(warps: TimingWarp[], config: GpuConfig, opts: SimulateOptions = {}): TimingStats {
  const started = performance.now();
  const gpu = createGpu(config, opts);
  const samples = new LaunchSamples(config.statsSampleInterval);
  const end = runLaunch(gpu, warps, opts, 0, samples);
  return buildStats(statsInput(gpu, opts, aggregateStats(gpu), end.cycles, end.truncated, samples, (performance.now() - started) / 1000));
}

/** Checks the options against the config and builds the GPU (with its timeline attached) for one or more launches. */
export function createGpu(config: GpuConfig, opts: SimulateOptions = {}): Gpu {
  const ctaSize = opts.ctaSize ?? 1;
  if (!Number.isInteger(ctaSize) || ctaSize < 1 || ctaSize > config.maxWarpsPerSm) {
    throw new ConfigError(`ctaSize ${ctaSize} warps does not fit an SM of ${config.maxWarpsPerSm} warp slots`, 'ctaSize');
  }
  if (ctaSize * config.warpSize * config.registersPerThread > config.registersPerSm) {
    throw new ConfigError(
      `a CTA of ${ctaSize} warps needs ${ctaSize * config.warpSize * config.registersPerThread} registers, more than gpgpu_shader_registers = ${config.registersPerSm}`,
      'gpgpu_registers_per_thread',
    );
  }
  const p = config.rt.predictor;
  if ((config.treelet.queues || config.treelet.virtualization) && p.enabled && (p.repack || p.extraWarps > 0)) {
    // The predictor's lookup works in front of the treelet policy; its warp repacking does not:
    // there the treelet controller forms every warp of the RT unit (treelets/treelet-policy.ts).
    throw new ConfigError(
      `gpgpu_rt_predictor_${p.repack ? 'repack' : 'extra_warps'} cannot be combined with rt_treelet_queues / rt_ray_virtualization: the treelet controller forms the RT unit's warps, ` +
        'so the predictor\'s partial warp collector has none to form; set gpgpu_rt_predictor_repack=0 and gpgpu_rt_predictor_extra_warps=0 (rays are then looked up before they enter the treelet policy)',
      p.repack ? 'gpgpu_rt_predictor_repack' : 'gpgpu_rt_predictor_extra_warps',
    );
  }
  if (config.treelet.queues && !opts.treelets) throw new ConfigError('rt_treelet_queues needs the BVH\'s treelets (SimulateOptions.treelets)', 'rt_treelet_queues');
  const gpu = new Gpu(config, opts);
  if (opts.timeline !== undefined) for (const s of gpu.sms) s.attachTimeline(opts.timeline.forSm(s.id));
  return gpu;
}

/** Fig. 18 / paper 001 Fig. 11 samples, taken every `interval` cycles across the launches of a run. */
export class LaunchSamples {
  readonly rays: number[] = [];
  readonly rtWarps: number[] = [];
  /** Fig. 11 (paper 001): miss rate of the RT unit's L1D accesses per sample interval. */
  readonly rtL1MissRate: number[] = [];
  /** L2 reservation fails (every bank, every cause) per sample interval: when the refusals happen. */
  readonly l2Fails: number[] = [];
  private rtL1Seen = [0, 0];
  private l2FailsSeen = 0;
  next: number;

  constructor(readonly interval: number) {
    this.next = interval;
  }

  sample(gpu: Gpu): void {
    let r = 0;
    let w = 0;
    for (const sm of gpu.sms) {
      r += sm.rt.raysInFlight;
      w += sm.rt.residentWarps;
    }
    this.rays.push(r);
    this.rtWarps.push(w);
    let acc = 0;
    let miss = 0;
    for (const sm of gpu.sms) {
      const c = sm.rtCache.cache.stats;
      const m = c.get(ReqSource.Rt, AccessOutcome.MissCompulsory) + c.get(ReqSource.Rt, AccessOutcome.MissCapacityConflict) +
        c.get(ReqSource.Rt, AccessOutcome.MissSector);
      acc += m + c.get(ReqSource.Rt, AccessOutcome.Hit) + c.get(ReqSource.Rt, AccessOutcome.HitReserved);
      miss += m;
    }
    this.rtL1MissRate.push(acc > this.rtL1Seen[0]! ? (miss - this.rtL1Seen[1]!) / (acc - this.rtL1Seen[0]!) : 0);
    this.rtL1Seen = [acc, miss];
    let fails = 0;
    for (const p of gpu.partitions) for (const b of p.banks) fails += b.cache.stats.get(ReqSource.Shader, AccessOutcome.ReservationFail) + b.cache.stats.get(ReqSource.Rt, AccessOutcome.ReservationFail);
    this.l2Fails.push(fails - this.l2FailsSeen);
    this.l2FailsSeen = fails;
  }
}

/**
 * One launch on `gpu`, its first cycle `start` (a launch after another starts where that one
 * ended, with the caches as it left them): runs until every warp finished and the memory system
 * drained, or `opts.maxCycles`. Returns the cycle count so far (`cycles` = last cycle + 1).
 */
export function runLaunch(
  gpu: Gpu, warps: TimingWarp[], opts: SimulateOptions, start: number, samples: LaunchSamples,
): { cycles: number; truncated: boolean } {
  const config = gpu.cfg;
  const maxCycles = opts.maxCycles ?? Infinity;
  const progressEvery = opts.progressInterval ?? 10000;
  const timeline = opts.timeline;
  const ctas = new CtaScheduler(warps, opts.ctaSize ?? 1, gpu.virt);
  let nextProgress = start + progressEvery;
  let now = start;
  let truncated = false;
  const finishedBefore = gpu.sms.reduce((n, sm) => n + sm.stats.warpsFinished, 0);
  const warpsDone = (): number => gpu.sms.reduce((n, sm) => n + sm.stats.warpsFinished, 0) - finishedBefore;
  const watchdog = new DeadlockWatchdog(config.deadlockWindow);

  gpu.wakeSms(now);
  for (;;) {
    if (ctas.cycle(gpu.sms, now)) gpu.wakeSms(now);
    const issued = gpu.cycle(now);
    // The launch ends when every warp has finished and its stores have drained (GPGPU-Sim waits
    // for store acknowledgements before a warp exits).
    if (ctas.allIssued && gpu.sms.every((sm) => sm.residentWarps === 0) && gpu.idle() && (gpu.virt === null || gpu.virt.idle())) break;
    const next = issued ? now + 1 : Math.min(gpu.nextEvent(now), ctas.nextEvent(gpu.sms, now));
    watchdog.observe(now, Math.min(next, maxCycles + 1), issued, gpu.repliesDelivered, gpu.sms);
    if (next === Infinity) {
      throw new Error(`internal: timing model deadlock at cycle ${now} (${warpsDone()} of ${warps.length} warps done)`);
    }
    if (next > maxCycles) {
      truncated = true;
      now = maxCycles;
      break;
    }
    while (samples.next <= next) {
      samples.sample(gpu);
      samples.next += config.statsSampleInterval;
    }
    if (timeline !== undefined) timeline.advanceTo(next, gpu);
    if (opts.onProgress && next >= nextProgress) {
      opts.onProgress(next, warpsDone());
      nextProgress = next + progressEvery;
    }
    now = next;
  }
  const cycles = now + 1;
  for (const sm of gpu.sms) sm.finish(cycles);
  for (const p of gpu.partitions) p.dram.finish(cycles);
  if (timeline !== undefined) timeline.finish(cycles, gpu);
  opts.onProgress?.(cycles, warpsDone());
  return { cycles, truncated };
}

/** Every component's counters so far, added up: fresh objects, so they stay as they are while the GPU runs on. */
export interface AggregateStats {
  sm: SmStats;
  l1d: CacheStats;
  l2: CacheStats;
  dram: DramStats;
  /** Each memory channel's DRAM counters, in channel order (`dram` is their sum). */
  dramChannels: DramStats[];
  rt: RtStats;
  treelet: TreeletStats;
  virtualization: VirtualizationStats | null;
  icntPackets: number;
  icntBytes: number;
  /** The local crossbar's counters per subnet (null under the flit crossbar). */
  icntCounters: IcntCounters | null;
  memLatency: MemLatencyStats;
}

export interface IcntCounters {
  req: CrossbarCounters;
  reply: CrossbarCounters;
}

export function aggregateStats(gpu: Gpu): AggregateStats {
  const sm = new SmStats();
  const l1d = new CacheStats();
  const l2 = new CacheStats();
  const dram = new DramStats();
  const dramChannels: DramStats[] = [];
  const rt = new RtStats();
  const treelet = new TreeletStats();
  for (const s of gpu.sms) {
    if (s.rt.policy instanceof TreeletPolicy) treelet.add(s.rt.policy.stats);
    sm.add(s.stats);
    l1d.add(s.l1.cache.stats);
    if (s.rtCache !== s.l1) l1d.add(s.rtCache.cache.stats);
    rt.add(s.rt.stats);
  }
  for (const p of gpu.partitions) {
    dram.add(p.dram.stats);
    dramChannels.push(Object.assign(new DramStats(), p.dram.stats));
    for (const b of p.banks) l2.add(b.cache.stats);
  }
  const virtualization = gpu.virt ? Object.assign(new VirtualizationStats(), gpu.virt.stats) : null;
  return {
    sm, l1d, l2, dram, dramChannels, rt, treelet, virtualization,
    icntPackets: gpu.reqNet.packets + gpu.replyNet.packets,
    icntBytes: gpu.reqNet.bytes + gpu.replyNet.bytes,
    icntCounters: icntCounters(gpu),
    memLatency: Object.assign(new MemLatencyStats(), gpu.memLatency),
  };
}

function icntCounters(gpu: Gpu): IcntCounters | null {
  const req = gpu.reqNet.counters();
  const reply = gpu.replyNet.counters();
  return req && reply ? { req, reply } : null;
}

/** What `buildStats` needs, from aggregated counters over `cycles` cycles and the samples of those cycles. */
export function statsInput(
  gpu: Gpu, opts: SimulateOptions, a: AggregateStats, cycles: number, truncated: boolean,
  samples: Pick<LaunchSamples, 'rays' | 'rtWarps' | 'rtL1MissRate' | 'l2Fails'>, wallSeconds: number,
): StatsInput {
  const config = gpu.cfg;
  const lat = config.rt.latency;
  return {
    config: config.source,
    cycles,
    wallSeconds,
    truncated,
    numSms: config.numSms,
    maxWarpsPerSm: config.maxWarpsPerSm,
    numChannels: config.numMemChannels,
    rtMaxWarps: config.rt.maxWarps,
    rtComputeBound: config.rt.opUnits * (lat[1]! + lat[2]! + lat[4]!),
    rtPredictorTableBytes: gpu.sms[0]?.rt.policy.predictorTableBytes ?? 0,
    sm: a.sm,
    l1d: a.l1d,
    l2: a.l2,
    dram: a.dram,
    dramChannels: a.dramChannels,
    rt: a.rt,
    icntPackets: a.icntPackets,
    icntBytes: a.icntBytes,
    icntCounters: a.icntCounters,
    numSubPartitions: config.numMemChannels * config.subPartitionsPerChannel,
    memLatency: a.memLatency,
    sampleInterval: config.statsSampleInterval,
    samplesRays: [...samples.rays],
    samplesWarps: [...samples.rtWarps],
    rtL1MissRate: [...samples.rtL1MissRate],
    l2Fails: [...samples.l2Fails],
    ...(config.treelet.queues || config.treelet.virtualization ? {
      treelet: {
        stats: a.treelet,
        virtualization: a.virtualization,
        area: treeletTableArea({
          countEntries: config.treelet.countTableEntries, queueEntries: config.treelet.queueTableEntries,
          treeletBytes: opts.treelets?.budget ?? 8192, raysPerSm: config.treelet.raysPerSm,
        }),
      },
    } : {}),
  };
}
