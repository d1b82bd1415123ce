/**
 * `vvision run <workload|manifest.json>`: functional simulation of a workload; writes the rendered
 * `image.png` and `stats.json` (functional counters, RT counters, BVH figures, timings).
 */
import type { Command } from 'commander';
import { DEFAULT_WORKLOAD } from '../../sim/workload/default-workload.js';
import { checkOutputTarget, OutputDir } from '../output-dir.js';
import { progressReporter } from '../progress.js';
import { addRunOptions, parseRunOptions, type RawRunOptions } from '../run-options.js';

export function registerRunCommand(program: Command): void {
  addRunOptions(
    program
      .command('run')
      .description('simulate a workload functionally: image.png + stats.json')
      .option('--keep-alpha', 'write the shader\'s alpha into image.png (default: opaque)')
      .argument('[workload]', 'built-in workload name or path to a workload.json', DEFAULT_WORKLOAD),
  ).action(async (workload: string, raw: RawRunOptions & { keepAlpha?: boolean }) => {
    const { runWorkload } = await import('../../driver/run-workload.js');
    const { imageToPng } = await import('../../sim/host/image-png.js');
    const { functionalStats } = await import('../../driver/functional-stats.js');
    if (raw.out !== undefined) checkOutputTarget(raw.out);
    const opts = { ...parseRunOptions(raw), frameImages: true };
    const progress = progressReporter();
    progress.message(`preparing ${workload}`);
    const result = await runWorkload(workload, opts, (done, total) => progress.message(`simulating: ${done}/${total} pixels`));
    progress.done();
    const out = new OutputDir(raw.out ?? `vvision-out/${result.manifest.name}-run`);
    try {
      if (result.image) out.write('image.png', imageToPng(result.image, { keepAlpha: raw.keepAlpha === true }));
      // Multi-frame runs: the output after every frame too (image.png is the last).
      if (result.frames.length > 1) {
        for (const f of result.frames) if (f.image) out.write(`frames/frame-${String(f.frame).padStart(3, '0')}.png`, imageToPng(f.image, { keepAlpha: raw.keepAlpha === true }));
      }
      out.write('stats.json', `${JSON.stringify(functionalStats(result), null, 2)}\n`);
      const dir = out.commit();
      const s = functionalStats(result);
      if (raw.json) {
        process.stdout.write(`${JSON.stringify({ workload: result.manifest.name, params: result.params, out: dir, stats: s }, null, 2)}\n`);
        return;
      }
      process.stdout.write(
        `${result.manifest.name} ${result.params.width}x${result.params.height} spp=${result.params.spp}` +
          `${result.params.frames > 1 ? ` x ${result.params.frames} frames` : ''}: ` +
          `${s.gpu_sim_insn} thread instructions, SIMT efficiency ${(s.simt_efficiency * 100).toFixed(1)}%, ${s.rays} rays\n` +
          `wrote ${dir}\n`,
      );
    } catch (e) {
      out.abandon();
      throw e;
    }
  });
}
