/**
 * The deadlock watchdog (src/sim/timing/watchdog.ts): a unit that never responds is provoked
 * through the configuration (a DRAM return latency or an RT-unit latency far past the window),
 * and the run must stop with a message naming the SM, the warp and the unit, instead of hanging.
 * An RT unit is also watched on its own: a lone ray that never advances is caught while other warps
 * keep issuing and memory replies keep arriving.
 */
import test from 'ava';
import { loadConfig } from '../../../src/sim/config/gpu-config.js';
import { simulate } from '../../../src/sim/timing/gpu.js';
import { TimingDeadlockError } from '../../../src/sim/timing/watchdog.js';
import { ScriptedWarp, aluStep, chaseStep, rtStep, traversalWorkload } from './synthetic-warp.js';

const ONE_SM = ['gpgpu_n_clusters=1'];
/** A memory system that never answers within any sensible window. */
const DEAD_DRAM = 'dram_latency=1000000000';

test('a load whose DRAM never answers stops the run naming SM, warp and the memory system', (t) => {
  const cfg = loadConfig('mobile', [...ONE_SM, DEAD_DRAM, 'gpgpu_deadlock_window=5000']);
  const warps = [new ScriptedWarp([aluStep(4), chaseStep(0x100000), aluStep(2)])];
  const err = t.throws(() => simulate(warps, cfg), { instanceOf: TimingDeadlockError });
  t.is(err.sm, 0);
  t.is(err.slot, 0);
  t.regex(err.message, /^timing model deadlock: no warp issued, no memory request retired and no warp finished since cycle \d+ \(gpgpu_deadlock_window = 5000 cycles/);
  t.regex(err.message, /SM 0, warp in slot 0 \(CTA 0\) waits on the L1D \/ memory system \(1 load responses outstanding\)/);
});

test('an RT unit that never finishes a traversal is named as the stuck unit', (t) => {
  const cfg = loadConfig('mobile', [...ONE_SM, 'gpgpu_rt_intersection_latency=1000000000,1000000000,1000000000,1000000000,1000000000,1000000000,1000000000']);
  const warps = traversalWorkload(1, 1, 4, 1 << 16);
  const err = t.throws(() => simulate(warps, cfg), { instanceOf: TimingDeadlockError });
  t.regex(err.message, /gpgpu_deadlock_window = 50000 cycles/);
  t.regex(err.message, /SM 0, warp in slot \d+ \(CTA \d+\) waits on the RT unit/);
});

test('with detection off the same run is not stopped by the watchdog (it ends at maxCycles)', (t) => {
  const cfg = loadConfig('mobile', [...ONE_SM, DEAD_DRAM, 'gpgpu_deadlock_detect=0']);
  const stats = simulate([new ScriptedWarp([chaseStep(0x100000)])], cfg, { maxCycles: 200000 });
  t.is(stats.values.gpu_sim_truncated, 1);
});

test('a healthy run is unaffected: same cycles with the smallest window that still passes and the default', (t) => {
  const steps = () => [new ScriptedWarp(Array.from({ length: 20 }, (_, i) => chaseStep(0x100000 + i * 40960)))];
  const a = simulate(steps(), loadConfig('mobile', ONE_SM)).values.gpu_sim_cycle;
  const b = simulate(steps(), loadConfig('mobile', [...ONE_SM, 'gpgpu_deadlock_window=2000'])).values.gpu_sim_cycle;
  t.is(a, b);
});

const STUCK_OPS = 'gpgpu_rt_intersection_latency=1000000000,1000000000,1000000000,1000000000,1000000000,1000000000,1000000000';
/** A warp that keeps the SM issuing and receiving memory replies for a long time: `n` dependent loads. */
const busyWarp = (n: number, id: number) => new ScriptedWarp(Array.from({ length: n }, (_, i) => chaseStep(0x200000 + i * 40960)), id);

test('a lone ray that never advances is caught while another warp on its SM keeps issuing and getting replies', (t) => {
  const cfg = loadConfig('mobile', [...ONE_SM, STUCK_OPS, 'gpgpu_deadlock_window=5000']);
  const lone = new ScriptedWarp([aluStep(4), rtStep([[{ address: 0x4000_0000, size: 64, kind: 'internal' }, { address: 0x4000_0040, size: 64, kind: 'triangleLeaf' }]]), aluStep(2)], 0);
  // 400 dependent loads take far longer than the window: the global test alone would wait for them.
  const warps = [lone, busyWarp(400, 1)];
  const err = t.throws(() => simulate(warps, cfg), { instanceOf: TimingDeadlockError });
  t.is(err.sm, 0);
  t.is(err.slot, 0);
  t.regex(err.message, /^timing model deadlock: no ray of the RT unit of SM 0 advanced since cycle \d+ \(gpgpu_deadlock_window = 5000 cycles/);
  t.regex(err.message, /SM 0, warp in slot 0 \(CTA 0\) waits on the RT unit \(ray of lane 0 at transaction 1 of 2 \(internal at 0x40000000\), in an intersection operation until cycle \d{10}\)/);
  const now = Number(/now cycle (\d+)/.exec(err.message)![1]);
  t.true(now < 10000, `caught at cycle ${now}`);
  // Without the RT warp, the busy warp alone runs well past the window: it is not a deadlock.
  const busy = simulate([busyWarp(400, 1)], loadConfig('mobile', [...ONE_SM, 'gpgpu_deadlock_window=5000']));
  t.true(busy.values.gpu_sim_cycle > 20000);
});

test('a long traversal whose rays keep advancing is not a deadlock (same cycles with a small window)', (t) => {
  // Each ray walks 600 nodes of a 4 MB BVH: its warp stays in the RT unit far longer than the window.
  const run = (window: string[]) => simulate(traversalWorkload(2, 1, 600, 1 << 22), loadConfig('mobile', [...ONE_SM, ...window])).values;
  const a = run([]);
  const b = run(['gpgpu_deadlock_window=3000']);
  t.true(a.rt_avg_warp_latency! > 3000, `warp latency ${a.rt_avg_warp_latency}`);
  t.is(a.gpu_sim_cycle, b.gpu_sim_cycle);
});
