/**
 * `vvision report <run-dir>`: redoes the analytics from the run directory's saved dumps and
 * metadata and rewrites its data files, annotated sources and HTML report (no simulation).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { vvisionDataFiles } from '../../analytics/index.js';
import { loadRunDir } from '../../driver/run-dir.js';
import { writeHtmlReport } from '../../report/write-report.js';

/** Each file written whole: to a temporary name, then renamed over the old one. */
function atomicWriter(dir: string) {
  return {
    write(name: string, data: string | Uint8Array) {
      const p = join(dir, name);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(`${p}.tmp-${process.pid}`, data);
      renameSync(`${p}.tmp-${process.pid}`, p);
    },
  };
}

export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('regenerate the analyses and the HTML report of a saved run directory')
    .argument('<run-dir>', 'directory written by `vvision instrument`')
    .action(async (dirArg: string) => {
      const dir = resolve(dirArg);
      const data = loadRunDir(dir);
      const w = atomicWriter(dir);
      for (const [name, text] of Object.entries(vvisionDataFiles(data.results))) w.write(name, text);
      for (const [name, text] of Object.entries(data.annotated)) w.write(`annotated/${name}.glsl`, text);
      await writeHtmlReport(w, data);
      process.stdout.write(`report: ${dir}/index.html\n`);
    });
}
