/**
 * The whole `vvision instrument` flow for library users: run a workload once per utility, analyse,
 * and write the run directory (dumps + metadata, data files, annotated sources, HTML report) as
 * the CLI does. The directory is written whole or not at all.
 */
import { OutputDir } from '../cli/output-dir.js';
import { instrumentWorkload, type InstrumentModeArg, type InstrumentOptions, type InstrumentResult } from '../driver/instrument-workload.js';
import { loadRunDir, saveInstrumentRun, type RunData, type UtilityResolver } from '../driver/run-dir.js';
import { writeHtmlReport } from '../report/write-report.js';
import type { Utility } from '../utilities/utility.js';

export type { InstrumentOptions, InstrumentResult } from '../driver/instrument-workload.js';

/**
 * Runs `workload` instrumented by each utility in turn (one simulation and one dump per utility),
 * then every analysis. `utilities`: a built-in mode name, `'all'`, a utility, or a list of them.
 */
export function profileWorkload(
  workload: string, utilities: InstrumentModeArg | Utility | readonly Utility[], opts: InstrumentOptions = {},
): Promise<InstrumentResult> {
  return instrumentWorkload(workload, utilities, opts);
}

/** Writes a profile's run directory and HTML report (`<dir>/index.html`); returns the directory's absolute path. */
export async function writeRunDirectory(dir: string, result: InstrumentResult): Promise<string> {
  const out = new OutputDir(dir);
  try {
    const data = saveInstrumentRun(out, result);
    await writeHtmlReport(out, data);
    return out.commit();
  } catch (e) {
    out.abandon();
    throw e;
  }
}

/**
 * Reads a run directory back and redoes its analyses from the saved dumps (no simulation).
 * `resolve` finds the user utilities of its runs by name (and the path recorded when it ran).
 */
export function readRunDirectory(dir: string, resolve?: UtilityResolver): RunData {
  return loadRunDir(dir, resolve);
}
