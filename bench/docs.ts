/**
 * `npm run bench -- docs [--only NAME,...] [--workers N] [--config X]`: regenerates the figures
 * in docs/ from runs at the current commit (issue 26 part 7), writing each between its
 * generated-block markers (bench/docs/generated-blocks.ts) with the commit and date:
 * - calibration-32x32, calibration-64x64 (docs/calibration.md): the WKND frame beside Vulkan-Sim's
 *   SUMMARY.tsv run of the same size, every row of CALIBRATION_FIGURES with its target;
 * - microbench (docs/calibration.md): the mechanism microbenchmarks (bench/microbench/suite.ts).
 * A block that a doc does not contain is an error (the doc decides where its figures go).
 * WKND runs are cached by (commit, config hash, size) like the sensitivity study's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CALIBRATION_FIGURES, readReferenceRuns, withinTarget, type Target } from '../src/driver/calibrate.js';
import { commitKey, repoRoot, runWknd } from './jobs/wknd-runs.js';
import { replaceGeneratedBlock } from './docs/generated-blocks.js';
import { defaultCalibrationConfig, microbenchTable, runMicrobenchmarks } from './microbench/suite.js';

const GENERATOR = 'npm run bench -- docs';
const args = process.argv.slice(2);
let only: string[] | undefined;
let workers = 1;
let config = defaultCalibrationConfig();
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === '--only') only = args[++i]!.split(',');
  else if (a === '--workers') workers = Number(args[++i]);
  else if (a === '--config') config = args[++i]!;
  else throw new Error(`docs: unknown argument ${a} (--only calibration,microbench --workers N --config X)`);
}
const wanted = (group: string): boolean => only === undefined || only.includes(group);
const commit = commitKey();
const log = (s: string): void => {
  process.stderr.write(`  ${s}\n`);
};

const fmt = (x: number): string => {
  if (!Number.isFinite(x)) return '—';
  if (Number.isInteger(x)) return x.toLocaleString('en-US');
  return Math.abs(x) >= 100 ? x.toLocaleString('en-US', { maximumFractionDigits: 0 }) : x.toFixed(Math.abs(x) >= 1 ? 2 : 3);
};
const targetText = (t: Target): string =>
  t.kind === 'relative' ? `within ${Math.round(100 * t.tolerance)}%` : t.kind === 'factor' ? `within ${t.tolerance}x` : `within ${t.tolerance} abs`;

const docPath = join(repoRoot, 'docs', 'calibration.md');
let doc = readFileSync(docPath, 'utf8');

if (wanted('calibration')) {
  const refs = readReferenceRuns();
  const results = await runWknd(refs.map((r) => ({ config, overrides: [], width: r.width, height: r.height, spp: r.spp })), { workers, log });
  refs.forEach((ref, i) => {
    const v = results[i]!.values;
    const rows = [
      '| figure | Vulkan-Sim | vvision | vvision / Vulkan-Sim | target | |',
      '|---|---|---|---|---|---|',
    ];
    for (const f of CALIBRATION_FIGURES) {
      const theirs = ref.figures[f.name]!;
      const ours = v[f.name] ?? Number.NaN;
      const cmp = f.target?.kind === 'absolute' ? `${ours - theirs >= 0 ? '+' : '−'}${Math.abs(ours - theirs).toFixed(3)} abs` : (ours / theirs).toFixed(2);
      const met = f.target ? (withinTarget(f.target, theirs, ours) ? 'met' : '**missed**') : '';
      rows.push(`| ${f.name} | ${fmt(theirs)} | ${fmt(ours)} | ${cmp} | ${f.target ? targetText(f.target) : '—'} | ${met} |`);
    }
    const body = `${ref.width}x${ref.height}, ${ref.spp} spp, on \`SM75_RTX2060.gpgpusim.config\`; Vulkan-Sim's figures from SUMMARY.tsv (${ref.run}).\n\n${rows.join('\n')}`;
    doc = replaceGeneratedBlock(doc, `calibration-${ref.width}x${ref.height}`, GENERATOR, commit, body);
  });
}

if (wanted('microbench')) {
  const r = await runMicrobenchmarks(config, [], log);
  const body = `On \`${r.config.replace(/^.*\/(?=[^/]+$)/, '')}\`. Ratios far from 1 are mechanisms the model does not yet implement as configured (nothing here is tuned).\n\n${microbenchTable(r)}`;
  doc = replaceGeneratedBlock(doc, 'microbench', GENERATOR, commit, body);
}

writeFileSync(docPath, doc);
process.stdout.write(`docs: wrote ${docPath} at ${commit}\n`);
