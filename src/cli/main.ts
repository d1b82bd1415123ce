#!/usr/bin/env node
/**
 * The `vvision` command. Each subcommand lives in src/cli/commands and only wires options to the
 * driver / stages; errors a user can cause end in one clear message and a non-zero exit.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { normalizeGlslcArgv } from './glslc-argv.js';
import { limitHeapGrowth } from './heap-growth.js';

/** The package's version, from the package.json two levels above (src/cli and build/cli alike). */
export function packageVersion(): string {
  const json = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string };
  return json.version;
}

type Register = (program: Command) => void;

/**
 * The subcommands in help order, each imported only when named (issue 25: a command loads what it
 * needs, not the compiler, simulator and report writer of every other command); `--help` and an
 * unknown or missing command load them all, and every command module keeps its own top-level
 * imports light (dependencies are imported inside its action).
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  compile: async () => (await import('./commands/compile.js')).registerCompileCommand,
  workloads: async () => (await import('./commands/workloads.js')).registerWorkloadsCommand,
  run: async () => (await import('./commands/run.js')).registerRunCommand,
  instrument: async () => (await import('./commands/instrument.js')).registerInstrumentCommand,
  annotate: async () => (await import('./commands/annotate.js')).registerAnnotateCommand,
  report: async () => (await import('./commands/report.js')).registerReportCommand,
  sim: async () => (await import('./commands/sim.js')).registerSimCommand,
  calibrate: async () => (await import('./commands/calibrate.js')).registerCalibrateCommand,
  sweep: async () => (await import('./commands/sweep.js')).registerSweepCommand,
  zatel: async () => (await import('./commands/zatel.js')).registerZatelCommand,
  collect: async () => (await import('./commands/collect.js')).registerCollectCommand,
  'run-job': async () => (await import('./commands/run-job.js')).registerRunJobCommand,
  device: async () => (await import('./commands/device.js')).registerDeviceCommand,
  compare: async () => (await import('./commands/compare.js')).registerCompareCommand,
};

/** The program for `argv` (`process.argv`): the named command only, or every command when none is named. */
export async function buildProgram(argv: string[] = process.argv): Promise<Command> {
  const program = new Command();
  program
    .name('vvision')
    .description('Instrumentation and profiling SDK for Vulkan ray tracing shaders, with an embedded GPU + RT-unit simulator')
    .version(packageVersion(), '-V, --version', 'print the vvision version')
    .showHelpAfterError()
    .exitOverride();
  const named = argv[2] !== undefined ? COMMANDS[argv[2]] : undefined;
  const registers = named !== undefined ? [await named()] : await Promise.all(Object.values(COMMANDS).map((load) => load()));
  for (const register of registers) register(program);
  return program;
}

async function main(argv: string[]): Promise<number> {
  limitHeapGrowth();
  try {
    const args = normalizeGlslcArgv(argv);
    await (await buildProgram(args)).parseAsync(args);
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return 0;
    if (typeof code === 'string' && code.startsWith('commander.')) return (e as { exitCode?: number }).exitCode ?? 1;
    const { reportError } = await import('./user-errors.js');
    return reportError(e);
  }
}

process.exitCode = await main(process.argv);
