/** `vvision compare <a> <b>`: two run directories side by side (src/driver/compare-runs.ts); writes compare.html and compare.json into --out. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';

export function registerCompareCommand(program: Command): void {
  program
    .command('compare')
    .description('compare two run directories (simulator vs device, or two devices): image, thread-level entries, SIMT efficiency, ITS exit/entry, with a verdict per figure')
    .argument('<a>', 'run directory')
    .argument('<b>', 'run directory')
    .option('--out <dir>', 'write compare.html and compare.json here')
    .option('--json', 'print the comparison as JSON (what compare.json holds)')
    .action(async (a: string, b: string, opts: { out?: string; json?: boolean }) => {
      const { compareRuns, comparisonHtml } = await import('../../driver/compare-runs.js');
      const c = compareRuns(resolve(a), resolve(b));
      if (!opts.json) for (const f of c.figures) process.stdout.write(`${f.verdict.padEnd(15)} ${f.figure}: ${f.a} | ${f.b}${f.note ? ` (${f.note})` : ''}\n`);
      if (opts.out) {
        mkdirSync(opts.out, { recursive: true });
        writeFileSync(join(opts.out, 'compare.json'), `${JSON.stringify(c, null, 2)}\n`);
        writeFileSync(join(opts.out, 'compare.html'), comparisonHtml(c));
        if (!opts.json) process.stdout.write(`wrote ${join(opts.out, 'compare.html')}\n`);
      }
      if (opts.json) process.stdout.write(`${JSON.stringify(opts.out ? { ...c, out: join(opts.out, 'compare.html') } : c, null, 2)}\n`);
    });
}
