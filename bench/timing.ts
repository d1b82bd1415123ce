/**
 * Timing-model throughput benchmark. By default a synthetic launch of ~1M warp instructions with
 * coalesced and scattered loads, stores and traceRays (random BVH walks); with `--workload` a
 * built-in workload driven through the real functional core. Prints simulated cycles, wall and CPU
 * time, simulated cycles per second, warp instructions per second and peak memory.
 *
 *   npx tsx bench/timing.ts [preset] [key=value ...]
 *   npx tsx bench/timing.ts --workload pt 128 128 2 [preset] [key=value ...]
 *
 * BENCH_TIMELINE=1 also records the warp timeline (sim --timeline) and prints its size and the
 * time to serialise it: the run's CPU time beside one without it is the recorder's cost.
 */
import { launchOptionsOf, prepareRun } from '../src/driver/run-workload.js';
import { createWarps } from '../src/sim/functional/launch.js';
import { formatStats, loadConfig, simulate, TimelineRecorder, timelineJson, type TimingWarp } from '../src/sim/timing/index.js';
import { OpClass, type MemAccess, type RtLaneWork, type RtTransaction, type WarpStep } from '../src/sim/warp-step.js';
import { seededRandom } from '../src/sim/seeded-random.js';

const rng = seededRandom;

const FULL = 0xffffffff | 0;
const BVH = 0x4000_0000;
const BVH_BYTES = 4 << 20;
const FRAME = 0x1000_0000;

/** Generates its steps lazily, like the functional core would. */
class SyntheticWarp implements TimingWarp {
  private k = 0;
  private readonly rand: () => number;
  constructor(readonly id: number, private readonly iterations: number) {
    this.rand = rng(id * 7919 + 1);
  }
  get done(): boolean {
    return this.k >= this.iterations * 4;
  }
  step(): WarpStep {
    const phase = this.k % 4;
    this.k++;
    const done = this.done;
    const cls = (n: number, mem: number[], c: OpClass) => {
      const a = new Uint8Array(n).fill(OpClass.Alu);
      for (const i of mem) a[i] = c;
      return a;
    };
    if (phase === 0) {
      // Coalesced load of per-pixel data + 60 ALU.
      const addresses = new Float64Array(32);
      for (let l = 0; l < 32; l++) addresses[l] = FRAME + (this.id * 32 + l) * 16;
      const m: MemAccess = { instIndex: 2, kind: 'load', space: 'global', size: 16, addresses, laneMask: FULL, wordMask: -1 };
      return { warp: this.id, fn: 0, block: 0, activeMask: FULL, insts: 60, opClasses: cls(60, [2], OpClass.Memory), memory: [m], done };
    }
    if (phase === 1) {
      // traceRay: random walks through a 4 MB BVH, 8..24 nodes per ray.
      const rt: RtLaneWork[] = [];
      for (let l = 0; l < 32; l++) {
        const depth = 8 + Math.floor(this.rand() * 16);
        const tx: RtTransaction[] = [{ address: BVH, size: 64, kind: 'internal' }];
        for (let d = 1; d < depth; d++) {
          const top = d < 4 ? 1 << (6 + 2 * d) : BVH_BYTES;
          tx.push({ address: BVH + Math.floor(this.rand() * (top / 64)) * 64, size: 64, kind: d === depth - 1 ? 'triangleLeaf' : 'internal' });
        }
        rt.push({ lane: l, transactions: tx, boxTests: (depth - 1) * 6, triangleTests: 2, transforms: 0 });
      }
      return { warp: this.id, fn: 0, block: 1, activeMask: FULL, insts: 1, opClasses: cls(1, [0], OpClass.Rt), memory: [], rt, done };
    }
    if (phase === 2) {
      // Hit shading: scattered material loads (divergent) + 120 ALU + 8 SFU.
      const addresses = new Float64Array(32);
      for (let l = 0; l < 32; l++) addresses[l] = 0x2000_0000 + Math.floor(this.rand() * 65536) * 32;
      const active = this.rand() < 0.5 ? FULL : 0x0000ffff;
      const m: MemAccess = { instIndex: 4, kind: 'load', space: 'global', size: 32, addresses, laneMask: active, wordMask: -1 };
      const c = cls(128, [4], OpClass.Memory);
      for (let i = 100; i < 108; i++) c[i] = OpClass.Sfu;
      return { warp: this.id, fn: 0, block: 2, activeMask: active, insts: 128, opClasses: c, memory: [m], done };
    }
    // Accumulate: store the pixel + 40 ALU.
    const addresses = new Float64Array(32);
    for (let l = 0; l < 32; l++) addresses[l] = FRAME + 0x100_0000 + (this.id * 32 + l) * 16;
    const m: MemAccess = { instIndex: 39, kind: 'store', space: 'global', size: 16, addresses, laneMask: FULL, wordMask: -1 };
    return { warp: this.id, fn: 0, block: 3, activeMask: FULL, insts: 40, opClasses: cls(40, [39], OpClass.Memory), memory: [m], done };
  }
}

const args = process.argv.slice(2);
let list: TimingWarp[];
let label: string;
let setupSeconds = 0;
if (args[0] === '--workload') {
  const [, name = 'pt', w = '128', h = '128', spp = '2'] = args.splice(0, 5);
  const s0 = performance.now();
  const p = await prepareRun(name, { width: Number(w), height: Number(h), spp: Number(spp) }, { shortStackSize: 8 });
  list = createWarps(p.program, p.host.resources, launchOptionsOf(p, 'rows'));
  setupSeconds = (performance.now() - s0) / 1000;
  label = `${name} ${w}x${h}, ${spp} spp (${list.length} warps; functional core runs inside the timing loop)`;
} else {
  const warps = Number(process.env.BENCH_WARPS ?? 2048);
  const iterations = 2; // 4 steps of 60 + 1 + 128 + 40 = 229 insts per iteration
  list = Array.from({ length: warps }, (_, i) => new SyntheticWarp(i, iterations));
  label = `synthetic, ${warps} warps`;
}
const [preset = 'mobile', ...overrides] = args;
const cfg = loadConfig(preset, overrides);
const timeline = process.env.BENCH_TIMELINE
  ? new TimelineRecorder({ numSms: cfg.numSms, maxWarpsPerSm: cfg.maxWarpsPerSm, rtMaxWarps: cfg.rt.maxWarps, warpSize: cfg.warpSize, ctaSize: 1 }, { maxEvents: 50_000_000 })
  : undefined;
let peakRss = process.memoryUsage().rss;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const stats = simulate(list, cfg, {
  onProgress() {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  },
  progressInterval: 20000,
  ...(timeline !== undefined ? { timeline } : {}),
});
const wall = (performance.now() - t0) / 1000;
const cpuUsed = process.cpuUsage(cpu0);
const cpu = (cpuUsed.user + cpuUsed.system) / 1e6;
const v = stats.values;
if (process.env.BENCH_DUMP) process.stdout.write(formatStats(stats));
console.log(`config                 ${stats.config}`);
console.log(`workload               ${label}`);
if (setupSeconds > 0) console.log(`setup (compile, scene) ${setupSeconds.toFixed(2)} s`);
console.log(`warp instructions      ${v.gpu_warp_insn}`);
console.log(`simulated cycles       ${v.gpu_sim_cycle}`);
console.log(`wall time              ${wall.toFixed(2)} s (CPU ${cpu.toFixed(2)} s; the machine is shared, CPU time is the steadier figure)`);
console.log(`simulated cycles / s   ${Math.round(v.gpu_sim_cycle! / wall)} wall, ${Math.round(v.gpu_sim_cycle! / cpu)} per CPU second`);
console.log(`warp instructions / s  ${Math.round(v.gpu_warp_insn! / wall)} wall, ${Math.round(v.gpu_warp_insn! / cpu)} per CPU second`);
console.log(`thread instructions / s ${Math.round(v.gpu_sim_insn! / wall)}`);
peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
console.log(`peak RSS               ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
if (timeline !== undefined) {
  const s0 = performance.now();
  let chars = 0;
  for (const piece of timelineJson(timeline)) chars += piece.length;
  console.log(`timeline               ${timeline.events.length} events, ${(chars / 1e6).toFixed(1)} MB of JSON, serialised in ${((performance.now() - s0) / 1000).toFixed(2)} s`);
}
console.log(`IPC ${v.gpu_ipc!.toFixed(2)}, L1D miss ${v.L1D_total_cache_miss_rate!.toFixed(3)}, L2 miss ${v.L2_total_cache_miss_rate!.toFixed(3)}, dram_eff ${v.dram_eff!.toFixed(3)}, bwutil ${v.bwutil!.toFixed(3)}, rt_avg_efficiency ${v.rt_avg_efficiency!.toFixed(3)}`);
