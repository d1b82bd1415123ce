/**
 * `vvision compile`: compiles GLSL ray tracing shaders to vvision IR, the way glslangValidator is
 * used on the command line. Stage from the file extension unless `--stage` is given; diagnostics on
 * stderr as `file:line:col: error: message`; exit status 0 on success, 2 if any file has an error.
 * The command only wires options to `compileGlsl` and the IR printer; it holds no compiler logic.
 */
import { existsSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Module, Stage } from '../../ir/module.js';
import { STAGE_BY_EXTENSION } from '../../ir/module.js';
import { isSpirvPath, readSpirvFile } from '../../frontend/spirv/read-file.js';
import { SpirvReadError } from '../../frontend/spirv/spirv-words.js';
import { checkTargetEnv, glslcStage, GLSLC_STAGE_NAMES, parseStd, type TargetEnv } from '../../frontend/glsl/conventions.js';

export interface CompileCommandOptions {
  include: string[];
  define: string[];
  stage?: string;
  printIr?: boolean;
  json?: boolean;
  /** glslc's conventions (`#include` without the extension, `#pragma shader_stage`). */
  glslc?: boolean;
  /** glslc's `-fshader-stage=` (implies glslc). */
  fshaderStage?: string;
  /** glslc's `-std=` (implies glslc). */
  std?: string;
  /** `--target-env=` (both compilers spell it so). */
  targetEnv?: string;
  /** `-o FILE`: write the (one) module as SPIR-V, as glslangValidator -V -o does. */
  output?: string;
}

export { normalizeGlslcArgv } from '../glslc-argv.js';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `-D NAME=VALUE` / `-D NAME` (value 1, as glslang and cpp do). */
export function parseDefines(defs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of defs) {
    const eq = d.indexOf('=');
    if (eq < 0) out[d] = '1';
    else out[d.slice(0, eq)] = d.slice(eq + 1);
  }
  return out;
}

/** The module as JSON: bigints as decimal strings, the derived type index left out. */
export function moduleToJson(m: Module): string {
  return JSON.stringify(m, (key, value: unknown) => {
    if (typeof value === 'bigint') return value.toString();
    if (key === 'index' && value instanceof Map) return undefined;
    return value;
  }, 1);
}

/**
 * Runs the command; returns the exit status. Output streams are parameters for tests. The GLSL
 * front end, the SPIR-V reader and writer and the IR printer are imported when an input or option
 * needs them (issue 25: chevrotain is not loaded for a SPIR-V input).
 */
export async function runCompile(files: string[], opts: CompileCommandOptions, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  let stage: Stage | undefined;
  const glslc = opts.glslc === true || opts.fshaderStage !== undefined || opts.std !== undefined;
  let forcedVersion: number | undefined;
  if (opts.fshaderStage !== undefined) {
    stage = glslcStage(opts.fshaderStage);
    if (!stage) {
      err(`vvision compile: error: -fshader-stage=${opts.fshaderStage}: unknown stage (expected one of ${GLSLC_STAGE_NAMES.join(', ')})\n`);
      return 2;
    }
  }
  if (opts.std !== undefined) {
    const r = parseStd(opts.std);
    if (r.error) { err(`vvision compile: error: ${r.error}\n`); return 2; }
    forcedVersion = r.std!.version;
  }
  let targetEnv: TargetEnv = 'vulkan1.2';
  if (opts.targetEnv !== undefined) {
    const r = checkTargetEnv(opts.targetEnv);
    if (r.error) { err(`vvision compile: error: ${r.error}\n`); return 2; }
    targetEnv = r.env!;
  }
  if (opts.output !== undefined && files.length !== 1) {
    err(`vvision compile: error: -o writes one SPIR-V module; give exactly one input file (got ${files.length})\n`);
    return 2;
  }
  const { printModule } = opts.printIr ? await import('../../ir/printer.js') : { printModule: undefined };
  const spirvWriter = opts.output !== undefined ? await import('../../backend/spirv/write-spirv.js') : undefined;
  const emit = (m: Module): boolean => {
    if (printModule) out(printModule(m));
    if (opts.json) out(moduleToJson(m) + '\n');
    if (opts.output === undefined || spirvWriter === undefined) return true;
    try {
      writeFileSync(opts.output, spirvWriter.spirvBytes(spirvWriter.writeSpirv(m, { targetEnv })));
      return true;
    } catch (e) {
      if (!(e instanceof spirvWriter.SpirvWriteError) && !(e instanceof Error && 'code' in e)) throw e;
      err(`${opts.output}: error: ${(e as Error).message}\n`);
      return false;
    }
  };
  if (opts.stage !== undefined && stage === undefined) {
    stage = STAGE_BY_EXTENSION[opts.stage];
    if (!stage) {
      err(`vvision compile: error: unknown stage '${opts.stage}' (expected one of ${Object.keys(STAGE_BY_EXTENSION).join(', ')})\n`);
      return 2;
    }
  }
  if (files.length === 0) {
    err('vvision compile: error: no input files\n');
    return 2;
  }
  let status = 0;
  for (const file of files) {
    if (!existsSync(file)) {
      err(`${file}: error: cannot open file\n`);
      status = 2;
      continue;
    }
    if (isSpirvPath(file)) {
      const m = readSpirvModule(file, stage, err);
      if (!m || !emit(m)) status = 2;
      continue;
    }
    const { compileGlsl } = await import('../../frontend/glsl/compile.js');
    const { formatDiagnostic, hasErrors } = await import('../../frontend/glsl/diagnostics.js');
    const r = compileGlsl(file, undefined, {
      includeDirs: opts.include,
      defines: parseDefines(opts.define),
      ...(stage ? { stage } : {}),
      ...(glslc ? { conventions: 'glslc' as const } : {}),
      ...(forcedVersion !== undefined ? { forcedVersion } : {}),
    });
    for (const d of r.diagnostics) err(formatDiagnostic(d) + '\n');
    if (hasErrors(r.diagnostics) || !r.module) {
      status = 2;
      continue;
    }
    if (!emit(r.module)) status = 2;
  }
  return status;
}

/** A `.spv` file read into IR; errors (with the word offset and instruction) on `err`. */
function readSpirvModule(file: string, stage: Stage | undefined, err: (s: string) => void): Module | undefined {
  try {
    const m = readSpirvFile(file);
    const actual = m.entryPoints[0]!.stage;
    if (stage && stage !== actual) {
      err(`${file}: error: --stage says ${stage}, but the module's entry point is a ${actual} shader\n`);
      return undefined;
    }
    return m;
  } catch (e) {
    if (e instanceof SpirvReadError) {
      err(`${e.message}\n`);
      return undefined;
    }
    throw e;
  }
}

export function registerCompileCommand(program: Command): void {
  program
    .command('compile')
    .description('compile GLSL ray tracing shaders (.rgen .rchit .rmiss .rahit .rint .rcall .comp), or read SPIR-V modules (.spv), to vvision IR')
    .argument('<files...>', 'shader files')
    .option('-I, --include <dir>', 'add an #include search directory (repeatable)', collect, [])
    .option('-D, --define <NAME[=VALUE]>', 'predefine a macro (repeatable)', collect, [])
    .option('--stage <stage>', 'shader stage: rgen|rchit|rmiss|rahit|rint|rcall|comp (default: from the file extension)')
    .option('--glslc', "follow glslc's conventions: #include without GL_GOOGLE_include_directive, #pragma shader_stage()")
    .option('--fshader-stage <stage>', "glslc's -fshader-stage=<stage> (rgen|raygen, rchit|closesthit, rmiss|miss, rahit|anyhit, rint|intersection, rcall|callable, comp|compute); implies --glslc")
    .option('--std <version>', "glslc's -std=<version>[core]: force the GLSL version over #version (only 460 has ray tracing); implies --glslc")
    .option('--target-env <env>', 'target environment: vulkan1.2 (default), vulkan1.3 or vulkan1.4')
    .option('-o, --output <file.spv>', 'write the module as SPIR-V (one input file; --target-env picks SPIR-V 1.5 or 1.6)')
    .option('--print-ir', 'print the IR in its text form')
    .option('--json', 'print the IR module as JSON')
    .action(async (files: string[], opts: CompileCommandOptions) => {
      const status = await runCompile(files, opts, (s) => process.stdout.write(s), (s) => process.stderr.write(s));
      process.exitCode = status;
    });
}
