/**
 * The timing model's fidelity on the real LumiBench WKND frame, against Vulkan-Sim's measurements
 * (issue 8): the calibrated figures stay within the targets. Runs where ../shared/calibration is
 * beside the project and skips with a message elsewhere. (Speed is measured by bench/calibration.ts.)
 * The suite runs the 32x32 1 spp frame; the 64x64 2 spp frame (60-140 s on a loaded 2-core machine,
 * issue 25.5) runs with VVISION_CALIBRATE_ALL=1 and in `npm run bench -- calibration`, which prints
 * every figure of both sizes against its target.
 */
import test from 'ava';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { calibrateRun, FRAME_BAR, readReferenceRuns, withinTarget } from '../../src/driver/calibrate.js';
import { calibrationDir } from '../../src/sim/workload/load-manifest.js';

const available = existsSync(join(calibrationDir(), 'lumibench-wknd', 'vulkan-sim', 'SUMMARY.tsv'));
const skip = (t: import('ava').ExecutionContext): void => {
  t.log(`skipped: ${join(calibrationDir(), 'lumibench-wknd')} not found`);
  t.pass();
};

test('SUMMARY.tsv gives both Vulkan-Sim runs with their sizes and figures', (t) => {
  if (!available) return skip(t);
  const runs = readReferenceRuns();
  t.deepEqual(runs.map((r) => `${r.width}x${r.height}x${r.spp}`), ['32x32x1', '64x64x2']);
  t.is(runs[0]!.figures.gpu_sim_cycle, 133393);
  t.is(runs[1]!.wallSeconds, 8 * 60 + 2.74);
  // Figures SUMMARY.tsv lacks come from the run's full stats.txt.
  t.is(runs[1]!.figures.L2_total_cache_reservation_fails, 17920);
  t.is(runs[0]!.figures.dram_row_buffer_hit_rate, 0.863817);
  // Figures GPGPU-Sim does not print are computed from those it does: Little's law on the
  // request crossbar's SM input FIFOs (30 SMs in the SM75 file).
  t.is(runs[0]!.figures.Req_Network_in_buffer_avg_wait!.toFixed(2), ((0.5335 * 30 * 133393) / 77157).toFixed(2));
  t.is(runs[0]!.figures.Reply_Network_in_buffer_avg_wait!.toFixed(2), ((0.0424 * 24 * 133393) / 77157).toFixed(2));
});

/**
 * Targets the model misses today, each with the looser tolerance (in the target's own terms) it
 * must stay within (a regression guard, not a target): docs/calibration.md ("What still differs")
 * says why. None since item 43 (the 32x32 L2 miss rate, 0.395 against 0.438, is within 0.07).
 */
const KNOWN_MISSES: Record<string, Record<string, number>> = {};

// 64x64 (minutes of simulation) is the bench's (`npm run bench -- calibration`, `-- docs`); VVISION_CALIBRATE_ALL=1 runs it here too.
for (const size of process.env.VVISION_CALIBRATE_ALL ? ['32x32x1', '64x64x2'] : ['32x32x1']) {
  test(`WKND ${size} on Vulkan-Sim's SM75_RTX2060 config: the figures meet the calibration targets (a known miss stays within its bound)`, async (t) => {
    if (!available) return skip(t);
    const ref = readReferenceRuns().find((r) => `${r.width}x${r.height}x${r.spp}` === size)!;
    const r = await calibrateRun(ref);
    for (const row of r.rows) t.log(`${row.figure}: Vulkan-Sim ${row.vulkanSim}, vvision ${row.vvision.toFixed(4)} (x${row.ratio.toFixed(3)})`);
    for (const row of r.rows) {
      if (!row.target) continue;
      const bound = KNOWN_MISSES[size]?.[row.figure];
      if (bound !== undefined && !row.withinTarget) {
        t.true(withinTarget({ ...row.target, tolerance: bound }, row.vulkanSim, row.vvision), `${row.figure}: vvision ${row.vvision} vs Vulkan-Sim ${row.vulkanSim}, a known miss, outside its looser bound ${bound} (${row.target.kind})`);
        continue;
      }
      t.true(row.withinTarget, `${row.figure}: vvision ${row.vvision} vs Vulkan-Sim ${row.vulkanSim} (target ${JSON.stringify(row.target)})`);
    }
    t.log(`frame: ${r.frame!.differing}/${r.frame!.pixels} pixels differ by more than 2/255`);
    t.true(r.frame!.fraction <= FRAME_BAR, 'the frame matches Vulkan-Sim\'s within the Vulkan-Sim paper\'s bar (same RNG streams, GPU float model)');
    const get = (f: string) => r.rows.find((x) => x.figure === f)!;
    t.true(get('rt_avg_warp_occupancy').ratio > 0.85 && get('rt_avg_warp_occupancy').ratio < 1.15, 'RT warp-buffer occupancy as Vulkan-Sim defines it');
  });
}
