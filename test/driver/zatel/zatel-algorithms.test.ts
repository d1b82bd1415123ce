/**
 * Zatel's pieces against the paper: division (Fig. 5-6), heat gradient and coldness, K-means,
 * eq. 1 bounds and the block selection (eq. 2-3), downscaling by gcd, and combining (Sec. III-G/H).
 */
import test from 'ava';
import { combineGroups, combineRule, exponentialAtOne, extrapolateGroup } from '../../../src/driver/zatel/combine.js';
import { coarseGrid, divideImage } from '../../../src/driver/zatel/division.js';
import { downscale, gcd } from '../../../src/driver/zatel/downscale.js';
import { MIN_WAVES_PER_GROUP, zatelWarnings } from '../../../src/driver/zatel/run-zatel.js';
import { buildHeatmap, coldness, heatColour } from '../../../src/driver/zatel/heatmap.js';
import { kMeansColours } from '../../../src/driver/zatel/kmeans.js';
import { rowUniformity, selectRepresentativePixels, tracedFraction } from '../../../src/driver/zatel/representative-pixels.js';
import { loadConfig } from '../../../src/sim/timing/index.js';

test('fine division deals 32x2 chunks round-robin, each chunk row one group further on (Fig. 6)', (t) => {
  // 160 px wide = 5 chunks per row, as Fig. 6; K = 4.
  const groups = divideImage(160, 10, 4, 'fine');
  const groupOfChunk = (cx: number, cy: number) => groups.findIndex((g) => g.blocks.some((b) => b[0] === cy * 2 * 160 + cx * 32));
  t.deepEqual([0, 1, 2, 3, 4].map((cx) => groupOfChunk(cx, 0)), [0, 1, 2, 3, 0]);
  t.deepEqual([0, 1, 2, 3, 4].map((cx) => groupOfChunk(cx, 1)), [1, 2, 3, 0, 1]);
  const all = groups.flatMap((g) => g.blocks.flat()).sort((a, b) => a - b);
  t.deepEqual(all, [...Array(1600).keys()], 'every pixel in exactly one group');
  t.true(groups.every((g) => g.blocks.every((b) => b.length === 64)));
});

test('fine division at 4 chunks per row and K = 4: diagonals, not vertical strips', (t) => {
  // 128 px wide: raster-order dealing would give group g the chunk column g of every row.
  const groups = divideImage(128, 16, 4, 'fine');
  const groupOfChunk = (cx: number, cy: number) => groups.findIndex((g) => g.blocks.some((b) => b[0] === cy * 2 * 128 + cx * 32));
  for (let cy = 0; cy < 8; cy++) for (let cx = 0; cx < 4; cx++) t.is(groupOfChunk(cx, cy), (cx + cy) % 4);
  for (const g of groups) {
    t.is(g.pixels, 128 * 16 / 4);
    // Every group covers every chunk column of the image.
    t.deepEqual([...new Set(g.blocks.map((b) => Math.floor((b[0]! % 128) / 32)))].sort(), [0, 1, 2, 3]);
  }
  const all = groups.flatMap((g) => g.blocks.flat()).sort((a, b) => a - b);
  t.deepEqual(all, [...Array(128 * 16).keys()], 'every pixel in exactly one group');
});

test('coarse division: K rectangles, 3 rows x 2 columns for K = 6 (Fig. 5)', (t) => {
  t.deepEqual(coarseGrid(6), { rows: 3, cols: 2 });
  t.deepEqual(coarseGrid(4), { rows: 2, cols: 2 });
  const groups = divideImage(64, 60, 6, 'coarse');
  t.is(groups.length, 6);
  t.deepEqual(groups.map((g) => g.pixels), [640, 640, 640, 640, 640, 640]);
  // Group 0 is the top-left rectangle: x < 32, y < 20.
  t.true(groups[0]!.blocks.flat().every((p) => p % 64 < 32 && Math.floor(p / 64) < 20));
});

test('heat gradient: cold blue to hot red; coldness from the hue', (t) => {
  t.deepEqual(heatColour(0), [0, 0, 1]);
  t.deepEqual(heatColour(1), [1, 0, 0]);
  t.deepEqual(heatColour(0.5), [0, 1, 0]);
  t.is(coldness([0, 0, 1]), 1);
  t.is(coldness([1, 0, 0]), 0);
  t.is(coldness([0, 1, 0]), 0.5);
  for (let x = 0; x <= 1; x += 0.125) t.true(Math.abs(coldness(heatColour(x)) - (1 - x)) < 1e-9, `t = ${x}`);
});

test('K-means separates clear colour clusters and is deterministic for a seed', (t) => {
  const colours: [number, number, number][] = [];
  for (let i = 0; i < 50; i++) colours.push([0, 0, 1], [1, 0, 0], [0, 1, 0]);
  const a = kMeansColours(colours, 3, 7);
  const b = kMeansColours(colours, 3, 7);
  t.deepEqual(a, b);
  t.is(new Set(a.assignment).size, 3);
  t.is(a.assignment[0], a.assignment[3]);
  t.not(a.assignment[0], a.assignment[1]);
});

test('eq. 1: P is the mean coldness, bounded to [0.3, 0.6]', (t) => {
  // Left half cold (cost 0), right half hot (cost 1): mean coldness 0.5.
  const w = 64;
  const h = 4;
  const cost = Array.from({ length: w * h }, (_, i) => (i % w < 32 ? 0 : 100));
  const heat = buildHeatmap(cost, w, h, 2);
  const [g] = divideImage(w, h, 1, 'fine');
  t.true(Math.abs(tracedFraction(g!, heat) - 0.5) < 1e-9);
  const allCold = buildHeatmap(new Array(w * h).fill(0), w, h, 2);
  t.is(tracedFraction(g!, allCold), 0.6);
  const allHot = buildHeatmap(new Array(w * h).fill(5), w, h, 2);
  t.is(tracedFraction(g!, allHot), 0.3);
});

test('block selection: whole 32x2 blocks, the asked fraction, and eq. 3 favours hot blocks', (t) => {
  const w = 256;
  const h = 32;
  // Hot blocks where x < 32 (1/8 of the image), cold elsewhere.
  const cost = Array.from({ length: w * h }, (_, i) => (i % w < 32 ? 100 : 1));
  const heat = buildHeatmap(cost, w, h, 2);
  const [g] = divideImage(w, h, 1, 'fine');
  const hotShare = (pixels: number[]) => pixels.filter((p) => p % w < 32).length / pixels.length;
  const uniform = selectRepresentativePixels(g!, heat, 0.25, 'uniform', 1);
  const temp5 = selectRepresentativePixels(g!, heat, 0.25, 'temperature5', 1);
  t.is(uniform.pixels.length % 64, 0);
  t.true(Math.abs(uniform.fraction - 0.25) < 0.02, `${uniform.fraction}`);
  t.true(Math.abs(hotShare(uniform.pixels) - 0.125) < 0.03, `uniform keeps the group's mix: ${hotShare(uniform.pixels)}`);
  t.true(hotShare(temp5.pixels) > 0.45, `eq. 3 takes mostly hot blocks: ${hotShare(temp5.pixels)}`);
  t.deepEqual(selectRepresentativePixels(g!, heat, 0.25, 'uniform', 1), uniform, 'seeded');
});

test('cost balance: the chosen blocks carry their pixel share of the heatmap cost (issue 23.4), colour shares kept', (t) => {
  const w = 256;
  const h = 64;
  // Smoothly varying cost with a hot corner: a random draw of blocks over- or under-samples it.
  const cost = Array.from({ length: w * h }, (_, i) => {
    const x = i % w;
    const y = Math.floor(i / w);
    return 10 + (x * 7 + y * 13) % 50 + (x < 64 && y < 16 ? 100 : 0);
  });
  const heat = buildHeatmap(cost, w, h, 5);
  const [g] = divideImage(w, h, 1, 'fine');
  const costShare = (pixels: number[]) => pixels.reduce((a, p) => a + heat.cost[p]!, 0) / heat.cost.reduce((a, b) => a + b, 0);
  const colourCounts = (pixels: number[]) => {
    const c = new Array<number>(heat.colours.length).fill(0);
    for (const p of pixels) c[heat.cluster[p]!]!++;
    return c;
  };
  let worstPlain = 0;
  for (const seed of [1, 2, 3, 4, 5]) {
    const plain = selectRepresentativePixels(g!, heat, 0.2, 'uniform', seed, 'none');
    const balanced = selectRepresentativePixels(g!, heat, 0.2, 'uniform', seed, 'cost');
    worstPlain = Math.max(worstPlain, Math.abs(plain.costRatio - 1));
    t.is(plain.swaps, 0);
    t.true(Math.abs(plain.costRatio - costShare(plain.pixels) / plain.fraction) < 1e-9, 'costRatio is the cost share over the pixel share');
    t.is(balanced.pixels.length, plain.pixels.length, 'swaps keep the traced pixel count');
    t.true(Math.abs(balanced.costRatio - 1) <= 0.01, `seed ${seed}: balanced cost ratio ${balanced.costRatio}`);
    t.true(Math.abs(costShare(balanced.pixels) / balanced.fraction - 1) <= 0.01);
    // Same-colour swaps come first; a cross-colour swap moves a block or two at most.
    const moved = colourCounts(balanced.pixels).reduce((a, c, j) => a + Math.abs(c - colourCounts(plain.pixels)[j]!), 0) / 2;
    t.true(moved <= 2 * 64, `seed ${seed}: ${moved} pixels changed colour`);
  }
  t.true(worstPlain > 0.01, `the random draw alone is off by more than 1% for some seed (worst ${worstPlain})`);
});

test('row balance: the chosen 32-pixel rows are as uniform in cost as the group\'s, the cost share kept within 1%', (t) => {
  const w = 256;
  const h = 64;
  // Uniform rows, and in one corner mixed rows of the same mean cost (paths ending at different
  // bounces: every other pixel dear): a random draw of blocks over- or under-samples the corner.
  const cost = Array.from({ length: w * h }, (_, i) => {
    const x = i % w;
    const y = Math.floor(i / w);
    if (x < 128 && y < 32) return x % 2 === 0 ? 90 : 1;
    return 30 + ((x * 7 + y * 13) % 30);
  });
  const heat = buildHeatmap(cost, w, h, 5);
  const [g] = divideImage(w, h, 1, 'fine');
  let worstPlain = 0;
  for (const seed of [1, 2, 3, 4, 5]) {
    const plain = selectRepresentativePixels(g!, heat, 0.2, 'uniform', seed, 'none');
    const rows = selectRepresentativePixels(g!, heat, 0.2, 'uniform', seed, 'rows');
    worstPlain = Math.max(worstPlain, Math.abs(plain.uniformityRatio - 1));
    t.is(rows.pixels.length, plain.pixels.length, 'swaps keep the traced pixel count');
    t.true(Math.abs(rows.uniformityRatio - 1) <= 0.01, `seed ${seed}: row uniformity ratio ${rows.uniformityRatio}`);
    t.true(Math.abs(rows.costRatio - 1) <= 0.01, `seed ${seed}: cost ratio ${rows.costRatio}`);
  }
  t.true(worstPlain > 0.01, `the random draw alone leaves the rows' uniformity off by more than 1% for some seed (worst ${worstPlain})`);
  t.is(rowUniformity([10, 10, 10]), 1);
  t.is(rowUniformity([100, 20]), 0.6);
});

test('small-frame warning: fewer than two waves of the downscaled GPU per group, with the frame that would do', (t) => {
  const cfg = loadConfig('mobile');
  const slots = 2 * cfg.maxWarpsPerSm * cfg.warpSize;
  const base = { width: 32, height: 32, depth: 1, k: 4, sms: 2, slots, costRatios: [1, 1, 1, 1] };
  // 32x32, K = 4, 60% traced: 154 threads per group on 2 SMs of 1,024 slots.
  const small = zatelWarnings({ fraction: 'auto' }, { ...base, wavesPerGroup: 154 / slots });
  t.is(small.length, 1);
  t.regex(small[0]!, /frame too small for K = 4 at the automatic fraction: a group traces 154 threads, 0\.08 waves of its 2 SMs' 2048 thread slots/);
  t.regex(small[0]!, /Use a frame of about \d+x\d+ or more/);
  t.deepEqual(zatelWarnings({ fraction: 0.1 }, { ...base, wavesPerGroup: MIN_WAVES_PER_GROUP }), []);
  const unbalanced = zatelWarnings({ fraction: 'auto' }, { ...base, wavesPerGroup: 3, costRatios: [1, 1.05, 1, 0.99] });
  t.is(unbalanced.length, 1);
  t.regex(unbalanced[0]!, /105\.0% of their pixel share/);
  t.deepEqual(zatelWarnings({ fraction: 'auto', balance: 'none' }, { ...base, wavesPerGroup: 3, costRatios: [1.2] }), [], 'no balance asked, no balance warning');
  const mixedRows = zatelWarnings({ fraction: 'auto' }, { ...base, wavesPerGroup: 3, uniformityRatios: [1, 1.04, 1] });
  t.is(mixedRows.length, 1);
  t.regex(mixedRows[0]!, /traced 32-pixel rows are 104\.0% as uniform in cost as the group's .*\(rt_avg_efficiency\) is likely over-predicted/);
  t.deepEqual(zatelWarnings({ fraction: 'auto', balance: 'cost' }, { ...base, wavesPerGroup: 3, uniformityRatios: [1.04] }), [], 'the cost balance alone promises nothing of the rows');
});

test('downscaling: K = gcd(SMs, partitions); mobile 8/4 -> 4, rtx2060 30/12 -> 6 (paper IV-B)', (t) => {
  t.is(gcd(30, 12), 6);
  const mobile = downscale(loadConfig('mobile'));
  t.deepEqual([mobile.k, mobile.sms, mobile.partitions], [4, 2, 1]);
  const rtx = downscale(loadConfig('rtx2060'));
  t.deepEqual([rtx.k, rtx.sms, rtx.partitions], [6, 5, 2]);
  t.deepEqual(downscale(loadConfig('rtx2060'), 3).overrides, ['gpgpu_n_clusters=10', 'gpgpu_n_cores_per_cluster=1', 'gpgpu_n_mem=4', 'zatel_target_n_mem=12']);
  t.throws(() => downscale(loadConfig('mobile'), 3), { message: /--k 3 does not divide/ });
});

test('downscaling keeps the target\'s DRAM row layout unless the paper\'s own is asked for', (t) => {
  t.deepEqual(downscale(loadConfig('mobile')).overrides, ['gpgpu_n_clusters=2', 'gpgpu_n_cores_per_cluster=1', 'gpgpu_n_mem=1', 'zatel_target_n_mem=4']);
  t.deepEqual(downscale(loadConfig('mobile'), 4, 'own').overrides, ['gpgpu_n_clusters=2', 'gpgpu_n_cores_per_cluster=1', 'gpgpu_n_mem=1']);
  // K = 1 is the target itself; a target that is already a scale model keeps its own target's layout.
  t.false(downscale(loadConfig('mobile'), 1).overrides.some((o) => o.startsWith('zatel_target_n_mem')));
  t.false(downscale(loadConfig('mobile', ['gpgpu_n_clusters=4', 'gpgpu_n_mem=2', 'zatel_target_n_mem=4']), 2).overrides.some((o) => o.startsWith('zatel_target_n_mem')));
  const scaled = loadConfig('mobile', downscale(loadConfig('mobile')).overrides);
  t.deepEqual([scaled.numMemChannels, scaled.addressMapping.rowLayoutChannels], [1, 4]);
});

test('combining: cycles extrapolated and averaged, counts summed, IPC summed, rates averaged (Sec. III-G/H)', (t) => {
  t.is(combineRule('gpu_sim_cycle'), 'cycles');
  t.is(combineRule('gpu_ipc'), 'throughput');
  t.is(combineRule('L1D_total_cache_miss_rate'), 'rate');
  t.is(combineRule('gpu_sim_insn'), 'count');
  t.is(combineRule('gpu_sim_wall_seconds'), undefined);
  // The paper's example: 100,000 cycles at 10% -> 1,000,000.
  const g1 = extrapolateGroup([{ fraction: 0.1, values: { gpu_sim_cycle: 100_000, gpu_ipc: 20, L1D_total_cache_miss_rate: 0.7, gpu_sim_insn: 10 } }], 'linear');
  t.is(g1.gpu_sim_cycle, 1_000_000);
  t.is(g1.L1D_total_cache_miss_rate, 0.7);
  const g2 = extrapolateGroup([{ fraction: 0.5, values: { gpu_sim_cycle: 600_000, gpu_ipc: 50, L1D_total_cache_miss_rate: 0.6, gpu_sim_insn: 10 } }], 'linear');
  const c = combineGroups([g1, g2]);
  t.is(c.gpu_ipc, 70, '20 + 50 IPC, the paper\'s example');
  t.true(Math.abs(c.L1D_total_cache_miss_rate! - 0.65) < 1e-12, 'miss rates averaged to 0.65');
  t.is(c.gpu_sim_cycle, 1_100_000);
  t.is(c.gpu_sim_insn, 120);
});

test('exponential regression recovers y = a e^(b x) at x = 1', (t) => {
  const f = (x: number) => 3 * Math.exp(1.5 * x);
  const y = exponentialAtOne([0.2, 0.3, 0.4].map((x) => ({ x, y: f(x) })));
  t.true(Math.abs(y - f(1)) < 1e-9);
  t.true(Math.abs(exponentialAtOne([{ x: 0.2, y: 0 }, { x: 0.4, y: 2 }]) - 8) < 1e-9, 'linear fit when a value is not positive');
});
