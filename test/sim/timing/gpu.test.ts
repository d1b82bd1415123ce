import test from 'ava';
import { loadConfig, type GpuConfig } from '../../../src/sim/config/gpu-config.js';
import { IssuePipeline } from '../../../src/sim/timing/operand-collector.js';
import { IssueUnit } from '../../../src/sim/ptx-op.js';
import { simulate } from '../../../src/sim/timing/gpu.js';
import { ScriptedWarp, chaseStep, loadStep, traversalWorkload } from './synthetic-warp.js';

const ONE_SM = ['gpgpu_n_clusters=1'];

/** Cycles per hop of a dependent chase: the difference between a 2N-hop and an N-hop run. */
/** Cycles from a load's issue until the LD/ST unit takes it: through the operand collector (operand-collector.ts), no register operands. */
function toLdst(cfg: GpuConfig): number {
  const p = new IssuePipeline(cfg);
  p.reserve(0, IssueUnit.Mem, 0, 0, new Int32Array(0), 0, 0, -1, 0, 1);
  return p.execAt;
}

function hopLatency(overrides: string[], addrOf: (i: number) => number, n = 16): number {
  const cfg = loadConfig('mobile', [...ONE_SM, ...overrides]);
  const run = (hops: number) =>
    simulate([new ScriptedWarp(Array.from({ length: hops }, (_, i) => chaseStep(addrOf(i))))], cfg).values.gpu_sim_cycle!;
  return (run(2 * n) - run(n)) / n;
}

test('a pointer chase hitting in the L1D costs the configured L1 latency', (t) => {
  for (const lat of [20, 39]) {
    const hop = hopLatency([`gpgpu_l1_latency=${lat}`], () => 0x1000);
    // Plus the cycles until the LD/ST unit takes the instruction from the operand collector.
    const extra = toLdst(loadConfig('mobile', ONE_SM));
    t.true(hop >= lat + extra - 1 && hop <= lat + extra + 1, `L1 ${lat}: measured ${hop}`);
  }
});

test('a pointer chase hitting in the L2 costs L1 + the network round trip + L2 latency', (t) => {
  // A one-line L1 and two alternating lines: every hop misses the L1 and hits the L2.
  const tinyL1 = 'gpgpu_cache:dl1=N:1:128:1,L:L:m:N:L,A:256:8,16:0,32';
  for (const mode of [1, 2]) {
    for (const l2 of [160, 187]) {
      const hop = hopLatency([tinyL1, `gpgpu_l2_rop_latency=${l2}`, `network_mode=${mode}`], (i) => 0x1000 + (i % 2) * 128);
      const cfg = loadConfig('mobile', [...ONE_SM, `network_mode=${mode}`]);
      // Mode 2 (GPGPU-Sim's local crossbar): a request moves the cycle after its push and is taken the
      // cycle after that, a reply is taken the cycle after its push; packets of any size move at once.
      // Mode 1: `icnt_latency` each way, and the one-line L1's 128 B line takes flits on the reply.
      // Either way the reply then spends a cycle in the cluster's ejection FIFO (reply-ejection.ts).
      const roundTrip = (mode === 2 ? 3 : 2 * cfg.icnt.latency) + 1;
      const expected = cfg.l1Latency + roundTrip + l2 + toLdst(cfg) - 1;
      const slack = 4 + (mode === 1 ? Math.ceil(128 / cfg.icnt.flitBytes) : 0);
      t.true(hop >= expected && hop <= expected + slack, `mode ${mode}, L2 ${l2}: measured ${hop}, expected ~${expected}`);
    }
  }
});

test('a pointer chase missing everywhere costs the L2 path plus the DRAM access', (t) => {
  const cfg = loadConfig('mobile', ONE_SM);
  const r = cfg.clocks.coreMhz / cfg.clocks.dramMhz;
  const d = cfg.dram;
  // Activate, then one column command per atom (tCCD apart), data CL after the last one.
  const atoms = 128 / (d.burstLength * d.busBytesPerChip * d.chipsPerChannel);
  const l2Path = cfg.l1Latency + (cfg.icnt.mode === 2 ? 3 : 2 * cfg.icnt.latency) + 1 + cfg.l2Latency + toLdst(cfg) - 1;
  const low = l2Path + d.returnLatency + (d.RCD + d.CL) * r;
  const high = low + (d.RP + d.RAS + (atoms - 1) * Math.max(d.CCD, d.CCDL)) * r + 6;
  const hop = hopLatency([], (i) => 0x100000 + i * 40960);
  t.true(hop >= low - 1 && hop <= high, `DRAM: measured ${hop}, expected ${low.toFixed(1)}..${high.toFixed(1)}`);
  // And a longer DRAM return latency shows up one for one.
  const hop2 = hopLatency(['dram_latency=300'], (i) => 0x100000 + i * 40960);
  t.true(Math.abs(hop2 - hop - 200) <= 2, `dram_latency +200 -> +${hop2 - hop}`);
});

test('same inputs give the same cycles and statistics', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=2']);
  const a = simulate(traversalWorkload(16, 2, 8, 1 << 18, 7), cfg);
  const b = simulate(traversalWorkload(16, 2, 8, 1 << 18, 7), cfg);
  const strip = (v: Record<string, number>) => Object.fromEntries(Object.entries(v).filter(([k]) => !/rate|wall/.test(k)));
  t.deepEqual(strip(a.values), strip(b.values));
  t.deepEqual(a.distributions, b.distributions);
});

test('perfect memory and perfect BVH memory lower cycles on a memory-bound workload', (t) => {
  const work = () => traversalWorkload(16, 2, 10, 1 << 20, 3);
  // One RT warp at a time: its rays' dependent node fetches wait on memory latency, not on the RT
  // unit's one-chunk-per-cycle port (with 4 warps and no RT MSHR limit the port is the bound).
  const memoryBound = [...ONE_SM, 'gpgpu_rt_max_warps=1'];
  const base = simulate(work(), loadConfig('mobile', memoryBound)).values.gpu_sim_cycle!;
  const bvh = simulate(work(), loadConfig('mobile', [...memoryBound, 'gpgpu_rt_perfect_mem=1'])).values.gpu_sim_cycle!;
  const all = simulate(work(), loadConfig('mobile', [...memoryBound, 'gpgpu_perfect_mem=1'])).values.gpu_sim_cycle!;
  t.true(bvh < base / 2, `perfect BVH ${bvh} vs ${base}`);
  t.true(all < base / 2, `perfect mem ${all} vs ${base}`);
});

test('stores travel to the L2 and count there; loads of a streamed array miss once per sector', (t) => {
  // MOBILE's L1D and L2 are sectored and sm_75 coalesces into 32 B sectors: a warp's 128 B load
  // is four accesses, four MSHR entries, four L2 requests and four DRAM reads.
  const cfg = loadConfig('mobile', ONE_SM);
  const steps = [];
  for (let i = 0; i < 8; i++) steps.push(loadStep(0x20000 + i * 128, 2));
  for (let i = 0; i < 8; i++) steps.push(loadStep(0x20000 + i * 128, 2, 'store'));
  const s = simulate([new ScriptedWarp(steps)], cfg);
  t.is(s.distributions.cacheBreakdown.L1D.shader.miss_compulsory, 8 * 4);
  t.is(s.distributions.cacheBreakdown.L1D.shader.hit, 8 * 4, 'stores hit the sectors the loads brought in');
  t.is(s.values.L2_total_cache_accesses, 16 * 4);
  t.is(s.values.dram_reads, 8 * 4);
});

test('maxCycles stops early and marks the stats truncated', (t) => {
  const s = simulate(traversalWorkload(8, 2, 8, 1 << 18), loadConfig('mobile', ONE_SM), { maxCycles: 500 });
  t.is(s.values.gpu_sim_truncated, 1);
  t.true(s.values.gpu_sim_cycle! <= 501);
});

test('a CTA that cannot fit an SM is a clear error', (t) => {
  t.throws(() => simulate([], loadConfig('mobile'), { ctaSize: 64 }), { message: /ctaSize 64 warps/ });
});

test('L2 write policy: write-allocate keeps stores in the L2, no-write-allocate sends them to DRAM', (t) => {
  const steps = Array.from({ length: 8 }, (_, i) => loadStep(0x20000 + i * 128, 2, 'store'));
  const alloc = simulate([new ScriptedWarp(steps)], loadConfig('mobile', ONE_SM));
  const noAlloc = simulate([new ScriptedWarp(steps)], loadConfig('mobile', [...ONE_SM, 'gpgpu_cache:dl2=S:192:128:16,L:B:m:N:L,A:192:4,32:0,32']));
  t.is(alloc.values.dram_writes, 0);
  t.is(noAlloc.values.dram_writes, 8 * 4, 'one write per 32 B sector request');
});

test('interconnect and L2 latencies given in slower clock domains cost more core cycles', (t) => {
  const tinyL1 = 'gpgpu_cache:dl1=N:1:128:1,L:L:m:N:L,A:256:8,16:0,32';
  const fast = hopLatency([tinyL1], (i) => 0x1000 + (i % 2) * 128);
  const slowL2 = hopLatency([tinyL1, 'gpgpu_clock_domains=1365.0:1365.0:682.5:3500.0'], (i) => 0x1000 + (i % 2) * 128);
  t.true(Math.abs(slowL2 - fast - 160) <= 2, `L2 at half clock: ${fast} -> ${slowL2}`);
});

test('L1 write policy: write-through by default, write-back keeps stores until a dirty eviction', (t) => {
  const stores = (space: 'global' | 'local') =>
    Array.from({ length: 8 }, (_, i) => {
      const s = loadStep(0x20000 + (i % 2) * 128, 2, 'store');
      s.memory[0]!.space = space;
      return s;
    });
  const l2Writes = (dl1: string | null, space: 'global' | 'local') =>
    simulate([new ScriptedWarp(stores(space))], loadConfig('mobile', [...ONE_SM, ...(dl1 ? [`gpgpu_cache:dl1=${dl1}`] : [])])).values.L2_total_cache_accesses;
  // One L2 write per 32 B sector of each 128 B warp store.
  t.is(l2Writes(null, 'global'), 8 * 4, 'default (L, no write-allocate): stores write through');
  t.is(l2Writes(null, 'local'), 8 * 4, 'default: local store misses write through too (no write-allocate)');
  const localWb = 'N:1:128:512,L:L:m:W:L,A:256:8,16:0,32';
  t.is(l2Writes(localWb, 'global'), 8 * 4, 'L policy: global stores write through');
  t.is(l2Writes(localWb, 'local'), 0, 'L policy with write-allocate: local stores stay in the L1');
  t.is(l2Writes('N:1:128:512,L:B:m:W:L,A:256:8,16:0,32', 'global'), 0, 'B policy: nothing leaves the L1');
  // A one-line write-back L1: alternating lines evict each other dirty (7 write-backs).
  t.is(l2Writes('N:1:128:1,L:B:m:W:L,A:256:8,16:0,32', 'global'), 7);
});
