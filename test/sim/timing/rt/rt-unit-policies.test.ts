import test from 'ava';
import { loadConfig } from '../../../../src/sim/config/gpu-config.js';
import type { L1DataCache } from '../../../../src/sim/timing/l1-cache.js';
import { ReqKind, type Waiter } from '../../../../src/sim/timing/mem-request.js';
import { PredictorPolicy } from '../../../../src/sim/timing/predictor/predictor-policy.js';
import { BaselineOrder } from '../../../../src/sim/timing/rt/baseline-order.js';
import { rtUnitFor } from '../../../../src/sim/timing/rt/rt-unit-for.js';
import { RtUnit } from '../../../../src/sim/timing/rt/rt-unit.js';
import { DeviceHeap } from '../../../../src/sim/timing/device-heap.js';
import { simulate } from '../../../../src/sim/timing/gpu.js';
import { TreeletPolicy } from '../../../../src/sim/timing/treelets/treelet-policy.js';
import type { TreeletMap } from '../../../../src/sim/rt/treelets.js';
import type { RtLaneWork, RtTransaction } from '../../../../src/sim/warp-step.js';
import { ScriptedWarp, aluStep, rtStep } from '../synthetic-warp.js';

const BVH = 0x4000_0000;
const ROOT: RtTransaction = { address: BVH, size: 64, kind: 'internal' };
const LEAF: RtTransaction = { address: BVH + 0x1000, size: 64, kind: 'proceduralLeaf' };
const NEXT: RtTransaction = { address: BVH + 0x2000, size: 64, kind: 'internal' };

/** One treelet holding every node above, so the treelet policy's queues have a map to read. */
const MAP: TreeletMap = { treeletOfAddress: new Map([ROOT, LEAF, NEXT].map((t) => [t.address, 0])), treeletStart: [BVH], treeletBytes: [0x2040], budget: 0x4000 };

/** An L1D stand-in: takes every access, logs it, answers loads and store acks `latency` cycles later. */
class LoggingCache {
  readonly log: { kind: ReqKind; addr: number; at: number }[] = [];
  private readonly due: { at: number; w: Waiter }[] = [];
  constructor(private readonly latency: number) {}
  access(addr: number, _bytes: number, kind: ReqKind, _source: unknown, waiter: Waiter | null, now: number): boolean {
    this.log.push({ kind, addr, at: now });
    if (waiter !== null) this.due.push({ at: now + this.latency, w: waiter });
    return true;
  }
  loadUncached(addr: number, _bytes: number, _words: number, _source: unknown, waiter: Waiter, now: number): boolean {
    return this.access(addr, 0, ReqKind.Load, null, waiter, now);
  }
  deliver(now: number): void {
    for (const d of this.due.filter((x) => x.at <= now)) d.w.client.onResponse(d.w, now);
    this.due.splice(0, this.due.length, ...this.due.filter((x) => x.at > now));
  }
}

const work = (lanes: RtTransaction[][]): RtLaneWork[] => lanes.map((transactions, lane) => ({ lane, transactions, boxTests: 1, triangleTests: 0, transforms: 0 }));

/** Runs one traceRay through the unit the config asks for; the memory log and the cycle it completed. */
function runOne(overrides: string[]): { unit: RtUnit; log: LoggingCache['log']; done: number } {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=1', 'rt_treelet_queue_threshold=0', ...overrides]);
  const cache = new LoggingCache(5);
  let done = -1;
  const unit = rtUnitFor(cfg, {
    cache: cache as unknown as L1DataCache, l1: cache as unknown as L1DataCache, onTraceDone: (_token, now) => (done = now), tableBase: () => 0x7000_0000, hitStoreHeap: new DeviceHeap(0x7800_0000),
  }, 0, MAP);
  unit.tryAccept(0, work([[ROOT, LEAF, NEXT], [ROOT, NEXT]]), 0);
  for (let now = 1; now < 500 && done < 0; now++) {
    cache.deliver(now);
    unit.cycle(now);
  }
  unit.finish(done);
  return { unit, log: cache.log, done };
}

const POLICIES: [string, string[], new (...a: never[]) => unknown][] = [
  ['baseline order', [], BaselineOrder],
  ['intersection predictor', ['gpgpu_rt_predictor=1'], PredictorPolicy],
  ['ray virtualization', ['rt_ray_virtualization=1'], TreeletPolicy],
  ['treelet queues', ['rt_ray_virtualization=1', 'rt_treelet_queues=1'], TreeletPolicy],
];

for (const [name, overrides, policy] of POLICIES) {
  test(`one RT unit, ${name} policy: intersection-table stores take the memory port before the next node chunk, and the traceRay ends after their acks`, (t) => {
    const { unit, log, done } = runOne(overrides);
    t.true(unit instanceof RtUnit);
    t.true(unit.policy instanceof policy);
    t.true(done > 0, 'the traceRay completed');
    const loads = log.filter((l) => l.kind === ReqKind.Load && l.addr >= BVH && l.addr < BVH + 0x4000);
    const stores = log.filter((l) => l.kind === ReqKind.Store && l.addr >= 0x7000_0000 && l.addr < 0x8000_0000); // not the treelets' ray data
    t.is(stores.length, 2, 'one procedural-leaf candidate: hitGroupIndex and shader_data, 32 B each');
    t.is(unit.stats.stores, 2);
    // The leaf's stores are queued when its first node arrives (Vulkan-Sim dec_thread_latency) and
    // go before any node chunk requested after them.
    const firstStore = log.indexOf(stores[0]!);
    const nextChunk = log.findIndex((l, i) => i > firstStore && l.kind === ReqKind.Load && l.addr >= NEXT.address && l.addr < NEXT.address + 64);
    t.true(nextChunk > firstStore + 1);
    t.is(unit.stats.raysCompleted, 2);
    t.is(unit.stats.warpsCompleted > 0, true);
    t.true(loads.length >= 6, 'root (merged), leaf and next node: 2 chunks each');
    t.true(unit.idle());
  });
}

test('the predictor and treelet policies run the same workload through one unit: same rays, node fetches and stores as the baseline order', (t) => {
  const warps = () => [0, 1, 2, 3].map((w) => new ScriptedWarp([aluStep(2, 10), rtStep([[ROOT, LEAF, NEXT], [ROOT, NEXT], [ROOT]]), aluStep(2, 11)], w));
  const cfg = (...o: string[]) => loadConfig('mobile', ['gpgpu_n_clusters=1', ...o]);
  const base = simulate(warps(), cfg()).values;
  const pred = simulate(warps(), cfg('gpgpu_rt_predictor=1')).values;
  const virt = simulate(warps(), cfg('rt_ray_virtualization=1')).values;
  const tree = simulate(warps(), cfg('rt_ray_virtualization=1', 'rt_treelet_queues=1'), { treelets: MAP }).values;
  for (const v of [pred, virt, tree]) {
    t.is(v.rt_total_rays, base.rt_total_rays);
    t.is(v.rt_avg_nodes_per_ray, base.rt_avg_nodes_per_ray);
    t.is(v.rt_writes, base.rt_writes);
  }
  t.is(base.rt_writes, 4 * 2);
  // The predictor looks up only rays with a ray record (occlusion rays): none here, so it replays
  // exactly the baseline order.
  t.is(pred.gpu_sim_cycle, base.gpu_sim_cycle);
  t.is(pred.rt_total_requests, base.rt_total_requests);
});

for (const [scheduler, storeFirst] of [['access', false], ['warp', true]] as const) {
  test(`gpgpu_rt_scheduler=${scheduler}: a store queued while an access's chunks wait goes ${storeFirst ? 'before' : 'after'} them`, (t) => {
    // Vulkan-Sim rt_unit::memory_cycle serves the current access's mem_access_q, then mem_store_q,
    // then a new access; the warp scheduler (vvision's) serves stores first.
    const cfg = loadConfig('mobile', ['gpgpu_n_clusters=1', `gpgpu_rt_scheduler=${scheduler}`]);
    const cache = new LoggingCache(50);
    const unit = rtUnitFor(cfg, {
      cache: cache as unknown as L1DataCache, l1: cache as unknown as L1DataCache, onTraceDone: () => {}, tableBase: () => 0x7000_0000, hitStoreHeap: new DeviceHeap(0x7800_0000),
    }, 0, MAP);
    unit.tryAccept(0, work([[ROOT]]), 0);
    unit.cycle(1);
    t.deepEqual(cache.log.map((l) => l.addr), [ROOT.address], 'the root node\'s first 32 B chunk');
    unit.queueStore({ addr: 0x7100_0000, bytes: 32, words: 0xff, ack: null });
    unit.cycle(2);
    unit.cycle(3);
    const order = cache.log.map((l) => l.addr);
    t.deepEqual(order, storeFirst ? [ROOT.address, 0x7100_0000, ROOT.address + 32] : [ROOT.address, ROOT.address + 32, 0x7100_0000]);
  });
}
