/**
 * The GLSL preprocessor: source files in, one token vector out (the parser's input).
 *
 * Works on tokens, line by line: directives (`#define #undef #if #ifdef #ifndef #elif #else
 * #endif #include #line #error #pragma #version #extension`) are handled as their line is
 * reached; ordinary lines of an active region are gathered and macro-expanded together, so a
 * macro invocation may span lines (but not a directive). `#include` follows
 * GL_GOOGLE_include_directive: "x" is searched beside the including file, then in the include
 * dirs; <x> in the include dirs, then beside the includer.
 * Invariants: every output token carries its ORIGINAL file/line/column (`file` indexes `sources`;
 * sources[0] is the main file; each file appears once, however often it is included); problems
 * become diagnostics, never exceptions.
 */
import { posix } from 'node:path';
import type { IToken } from 'chevrotain';
import type { Loc } from '../../ir/inst.js';
import type { SourceFile } from '../../ir/module.js';
import type { Diagnostic } from './diagnostics.js';
import { evaluatePpExpression, PpExpressionError } from './preprocessor-expression.js';
import { expandMacros, type ExpansionContext, type Macro, type PpToken } from './preprocessor-macros.js';
import { MAX_TOKENS } from './token-limit.js';
import { PREDEFINED_MACROS } from './preprocessor-predefined.js';
import {
  classifyWord, Greater, Hash, HashHash, Identifier, IntLiteral, lexGlsl, Less, LParen, Newline, RParen,
  StringLiteral, Comma, type GlslToken, type LexError,
} from './tokens.js';

/** Where #include reads files from. */
export interface SourceHost {
  readFile(path: string): string | undefined;
}

export interface PreprocessOptions {
  includeDirs?: string[];
  defines?: Record<string, string>;
  host?: SourceHost;
  /** glslc's `-std=`: the version `__VERSION__` and the result report, whatever `#version` says. */
  forcedVersion?: number;
  /** Tokens after preprocessing (and tokens produced by macro expansion) past which the shader is refused; default MAX_TOKENS. */
  maxTokens?: number;
}

export interface PreprocessResult {
  tokens: GlslToken[];
  sources: SourceFile[];
  diagnostics: Diagnostic[];
  /** From `#version`, 460 when absent. */
  version: number;
  extensions: { name: string; behavior: string; loc: Loc }[];
  /** Where each `#include` directive was (its '#'), in order. */
  includes: Loc[];
  /** The argument of the main file's first `#pragma shader_stage(<name>)` (glslc), with where it was. */
  pragmaStage?: { name: string; loc: Loc };
}

const MAX_INCLUDE_DEPTH = 64;
const BUILTIN_MACRO_NAMES = new Set(['defined', '__LINE__', '__FILE__', '__VERSION__']);

interface Conditional {
  directive: string;
  /** Where the #if/#ifdef/#ifndef was written (reported line). */
  at: PpToken;
  /** Whether the enclosing region is active. */
  parentActive: boolean;
  /** Some branch of this conditional has already been taken. */
  taken: boolean;
  active: boolean;
  sawElse: boolean;
}

/** A logical line: raw lexer tokens (no Newline) and the physical line its terminating newline is on. */
interface RawLine {
  tokens: IToken[];
  lastPhysicalLine: number;
}

interface LexedFile {
  lines: RawLine[];
  errors: LexError[];
  text: string;
}

function splitLines(tokens: IToken[], text: string): RawLine[] {
  const lines: RawLine[] = [];
  let cur: IToken[] = [];
  for (const t of tokens) {
    if (t.tokenType === Newline) {
      lines.push({ tokens: cur, lastPhysicalLine: t.startLine ?? 0 });
      cur = [];
    } else cur.push(t);
  }
  const lastLine = text.split(/\r\n|\r|\n/).length;
  if (cur.length > 0) lines.push({ tokens: cur, lastPhysicalLine: lastLine });
  return lines;
}

class Preprocessor implements ExpansionContext {
  readonly sources: SourceFile[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly macros = new Map<string, Macro>();
  readonly out: GlslToken[] = [];
  readonly extensions: PreprocessResult['extensions'] = [];
  readonly includes: Loc[] = [];
  private currentVersion = 460;
  pragmaStage: { name: string; loc: Loc } | undefined;
  private readonly pragmaOnce = new Set<string>();
  private readonly lexed = new Map<string, LexedFile>();
  private depth = 0;
  /** Tokens produced by macro expansion so far, against the token limit. */
  private expandedTokens = 0;
  private overTokenLimit = false;

  constructor(private readonly opts: PreprocessOptions) {}

  private get maxTokens(): number {
    return this.opts.maxTokens ?? MAX_TOKENS;
  }

  spendExpansion(tokens: number, invocation: PpToken): boolean {
    this.expandedTokens += tokens;
    if (this.expandedTokens <= this.maxTokens) return true;
    if (!this.overTokenLimit) {
      this.report(invocation, `macro expansion produces more than ${this.maxTokens} tokens: vvision's token limit for one shader after preprocessing`);
      this.overTokenLimit = true;
    }
    return false;
  }

  version(): number {
    return this.opts.forcedVersion ?? this.currentVersion;
  }

  report(at: PpToken | undefined, message: string, severity: 'error' | 'warning' = 'error'): void {
    const file = at === undefined ? 0 : at.file;
    this.diagnostics.push({
      severity, file: this.sources[file]?.path ?? '', line: at?.line ?? 0, column: at?.column ?? 0, message,
    });
  }

  sourceIndex(path: string, text: string): number {
    const i = this.sources.findIndex((s) => s.path === path);
    if (i >= 0) return i;
    // A UTF-8 byte-order mark is not part of the shader (editors do not count it as a column).
    this.sources.push({ path, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text });
    return this.sources.length - 1;
  }

  defineFromOption(name: string, value: string): void {
    const body = lexGlsl(value).tokens
      .filter((t) => t.tokenType !== Newline)
      .map((t): PpToken => ({ type: t.tokenType, image: t.image, file: 0, line: 0, column: 0 }));
    this.macros.set(name, { name, body, loc: { file: 0, line: 0 } });
  }

  private lex(path: string, text: string): LexedFile {
    let f = this.lexed.get(path);
    if (f === undefined) {
      const r = lexGlsl(text);
      f = { lines: splitLines(r.tokens, text), errors: r.errors, text };
      this.lexed.set(path, f);
    }
    return f;
  }

  /** Preprocesses one file, appending to `out`; `fileIndex` is its entry in `sources`. */
  processFile(fileIndex: number): void {
    const src = this.sources[fileIndex]!;
    const lexed = this.lex(src.path, src.text);
    for (const e of lexed.errors) this.diagnostics.push({ severity: 'error', file: src.path, line: e.line, column: e.column, message: e.message });
    let reportFile = fileIndex;
    let lineDelta = 0;
    const conds: Conditional[] = [];
    let pending: PpToken[] = [];
    const active = (): boolean => conds.length === 0 || conds[conds.length - 1]!.active;
    const flush = (): void => {
      if (pending.length === 0) return;
      this.emit(expandMacros(pending, this));
      pending = [];
    };
    const toPp = (t: IToken): PpToken => ({
      type: t.tokenType, image: t.image, file: reportFile, line: (t.startLine ?? 0) + lineDelta, column: t.startColumn ?? 0,
    });

    let linesBefore = 0; // non-blank lines seen, for "#version must come first"
    for (const line of lexed.lines) {
      const raw = line.tokens;
      if (raw.length === 0) continue;
      linesBefore++;
      if (raw[0]!.tokenType !== Hash) {
        if (active()) for (const t of raw) pending.push(toPp(t));
        continue;
      }
      flush();
      const toks = raw.map(toPp);
      const hash = toks[0]!;
      const name = toks[1];
      if (name === undefined) continue; // the null directive
      const args = toks.slice(2);
      const directive = name.image;
      switch (directive) {
        case 'if':
        case 'ifdef':
        case 'ifndef': {
          const parentActive = active();
          let value = false;
          if (parentActive) value = directive === 'if' ? this.evaluateCondition(args, hash) : this.testDefined(args, hash, directive);
          conds.push({ directive, at: hash, parentActive, taken: value, active: parentActive && value, sawElse: false });
          continue;
        }
        case 'elif': {
          const c = conds[conds.length - 1];
          if (c === undefined) { this.report(hash, '#elif without #if'); continue; }
          if (c.sawElse) this.report(hash, '#elif after #else');
          if (c.parentActive && !c.taken) {
            const value = this.evaluateCondition(args, hash);
            c.active = value;
            c.taken = value;
          } else c.active = false;
          continue;
        }
        case 'else': {
          const c = conds[conds.length - 1];
          if (c === undefined) { this.report(hash, '#else without #if'); continue; }
          if (c.sawElse) this.report(hash, '#else after #else');
          c.sawElse = true;
          c.active = c.parentActive && !c.taken;
          c.taken = true;
          continue;
        }
        case 'endif':
          if (conds.pop() === undefined) this.report(hash, '#endif without #if');
          continue;
      }
      if (!active()) continue;
      switch (directive) {
        case 'define': this.define(args, hash, raw.slice(2)); break;
        case 'undef':
          if (args[0]?.type !== Identifier) this.report(hash, '#undef expects a macro name');
          else if (BUILTIN_MACRO_NAMES.has(args[0].image)) this.report(args[0], `cannot undefine built-in macro ${args[0].image}`);
          else this.macros.delete(args[0].image);
          break;
        case 'include': this.include(args, hash, raw, lexed.text, src.path); break;
        case 'line': {
          const expanded = expandMacros(args, this);
          const n = expanded[0];
          if (n?.type !== IntLiteral || expanded.length > 2) { this.report(hash, '#line expects a line number and an optional file'); break; }
          // "#line N" numbers the NEXT line N.
          lineDelta = parseInt(n.image, 10) - (line.lastPhysicalLine + 1);
          const f = expanded[1];
          if (f?.type === StringLiteral) {
            const path = f.image.slice(1, -1);
            reportFile = this.sourceIndex(path, this.opts.host?.readFile(path) ?? '');
          }
          break;
        }
        case 'error': this.report(hash, `#error ${restOfLine(raw, 2, lexed.text)}`.trimEnd()); break;
        case 'pragma':
          if (args.length === 1 && args[0]!.image === 'once') this.pragmaOnce.add(src.path);
          else if (args[0]?.image === 'shader_stage' && fileIndex === 0 && this.pragmaStage === undefined) {
            if (args.length !== 4 || args[1]!.type !== LParen || args[2]!.type !== Identifier || args[3]!.type !== RParen) {
              this.report(hash, '#pragma shader_stage expects a stage name in parentheses, such as #pragma shader_stage(raygen)');
            } else this.pragmaStage = { name: args[2]!.image, loc: { file: args[2]!.file, line: args[2]!.line, column: args[2]!.column } };
          }
          break;
        case 'version': {
          const v = args[0];
          if (fileIndex !== 0 || this.depth > 0) this.report(hash, '#version is only allowed in the main shader file');
          else if (linesBefore > 1) this.report(hash, '#version must come before anything else in the shader (only comments and blank lines may precede it)');
          if (v?.type !== IntLiteral) this.report(hash, '#version expects a number');
          else this.currentVersion = parseInt(v.image, 10);
          break;
        }
        case 'extension': {
          const [ext, colon, behavior] = args;
          if (ext?.type !== Identifier || colon?.image !== ':' || behavior?.type !== Identifier) {
            this.report(hash, "#extension expects 'name : behavior'");
          } else if (!['enable', 'require', 'warn', 'disable'].includes(behavior.image)) {
            this.report(behavior, `unknown extension behavior '${behavior.image}' (expected enable, require, warn or disable)`);
          } else this.extensions.push({ name: ext.image, behavior: behavior.image, loc: { file: ext.file, line: ext.line, column: ext.column } });
          break;
        }
        default: this.report(name, `unknown preprocessor directive #${directive}`);
      }
    }
    flush();
    const lastLine = (lexed.lines[lexed.lines.length - 1]?.lastPhysicalLine ?? 1) + lineDelta;
    for (const c of conds) {
      this.report({ ...c.at, line: lastLine, column: 1 }, `unterminated #${c.directive} (opened at line ${c.at.line})`);
    }
  }

  private emit(toks: PpToken[]): void {
    for (const t of toks) {
      if (t.type === Newline) continue;
      if (t.type === Hash || t.type === HashHash) {
        this.report(t, `'${t.image}' is only allowed at the start of a line (a preprocessor directive) or in a macro body`);
        continue;
      }
      const n = this.out.length;
      if (n >= this.maxTokens) {
        if (!this.overTokenLimit) this.report(t, `the shader has more than ${this.maxTokens} tokens after preprocessing: vvision's token limit for one shader`);
        this.overTokenLimit = true;
        return;
      }
      const type = t.type === Identifier ? classifyWord(t.image) : t.type;
      const tok: GlslToken = {
        image: t.image, startOffset: n, endOffset: n, startLine: t.line, endLine: t.line,
        startColumn: t.column, endColumn: t.column + t.image.length - 1,
        tokenType: type, tokenTypeIdx: type.tokenTypeIdx!, file: t.file,
      };
      this.out.push(tok);
    }
  }

  private testDefined(args: PpToken[], hash: PpToken, directive: string): boolean {
    const n = args[0];
    if (n?.type !== Identifier) {
      this.report(hash, `#${directive} expects a macro name`);
      return false;
    }
    if (args.length > 1) this.report(args[1], `extra tokens after #${directive} ${n.image}`, 'warning');
    const defined = this.macros.has(n.image) || BUILTIN_MACRO_NAMES.has(n.image);
    return directive === 'ifdef' ? defined : !defined;
  }

  private evaluateCondition(args: PpToken[], hash: PpToken): boolean {
    // `defined X` / `defined(X)` are resolved before expansion so X itself is not expanded.
    const resolved: PpToken[] = [];
    for (let i = 0; i < args.length; i++) {
      const t = args[i]!;
      if (t.type !== Identifier || t.image !== 'defined') { resolved.push(t); continue; }
      const paren = args[i + 1]?.type === LParen;
      const n = args[i + (paren ? 2 : 1)];
      if (n?.type !== Identifier || (paren && args[i + 3]?.type !== RParen)) {
        this.report(t, "'defined' expects a macro name");
        return false;
      }
      const value = this.macros.has(n.image) || BUILTIN_MACRO_NAMES.has(n.image) ? '1' : '0';
      resolved.push({ ...t, type: IntLiteral, image: value });
      i += paren ? 3 : 1;
    }
    try {
      return evaluatePpExpression(expandMacros(resolved, this)) !== 0;
    } catch (e) {
      if (!(e instanceof PpExpressionError)) throw e;
      this.report(e.at ?? hash, e.message);
      return false;
    }
  }

  private define(args: PpToken[], hash: PpToken, raw: IToken[]): void {
    const name = args[0];
    if (name?.type !== Identifier) { this.report(hash, '#define expects a macro name'); return; }
    if (BUILTIN_MACRO_NAMES.has(name.image)) { this.report(name, `cannot redefine built-in macro ${name.image}`); return; }
    let params: string[] | undefined;
    let bodyStart = 1;
    // Function-like only when '(' touches the name: `#define F(x)` vs `#define F (x)`.
    if (args[1]?.type === LParen && raw[0]!.endOffset! + 1 === raw[1]!.startOffset) {
      params = [];
      let i = 2;
      for (;;) {
        const t = args[i];
        if (t?.type === RParen && params.length === 0) { i++; break; }
        if (t?.type !== Identifier) { this.report(t ?? name, `expected a parameter name in #define ${name.image}`); return; }
        if (params.includes(t.image)) { this.report(t, `duplicate macro parameter '${t.image}'`); return; }
        params.push(t.image);
        const sep = args[i + 1];
        i += 2;
        if (sep?.type === RParen) break;
        if (sep?.type !== Comma) { this.report(sep ?? t, `expected ',' or ')' in parameter list of #define ${name.image}`); return; }
      }
      bodyStart = i;
    }
    const body = args.slice(bodyStart);
    if (body[0]?.type === HashHash || (body.length > 0 && body[body.length - 1]!.type === HashHash)) {
      this.report(body[0]?.type === HashHash ? body[0] : body[body.length - 1], "'##' cannot appear at either end of a macro body");
      return;
    }
    if (params !== undefined) {
      for (let i = 0; i < body.length; i++) {
        if (body[i]!.type === Hash && !(body[i + 1]?.type === Identifier && params.includes(body[i + 1]!.image))) {
          this.report(body[i], "'#' is not followed by a macro parameter");
          return;
        }
      }
    }
    const old = this.macros.get(name.image);
    if (old !== undefined && !sameDefinition(old, params, body)) {
      const where = old.loc.line > 0 ? ` (previous definition at ${this.sources[old.loc.file]?.path}:${old.loc.line})` : '';
      this.report(name, `macro ${name.image} redefined differently${where}`);
    }
    this.macros.set(name.image, { name: name.image, params, body, loc: { file: name.file, line: name.line } });
  }

  private include(args: PpToken[], hash: PpToken, raw: IToken[], text: string, includer: string): void {
    let target: string;
    let angled = false;
    if (args[0]?.type === StringLiteral && args.length === 1) target = args[0].image.slice(1, -1);
    else if (args[0]?.type === Less && args[args.length - 1]?.type === Greater && args.length >= 3) {
      // Rebuild <a/b-c.glsl> from the source text: its pieces were lexed as operators and words.
      target = text.slice(raw[3]!.startOffset, raw[raw.length - 2]!.endOffset! + 1).trim();
      angled = true;
    } else { this.report(hash, '#include expects "file" or <file>'); return; }
    this.includes.push({ file: hash.file, line: hash.line, column: hash.column });
    const beside = posix.dirname(includer);
    const dirs = (this.opts.includeDirs ?? []);
    const searched = angled ? [...dirs, beside] : [beside, ...dirs];
    const host = this.opts.host;
    let found: { path: string; text: string } | undefined;
    for (const dir of searched) {
      const path = posix.normalize(posix.join(dir, target));
      const content = host?.readFile(path);
      if (content !== undefined) { found = { path, text: content }; break; }
    }
    if (found === undefined) {
      const list = searched.map((d) => (d.endsWith('/') ? d : `${d}/`)).join(', ');
      this.report(args[0], `cannot open include file "${target}" (searched: ${list})`);
      return;
    }
    if (this.pragmaOnce.has(found.path)) return;
    if (this.depth >= MAX_INCLUDE_DEPTH) { this.report(args[0], `#include nested too deeply (over ${MAX_INCLUDE_DEPTH} levels; recursive include?)`); return; }
    const index = this.sourceIndex(found.path, found.text);
    this.depth++;
    this.processFile(index);
    this.depth--;
  }
}

function sameDefinition(m: Macro, params: string[] | undefined, body: PpToken[]): boolean {
  if ((m.params === undefined) !== (params === undefined)) return false;
  if (m.params !== undefined && params !== undefined && m.params.join(',') !== params.join(',')) return false;
  return m.body.length === body.length && m.body.every((t, i) => t.image === body[i]!.image);
}

function restOfLine(raw: IToken[], from: number, text: string): string {
  const first = raw[from];
  if (first === undefined) return '';
  return text.slice(first.startOffset, raw[raw.length - 1]!.endOffset! + 1);
}

/**
 * Preprocesses `text` (the contents of `path`), following #include through `opts.host`.
 * Never throws for problems in the shader: they are in `diagnostics`.
 */
export function preprocess(path: string, text: string, opts: PreprocessOptions = {}): PreprocessResult {
  const pp = new Preprocessor(opts);
  pp.sourceIndex(path, text);
  for (const [name, value] of PREDEFINED_MACROS) pp.defineFromOption(name, value);
  for (const [name, value] of Object.entries(opts.defines ?? {})) pp.defineFromOption(name, value);
  pp.processFile(0);
  return { tokens: pp.out, sources: pp.sources, diagnostics: pp.diagnostics, version: pp.version(), extensions: pp.extensions, includes: pp.includes,
    ...(pp.pragmaStage ? { pragmaStage: pp.pragmaStage } : {}) };
}
