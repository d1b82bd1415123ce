/**
 * `vvision instrument --mode <simt|divergence|paths|trace|its|all> [workload|manifest]`: runs the
 * workload with the shaders instrumented by V-Vision's utilities, analyses the dumps and writes
 * the run directory (data files, raw dumps + metadata, annotated source) and the HTML report.
 * `--utility file.ts` (repeatable, with or without --mode) adds user utilities: type-checked and
 * transpiled in-process (src/utilities/load-utility.ts), then run exactly as the built-ins.
 */
import type { Command } from 'commander';
import type { InstrumentModeArg, InstrumentResult } from '../../driver/instrument-workload.js';
import { INSTRUMENTATION_BINDING, INSTRUMENTATION_MODES, INSTRUMENTATION_SET } from '../../primitives/buffer-layout.js';
import { DEFAULT_WORKLOAD } from '../../sim/workload/default-workload.js';
import { checkOutputTarget, OutputDir } from '../output-dir.js';
import { progressReporter } from '../progress.js';
import { addRunOptions, parseRunOptions, type RawRunOptions } from '../run-options.js';
import { CliUsageError } from '../user-errors.js';
import type { Utility } from '../../utilities/utility.js';
import type { SpirvBinding } from '../../driver/emit-spirv.js';
import { checkTargetEnv, type TargetEnv } from '../../frontend/glsl/conventions.js';
import { withLoadWatchdog } from '../../utilities/load-watchdog.js';

interface RawInstrumentOptions extends RawRunOptions {
  keepAlpha?: boolean;
  mode?: string;
  utility: string[];
  bufferSize: string;
  config?: string;
  set: string[];
  emitSpirv?: string;
  spirvBinding: string;
  targetEnv: string;
  analyseFrame?: string;
}

/** `--spirv-binding SET:BINDING`. */
export function parseSpirvBinding(v: string): SpirvBinding {
  const m = /^(\d+):(\d+)$/.exec(v);
  if (!m) throw new CliUsageError(`--spirv-binding: expected SET:BINDING such as 7:0, got '${v}'`);
  return { set: Number(m[1]), binding: Number(m[2]) };
}

function parseMode(mode: string): InstrumentModeArg {
  if (mode === 'all' || (INSTRUMENTATION_MODES as readonly string[]).includes(mode)) return mode as InstrumentModeArg;
  throw new CliUsageError(`--mode: expected one of ${[...INSTRUMENTATION_MODES, 'all'].join(', ')}, got '${mode}'`);
}

async function modesOfArg(mode: InstrumentModeArg): Promise<Utility[]> {
  const { BUILTIN_UTILITIES } = await import('../../utilities/builtin.js');
  return mode === 'all' ? Object.values(BUILTIN_UTILITIES) : [BUILTIN_UTILITIES[mode]];
}

function parseBufferSize(v: string): number | 'auto' {
  if (v === 'auto') return 'auto';
  const n = Number(v);
  if (!Number.isInteger(n) || n < 3 || n > 2 ** 31) throw new CliUsageError(`--buffer-size: expected 'auto' or a word count >= 3, got '${v}'`);
  return n;
}

export function registerInstrumentCommand(program: Command): void {
  addRunOptions(
    program
      .command('instrument')
      .description('instrument the shaders with V-Vision utilities, simulate, analyse, and write a report')
      .option('--mode <mode>', `built-in utility: ${[...INSTRUMENTATION_MODES, 'all'].join(' | ')}`)
      .option('--utility <file.ts>', 'a user utility file (type-checked against vvision and loaded in-process; repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[])
      .option('--buffer-size <words|auto>', 'instrumentation buffer size in 32-bit words; auto reruns once with the exact size', 'auto')
      .option('--config <preset|file>', 'run on the cycle-level timing model with this GPU configuration (baseline, mobile, treelet, predictor, rtx2060, or a gpgpusim.config file) and report the instrumentation overhead in cycles; without it, functional simulation only')
      .option('--set <key=value>', 'override one configuration knob (repeatable; needs --config)', (v: string, prev: string[]) => [...prev, v], [] as string[])
      .option('--keep-alpha', 'write the shader\'s alpha into image.png (default: opaque)')
      .option('--analyse-frame <n>', 'multi-frame runs (--frames): the frame (from 0) the utilities analyse and annotate; default the last (every frame\'s dump is saved, with per-frame figures in run.json and the report)')
      .option('--emit-spirv <dir>', 'also write the instrumented stage modules as SPIR-V (spirv/<mode>/*.spv), their metadata (runs/<mode>/metadata.json) and instrumentation-buffer.json: what a Vulkan host needs to run them on a GPU')
      .option('--spirv-binding <set:binding>', 'descriptor set and binding of the instrumentation buffer in the emitted SPIR-V', `${INSTRUMENTATION_SET}:${INSTRUMENTATION_BINDING}`)
      .option('--target-env <env>', 'Vulkan environment of the emitted SPIR-V: vulkan1.2 (SPIR-V 1.5), vulkan1.3 or vulkan1.4 (SPIR-V 1.6)', 'vulkan1.2')
      .argument('[workload]', 'built-in workload name or path to a workload.json', DEFAULT_WORKLOAD),
  ).action(async (workload: string, raw: RawInstrumentOptions) => {
    const { instrumentWorkload } = await import('../../driver/instrument-workload.js');
    const { saveInstrumentRun } = await import('../../driver/run-dir.js');
    const { loadManifest, resolveWorkload } = await import('../../sim/workload/load-manifest.js');
    const { writeHtmlReport } = await import('../../report/write-report.js');
    const { loadUtilities } = await import('../../utilities/load-utility.js');
    if (raw.out !== undefined) checkOutputTarget(raw.out);
    if (raw.emitSpirv !== undefined) checkOutputTarget(raw.emitSpirv);
    if (raw.mode === undefined && raw.utility.length === 0) throw new CliUsageError('give --mode <utility> or --utility <file.ts> (or both)');
    const builtins = raw.mode === undefined ? [] : await modesOfArg(parseMode(raw.mode));
    const users: Utility[] = [];
    for (const f of raw.utility) users.push(...(await withLoadWatchdog(f, () => loadUtilities(f))));
    const utilities = [...builtins, ...users];
    const clash = utilities.find((u, k) => utilities.findIndex((v) => v.name === u.name) !== k);
    if (clash) throw new CliUsageError(`two utilities are named '${clash.name}'`);
    const mode = [raw.mode, ...users.map((u) => u.name)].filter((x) => x !== undefined).join('+');
    const spirvBinding = parseSpirvBinding(raw.spirvBinding);
    const targetEnv = checkTargetEnv(raw.targetEnv);
    if (targetEnv.error) throw new CliUsageError(targetEnv.error);
    if (raw.emitSpirv !== undefined) {
      // Before simulating: a binding the manifest gives to a resource cannot hold the buffer.
      const taken = loadManifest(resolveWorkload(workload)).descriptors.find((d) => d.set === spirvBinding.set && d.binding === spirvBinding.binding);
      if (taken) throw new CliUsageError(`--spirv-binding ${raw.spirvBinding}: the workload binds a ${taken.kind} there; choose a free set and binding for the instrumentation buffer`);
    }
    if (raw.config === undefined && raw.set.length > 0) throw new CliUsageError(`--set ${raw.set[0]}: configuration overrides need --config <preset|file>`);
    const opts = {
      ...parseRunOptions(raw), bufferSize: parseBufferSize(raw.bufferSize),
      ...(raw.config !== undefined ? { config: raw.config, overrides: raw.set } : {}),
      ...(raw.analyseFrame !== undefined ? { analyseFrame: frameIndex(raw.analyseFrame, '--analyse-frame') } : {}),
    };
    const progress = progressReporter();
    const result = await instrumentWorkload(workload, utilities, { ...opts, onProgress: progress.message });
    progress.done();
    const out = new OutputDir(raw.out ?? `vvision-out/${result.workload}-${mode}`);
    try {
      const data = saveInstrumentRun(out, result, { keepAlpha: raw.keepAlpha === true });
      const t0 = performance.now();
      await writeHtmlReport(out, data);
      const reportMs = performance.now() - t0;
      const spirvLine = raw.emitSpirv !== undefined ? await writeSpirvDir(raw.emitSpirv, result, spirvBinding, targetEnv.env!) : undefined;
      const dir = out.commit();
      const simt = result.results.simt?.overall;
      if (raw.json) {
        process.stdout.write(`${JSON.stringify({
          workload: result.workload, mode, runs: result.runs.map((r) => r.mode), out: dir, report: `${dir}/index.html`,
          ...(simt ? { simtEfficiency: { instructionWeighted: simt.instructionEfficiency, perBlockExecution: simt.efficiency } } : {}),
          ...(result.fidelity ? { fidelity: result.fidelity } : {}),
          utilities: Object.fromEntries(result.analyses.filter((a) => users.includes(a.utility)).map((a) => [a.utility.name, a.analysis.summary ?? []])),
          ...(result.timing ? { timing: { config: result.timing.config, baseline: result.timing.baseline.values, runs: Object.fromEntries(result.runs.map((r) => [r.mode, r.timing?.values])) } } : {}),
          ...(spirvLine ? { spirv: spirvLine } : {}),
        }, null, 2)}\n`);
        return;
      }
      const lines = [`${result.workload}: instrumented with ${mode} (${result.runs.map((r) => r.mode).join(', ')})`];
      const frames = result.runs[0]!.frames;
      if (frames) {
        lines.push(`  ${frames.length} frames; the analyses read frame ${result.runs[0]!.analysedFrame}; per frame (SIMT efficiency, rays, dump words):`);
        for (const m of result.runs) {
          lines.push(`    ${m.mode.padEnd(10)} ${(m.frames ?? []).map((f) => `${(100 * (f.counters.warpInsts === 0 ? 0 : f.counters.activeLanes / (32 * f.counters.warpInsts))).toFixed(1)}%/${f.rt.rays}/${f.dump.wordsWritten}`).join('  ')}`);
        }
      }
      if (simt) lines.push(`  SIMT efficiency ${(simt.instructionEfficiency * 100).toFixed(1)}% (instruction-weighted), ${(simt.efficiency * 100).toFixed(1)}% per block execution`);
      if (result.fidelity) {
        lines.push(`  fidelity check: dump ${(result.fidelity.fromDump * 100).toFixed(3)}% vs simulator ${(result.fidelity.fromSimulator * 100).toFixed(3)}% over ${result.fidelity.sitesCompared} sites: ${result.fidelity.holds ? 'equal' : `${result.fidelity.mismatches.length} sites differ`}`);
      }
      for (const { utility, analysis } of result.analyses) {
        if (!users.includes(utility)) continue;
        for (const h of analysis.summary ?? []) lines.push(`  ${utility.name}: ${h.label} ${h.value}${h.note ? ` (${h.note})` : ''}`);
      }
      if (result.timing) lines.push(...overheadLines(result));
      const sim = result.runs.reduce((s, r) => s + r.simulateMs, 0) + (result.timing?.baselineWallMs ?? 0);
      lines.push(`  simulation ${(sim / 1000).toFixed(1)} s, analytics ${(result.analyticsMs / 1000).toFixed(2)} s, report ${(reportMs / 1000).toFixed(2)} s`);
      lines.push(`report: ${dir}/index.html`);
      if (spirvLine) lines.push(spirvLine);
      process.stdout.write(`${lines.join('\n')}\n`);
    } catch (e) {
      out.abandon();
      throw e;
    }
  });
}

async function writeSpirvDir(path: string, result: InstrumentResult, binding: SpirvBinding, env: TargetEnv): Promise<string> {
  const { emitInstrumentedSpirv } = await import('../../driver/emit-spirv.js');
  const dir = new OutputDir(path);
  try {
    const d = emitInstrumentedSpirv(dir, result, binding, env);
    const done = dir.commit();
    const files = d.modes.reduce((n, m) => n + m.shaders.length, 0);
    return `SPIR-V (${env}): ${files} instrumented modules, buffer at set ${d.set} binding ${d.binding}: ${done}/instrumentation-buffer.json`;
  } catch (e) {
    dir.abandon();
    throw e;
  }
}

/** The timing-model summary: cycles of each instrumented run against the uninstrumented one. */
function overheadLines(result: InstrumentResult): string[] {
  const base = result.timing!.baseline.values;
  const baseCycles = base.gpu_sim_cycle ?? 0;
  const lines = [
    `  timing model (${result.timing!.config}): uninstrumented ${baseCycles} cycles, IPC ${(base.gpu_ipc ?? 0).toFixed(2)}, ${base.gpu_sim_insn ?? 0} thread instructions`,
  ];
  for (const r of result.runs) {
    const v = r.timing!.values;
    const cycles = v.gpu_sim_cycle ?? 0;
    const extra = cycles - baseCycles;
    const rel = baseCycles > 0 ? ` (${extra >= 0 ? '+' : ''}${((100 * extra) / baseCycles).toFixed(1)}%)` : '';
    lines.push(`    ${r.mode.padEnd(10)} ${cycles} cycles, overhead ${extra >= 0 ? '+' : ''}${extra} cycles${rel}, IPC ${(v.gpu_ipc ?? 0).toFixed(2)}, L1D miss rate ${(100 * (v.L1D_total_cache_miss_rate ?? 0)).toFixed(1)}%, DRAM writes ${v.dram_writes ?? 0}`);
  }
  return lines;
}

/** A frame index option (`--analyse-frame`, annotate's `--frame`). */
export function frameIndex(v: string, option: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new CliUsageError(`${option}: expected a frame index (0, 1, ...), got '${v}'`);
  return n;
}
