/**
 * The GLSL front end's entry: parse (preprocessor + parser), then semantic analysis and IR
 * generation, giving one IR module per shader file with a single entry point `main`.
 *
 * Contract: `module` is present exactly when `diagnostics` holds no error. Nothing here throws for
 * a problem in the shader: an unexpected exception inside the compiler becomes an
 * `internal compiler error` diagnostic at the closest known location.
 */
import { extname } from 'node:path';
import { newModule, STAGE_BY_EXTENSION, type Module, type SourceFile, type Stage } from '../../ir/module.js';
import type { TranslationUnit } from './ast.js';
import { caughtErrorMessage, hasErrors, type Diagnostic } from './diagnostics.js';
import { IrGenContext, SemanticError } from './irgen/context.js';
import { genTranslationUnit } from './irgen/translation-unit.js';
import { parseGlsl, type ParseOptions, type ParseResult } from './parse.js';
import { glslcStage, GLSLC_STAGE_NAMES, type GlslConventions } from './conventions.js';

export interface CompileOptions extends ParseOptions {
  /**
   * Defaults from the file extension (glslangValidator's convention, STAGE_BY_EXTENSION); under
   * glslc's conventions from `#pragma shader_stage()` first. An explicit stage wins in both.
   */
  stage?: Stage;
  /** Whose command-line behaviour to follow (conventions.ts); default glslangValidator's. */
  conventions?: GlslConventions;
}

export interface CompileResult {
  module: Module | undefined;
  diagnostics: Diagnostic[];
}

/** The stage glslang would pick for `path` from its extension, if any. */
export function stageFromPath(path: string): Stage | undefined {
  return STAGE_BY_EXTENSION[extname(path).slice(1)];
}

export function compileGlsl(path: string, text?: string, opts: CompileOptions = {}): CompileResult {
  if (opts.conventions === 'glslc') return compileGlslc(path, text, opts);
  const stage = opts.stage ?? stageFromPath(path);
  if (!stage) {
    return {
      module: undefined,
      diagnostics: [{
        severity: 'error', file: path, line: 1, column: 1,
        message: `cannot tell the shader stage from the extension '${extname(path)}'; use .rgen .rchit .rmiss .rahit .rint .rcall .comp or give the stage explicitly`,
      }],
    };
  }
  const parsed = parseGlsl(path, text, opts);
  if (!parsed.unit || hasErrors(parsed.diagnostics)) return { module: undefined, diagnostics: parsed.diagnostics };
  const includeErrors = includeExtensionErrors(parsed);
  if (includeErrors.length > 0) return { module: undefined, diagnostics: [...parsed.diagnostics, ...includeErrors] };
  const r = compileUnit(parsed.unit, parsed.sources, stage);
  return { module: r.module, diagnostics: [...parsed.diagnostics, ...r.diagnostics] };
}

/**
 * glslc's behaviour: `#include` needs no extension directive, and the stage is `-fshader-stage=`
 * (opts.stage), else `#pragma shader_stage()`, else the file extension.
 */
function compileGlslc(path: string, text: string | undefined, opts: CompileOptions): CompileResult {
  const parsed = parseGlsl(path, text, opts);
  if (!parsed.unit || hasErrors(parsed.diagnostics)) return { module: undefined, diagnostics: parsed.diagnostics };
  let stage = opts.stage;
  const pragma = parsed.pragmaStage;
  if (!stage && pragma) {
    stage = glslcStage(pragma.name);
    if (!stage) {
      return {
        module: undefined,
        diagnostics: [...parsed.diagnostics, {
          severity: 'error', file: parsed.sources[pragma.loc.file]?.path ?? path, line: pragma.loc.line, column: pragma.loc.column,
          message: `unknown shader stage '${pragma.name}' in #pragma shader_stage (expected one of ${GLSLC_STAGE_NAMES.join(', ')})`,
        }],
      };
    }
  }
  stage ??= stageFromPath(path);
  if (!stage) {
    return {
      module: undefined,
      diagnostics: [...parsed.diagnostics, {
        severity: 'error', file: path, line: 1, column: 1,
        message: `cannot tell the shader stage from the extension '${extname(path)}'; give -fshader-stage=<stage>, #pragma shader_stage(<stage>) or a stage extension (.rgen .rchit .rmiss .rahit .rint .rcall .comp)`,
      }],
    };
  }
  const r = compileUnit(parsed.unit, parsed.sources, stage);
  return { module: r.module, diagnostics: [...parsed.diagnostics, ...r.diagnostics] };
}

/** As glslang: `#include` needs GL_GOOGLE_include_directive (or GL_ARB_shading_language_include). */
function includeExtensionErrors(parsed: ParseResult): Diagnostic[] {
  const site = parsed.includes?.[0];
  if (!site || !parsed.unit) return [];
  const enabled = parsed.unit.extensions.some(
    (e) => (e.name === 'GL_GOOGLE_include_directive' || e.name === 'GL_ARB_shading_language_include') && e.behavior !== 'disable',
  );
  if (enabled) return [];
  return [{
    severity: 'error', file: parsed.sources[site.file]?.path ?? '', line: site.line, column: site.column,
    message: "'#include' requires '#extension GL_GOOGLE_include_directive : require' (or enable) before it",
  }];
}

/** Semantic analysis + IR generation of an already parsed unit (`Loc.file` indexes `sources`). */
export function compileUnit(unit: TranslationUnit, sources: SourceFile[], stage: Stage): CompileResult {
  const m = newModule();
  m.sources = sources;
  const cx = new IrGenContext(m, stage);
  try {
    genTranslationUnit(cx, unit);
  } catch (e) {
    if (!(e instanceof SemanticError)) {
      const loc = cx.fb?.current.insts.at(-1)?.loc ?? { file: 0, line: 1, column: 1 };
      cx.error(loc, caughtErrorMessage(e));
    }
  }
  const diagnostics = cx.diagnostics;
  return { module: hasErrors(diagnostics) ? undefined : m, diagnostics };
}
