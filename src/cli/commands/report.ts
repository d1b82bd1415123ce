/**
 * `vvision report <run-dir>`: redoes the analytics from the run directory's saved dumps and
 * metadata and rewrites its data files, annotated sources and HTML report (no simulation).
 * Runs of user utilities load the utility again: from `--utility file.ts`, else from the path
 * run.json recorded.
 */
import { recordFilesInRunDir } from '../output-dir.js';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { RunRecord } from '../../driver/run-dir.js';
import type { Utility } from '../../utilities/utility.js';
import { withLoadWatchdog } from '../../utilities/load-watchdog.js';

/** Each file written whole: to a temporary name, then renamed over the old one. */
function atomicWriter(dir: string) {
  const written: string[] = [];
  return {
    dir,
    write(name: string, data: string | Uint8Array) {
      const p = join(dir, name);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(`${p}.tmp-${process.pid}`, data);
      renameSync(`${p}.tmp-${process.pid}`, p);
      written.push(name);
    },
    /** Lists what was written in the run directory's marker, so a later `--out` may replace it. */
    recordInMarker() {
      recordFilesInRunDir(dir, written);
    },
  };
}

export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('regenerate the analyses and the HTML report of a saved run directory')
    .argument('<run-dir>', 'directory written by `vvision instrument`')
    .option('--utility <file.ts>', "a user utility the run used (default: the file run.json recorded; repeatable)", (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option('--json', 'print the report path as JSON')
    .action(async (dirArg: string, opts: { utility: string[]; json?: boolean }) => {
      const { writeHtmlReport } = await import('../../report/write-report.js');
      const { loadRunDir, namingDir, runDataFiles, RunDirError } = await import('../../driver/run-dir.js');
      const dir = resolve(dirArg);
      const users = await userUtilities(dir, opts.utility);
      const data = loadRunDir(dir, (name) => {
        const u = users.get(name);
        if (!u) throw new RunDirError(`${join(dir, 'run.json')}: the run used utility '${name}'; give its file with --utility`);
        return u;
      });
      const w = atomicWriter(dir);
      for (const [name, text] of Object.entries(runDataFiles(data.results, namingDir(data)))) w.write(name, text);
      for (const [name, text] of Object.entries(data.annotated)) w.write(`annotated/${name}.glsl`, text);
      await writeHtmlReport(w, data);
      w.recordInMarker();
      process.stdout.write(opts.json ? `${JSON.stringify({ report: `${dir}/index.html` })}\n` : `report: ${dir}/index.html\n`);
    });
}

/** The user utilities a saved run needs, by name: the files given, then the files run.json recorded. */
async function userUtilities(dir: string, files: string[]): Promise<Map<string, Utility>> {
  const { recordedUtilityPath, RunDirError } = await import('../../driver/run-dir.js');
  const { BUILTIN_UTILITIES } = await import('../../utilities/builtin.js');
  const { loadUtilities } = await import('../../utilities/load-utility.js');
  const byName = new Map<string, Utility>();
  for (const f of files) for (const u of await withLoadWatchdog(f, () => loadUtilities(f))) byName.set(u.name, u);
  const recordPath = join(dir, 'run.json');
  if (!existsSync(recordPath)) return byName;
  let record: Partial<RunRecord>;
  try {
    record = JSON.parse(readFileSync(recordPath, 'utf8')) as Partial<RunRecord>;
  } catch {
    return byName; // loadRunDir reports the bad file
  }
  for (const m of Array.isArray(record.modes) ? record.modes : []) {
    if (typeof m?.mode !== 'string' || m.mode in BUILTIN_UTILITIES || byName.has(m.mode) || typeof m.utilityFile !== 'string') continue;
    const file = recordedUtilityPath(m.utilityFile, dir);
    if (!existsSync(file)) throw new RunDirError(`${recordPath}: utility '${m.mode}' (recorded as ${m.utilityFile}) is not at ${file}; give its file with --utility`);
    for (const u of await withLoadWatchdog(file, () => loadUtilities(file))) byName.set(u.name, u);
  }
  return byName;
}
