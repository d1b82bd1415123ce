/**
 * `vvision annotate --mode simt [workload|manifest] [--shader NAME]`: prints each shader's source
 * with the instrumentation data inline, as comments above the lines they belong to (V-Vision
 * Fig. 7: `/* execution count = 22072 histo=32:22072 *\/`).
 */
import type { Command } from 'commander';
import { DEFAULT_WORKLOAD } from '../../sim/workload/default-workload.js';
import { addRunOptions, parseRunOptions, type RawRunOptions } from '../run-options.js';
import { CliUsageError } from '../user-errors.js';
import { simtEfficiency, sumSimtEfficiency } from '../../analytics/index.js';
import { frameIndex } from './instrument.js';

interface RawAnnotateOptions extends RawRunOptions {
  mode: string;
  shader?: string;
  frame?: string;
}

export function registerAnnotateCommand(program: Command): void {
  addRunOptions(
    program
      .command('annotate')
      .description('print the shaders\' source with per-line execution counts and active-lane histograms inline')
      .option('--mode <mode>', 'instrumentation utility whose data is shown inline (simt)', 'simt')
      .option('--shader <name>', 'only this shader (file name, e.g. closesthit.rchit)')
      .option('--frame <n|sum>', 'multi-frame runs (--frames): one frame\'s counts (from 0), or the sum over every frame; default the last frame')
      .argument('[workload]', 'built-in workload name or path to a workload.json', DEFAULT_WORKLOAD),
  ).action(async (workload: string, raw: RawAnnotateOptions) => {
    const { instrumentWorkload } = await import('../../driver/instrument-workload.js');
    const { annotatedSources } = await import('../../driver/run-dir.js');
    if (raw.mode !== 'simt') throw new CliUsageError(`--mode: inline data comes from the simt utility; got '${raw.mode}'`);
    const sum = raw.frame === 'sum';
    const analyseFrame = raw.frame === undefined || sum ? undefined : frameIndex(raw.frame, '--frame');
    const result = await instrumentWorkload(workload, 'simt', { ...parseRunOptions(raw), ...(analyseFrame !== undefined ? { analyseFrame } : {}) });
    const run = result.runs[0]!;
    const meta = run.metadata;
    // --frame sum: every frame's counts added (SIMT figures are counts over block executions).
    const results = sum && run.frames ? { ...result.results, simt: sumSimtEfficiency(run.frames.map((f) => simtEfficiency(f.dump, meta)), meta) } : result.results;
    // Each shader's own file, then the #included files it ran code in (named `<shader>+<file>`).
    const sources = annotatedSources(results, meta, true);
    const shaders = meta.shaders.map((s) => s.name);
    if (raw.shader !== undefined && !shaders.includes(raw.shader)) {
      throw new CliUsageError(`--shader: no shader '${raw.shader}' in ${result.workload} (shaders: ${shaders.join(', ')})`);
    }
    if (raw.json) {
      const picked = Object.entries(sources).filter(([name]) => raw.shader === undefined || name.split('+')[0] === raw.shader);
      process.stdout.write(`${JSON.stringify({ workload: result.workload, mode: raw.mode, sources: Object.fromEntries(picked) }, null, 2)}\n`);
      return;
    }
    for (const [name, text] of Object.entries(sources)) {
      const owner = name.split('+')[0]!;
      if (raw.shader !== undefined && owner !== raw.shader) continue;
      const shader = meta.shaders.find((s) => s.name === owner);
      const what = name === owner ? `(${shader?.stage ?? ''}) ${shader?.sourcePath ?? ''}` : '(included)';
      process.stdout.write(`// ===== ${name} ${what}\n${text}\n`);
    }
  });
}
