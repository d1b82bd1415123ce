#!/usr/bin/env node
/**
 * The `vvision` command. Each subcommand lives in src/cli/commands and only wires options to the
 * driver / stages; errors a user can cause end in one clear message and a non-zero exit.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { registerCalibrateCommand } from './commands/calibrate.js';
import { normalizeGlslcArgv, registerCompileCommand } from './commands/compile.js';
import { registerAnnotateCommand } from './commands/annotate.js';
import { registerInstrumentCommand } from './commands/instrument.js';
import { registerReportCommand } from './commands/report.js';
import { registerSimCommand } from './commands/sim.js';
import { registerRunCommand } from './commands/run.js';
import { registerWorkloadsCommand } from './commands/workloads.js';
import { registerZatelCommand } from './commands/zatel.js';
import { registerSweepCommand } from './commands/sweep.js';
import { registerRunJobCommand } from './commands/run-job.js';
import { registerCollectCommand } from './commands/collect.js';
import { registerDeviceCommand } from './commands/device.js';
import { registerCompareCommand } from './commands/compare.js';
import { reportError } from './user-errors.js';

/** The package's version, from the package.json two levels above (src/cli and build/cli alike). */
export function packageVersion(): string {
  const json = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string };
  return json.version;
}

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('vvision')
    .description('Instrumentation and profiling SDK for Vulkan ray tracing shaders, with an embedded GPU + RT-unit simulator')
    .version(packageVersion(), '-V, --version', 'print the vvision version')
    .showHelpAfterError()
    .exitOverride();
  registerCompileCommand(program);
  registerWorkloadsCommand(program);
  registerRunCommand(program);
  registerInstrumentCommand(program);
  registerAnnotateCommand(program);
  registerReportCommand(program);
  registerSimCommand(program);
  registerCalibrateCommand(program);
  registerSweepCommand(program);
  registerZatelCommand(program);
  registerCollectCommand(program);
  registerRunJobCommand(program);
  registerDeviceCommand(program);
  registerCompareCommand(program);
  return program;
}

async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(normalizeGlslcArgv(argv));
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return 0;
    if (typeof code === 'string' && code.startsWith('commander.')) return (e as { exitCode?: number }).exitCode ?? 1;
    return reportError(e);
  }
}

process.exitCode = await main(process.argv);
