/**
 * The GLSL front end's entry point: preprocess, mark user type names, parse, build the AST.
 *
 * Contract with semantic analysis: `unit` is present exactly when there are no errors among
 * `diagnostics`; `Loc.file` everywhere in the AST indexes `sources`, whose first entry is the main
 * file and which holds every #included file (once) with its text. Nothing here throws for a
 * problem in the shader.
 */
import { readFileSync } from 'node:fs';
import type { CstNode, IRecognitionException, IToken } from 'chevrotain';
import { EOF, tokenMatcher } from './chevrotain.js';
import type { Loc } from '../../ir/inst.js';
import type { SourceFile } from '../../ir/module.js';
import type { TranslationUnit } from './ast.js';
import { astBuilder } from './ast-builder.js';
import { chunkDeepTokens, DEEP_MODE_DEPTH, nestingEstimate, type ChunkedTokens } from './deep-nesting.js';
import { hasErrors, TOO_DEEP_MESSAGE, type Diagnostic } from './diagnostics.js';
import { glslParser } from './parser.js';
import { describeToken, MISSING_NAME_PREFIX, MISSING_SEMICOLON_PREFIX } from './parser-messages.js';
import { preprocess, type SourceHost } from './preprocessor.js';
import {
  Dot, Identifier, LBracket, LCurly, LParen, RBracket, RCurly, RParen, Semicolon, StorageQualifier, Struct, TypeName, UserTypeName, type GlslToken,
} from './tokens.js';

export type { SourceHost } from './preprocessor.js';

/** Reads files with node:fs; `undefined` when a file is missing or unreadable. */
export const fsHost: SourceHost = {
  readFile(path: string): string | undefined {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
};

export interface ParseOptions {
  includeDirs?: string[];
  defines?: Record<string, string>;
  host?: SourceHost;
  /** glslc's `-std=`: overrides `#version`. */
  forcedVersion?: number;
  /** Tokens after preprocessing past which the shader is refused (token-limit.ts); default MAX_TOKENS. */
  maxTokens?: number;
  /** Parse in chunks whatever the nesting, cutting every `chunkDepth` brackets (deep-nesting.ts; for tests). */
  forceChunks?: { chunkDepth: number };
}

export interface ParseResult {
  unit: TranslationUnit | undefined;
  sources: SourceFile[];
  diagnostics: Diagnostic[];
  /** Where the `#include` directives were (`Loc.file` indexes `sources`). */
  includes?: Loc[];
  /** The main file's `#pragma shader_stage(<name>)` (glslc's stage selection), if any. */
  pragmaStage?: { name: string; loc: Loc };
}

/**
 * Names that become type names for the rest of the shader: `struct S` and the block name of a
 * `layout(buffer_reference) buffer B`. Retyping them before parsing resolves GLSL's
 * "identifier identifier" ambiguity with plain LL(k) lookahead.
 */
export function markUserTypeNames(tokens: GlslToken[]): void {
  const names = new Set<string>();
  let bufferReference = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    if (t.tokenType === Identifier && t.image === 'buffer_reference') bufferReference = true;
    else if (t.tokenType === Semicolon || t.tokenType === RCurly) bufferReference = false;
    else if (next?.tokenType === Identifier) {
      if (t.tokenType === Struct || (bufferReference && t.tokenType === StorageQualifier && t.image === 'buffer')) names.add(next.image);
    }
  }
  if (names.size === 0) return;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.tokenType === Identifier && names.has(t.image) && tokens[i - 1]?.tokenType !== Dot) {
      t.tokenType = UserTypeName;
      t.tokenTypeIdx = UserTypeName.tokenTypeIdx!;
    }
  }
}

function tokenLocation(t: IToken | undefined, tokens: readonly GlslToken[], after: boolean): { file: number; line: number; column: number } {
  if (t === undefined || t.tokenType === EOF || Number.isNaN(t.startLine)) {
    const last = tokens[tokens.length - 1];
    if (last === undefined) return { file: 0, line: 1, column: 1 };
    return { file: last.file, line: last.startLine!, column: last.startColumn! + last.image.length };
  }
  const g = t as GlslToken;
  return { file: g.file, line: g.startLine!, column: after ? g.startColumn! + g.image.length : g.startColumn! };
}

/**
 * A syntax error as a diagnostic. A missing ';' is reported where glslang reports it, at the
 * token found instead (so the two agree on the line), and the message says which token the ';'
 * belongs after when that is on an earlier line; a missing name at the token that stands where
 * the name should be.
 */
function syntaxDiagnostic(e: IRecognitionException, tokens: readonly GlslToken[], sources: SourceFile[]): Diagnostic {
  const prev = (e as IRecognitionException & { previousToken?: IToken }).previousToken;
  let at = tokenLocation(e.token, tokens, false);
  let message = e.message;
  if (e.name === 'MismatchedTokenException' && e.message.startsWith(MISSING_SEMICOLON_PREFIX) && prev !== undefined && !Number.isNaN(prev.startLine)) {
    const after = tokenLocation(prev, tokens, true);
    if (Number.isNaN(e.token.startLine) || e.token.tokenType === EOF) at = after;
    else if (after.line !== at.line || after.file !== at.file) message = `${e.message} (the ';' belongs after '${prev.image}' at line ${after.line})`;
  } else if (e.name === 'NoViableAltException' && e.message.startsWith(MISSING_SEMICOLON_PREFIX)) {
    // Raised at the declarator name whose ';' is missing; glslang reports the token after it.
    const after = tokenLocation(e.token, tokens, true);
    const next = Number.isNaN(e.token.startOffset) ? undefined : tokens[e.token.startOffset + 1];
    at = after;
    if (next && next.tokenType !== EOF && !Number.isNaN(next.startLine)) {
      at = tokenLocation(next, tokens, false);
      if (after.line !== at.line || after.file !== at.file) message = `${e.message} (the ';' belongs after '${e.token.image}' at line ${after.line})`;
    }
  } else if (e.message.startsWith(MISSING_NAME_PREFIX) && tokenMatcher(e.token, TypeName) && !Number.isNaN(e.token.startOffset)) {
    // Raised at the type itself (statement level): the name belongs where the next token is.
    at = tokenLocation(tokens[e.token.startOffset + 1], tokens, false);
  }
  return { severity: 'error', file: sources[at.file]?.path ?? '', line: at.line, column: at.column, message };
}

/**
 * Deepest nesting of '(', '[' and '{' the front end accepts; past it, the shader gets a located
 * error naming the limit. Below it, depth costs no JavaScript stack: deep shaders are parsed in
 * chunks (deep-nesting.ts), statements generated from an explicit stack and deep expressions
 * bottom-up. The limit matches glslang's own order of magnitude: its bison stack has 10,000
 * entries and stops near 1,400 nested `if` blocks; vvision compiles and runs 5,000.
 */
export const MAX_NESTING_DEPTH = 10000;

/** The first token that opens a bracket deeper than MAX_NESTING_DEPTH, if any. */
function tooDeeplyNested(tokens: readonly GlslToken[]): GlslToken | undefined {
  let depth = 0;
  for (const t of tokens) {
    if (t.tokenType === LParen || t.tokenType === LBracket || t.tokenType === LCurly) {
      if (++depth > MAX_NESTING_DEPTH) return t;
    } else if ((t.tokenType === RParen || t.tokenType === RBracket || t.tokenType === RCurly) && depth > 0) depth--;
  }
  return undefined;
}

/**
 * Runs the parser over the whole token vector. When it stops early at a token that cannot start a
 * file-scope declaration (a stray ')' say), it reports that token and parses on after it, so the
 * rest of the shader still gets checked. The CST is the first run's (only used when error-free).
 */
function parseTokens(tokens: GlslToken[], recovery = true): { cst: CstNode; errors: IRecognitionException[]; strayTokens: IToken[] } {
  const parser = glslParser as unknown as { recoveryEnabled: boolean };
  const before = parser.recoveryEnabled;
  parser.recoveryEnabled = recovery;
  try {
    return parseTokensWithRecovery(tokens);
  } finally {
    parser.recoveryEnabled = before;
  }
}

function parseTokensWithRecovery(tokens: GlslToken[]): { cst: CstNode; errors: IRecognitionException[]; strayTokens: IToken[] } {
  const cst = glslParser.parseTranslationUnit(tokens);
  const errors = [...glslParser.errors];
  const strayTokens = [...glslParser.strayTokens];
  let rest = tokens;
  for (let restarts = 0; restarts < 100; restarts++) {
    const stop = glslParser.errors.find((e) => e.name === 'NotAllInputParsedException');
    if (stop === undefined) break;
    rest = rest.slice(rest.indexOf(stop.token as GlslToken) + 1);
    if (rest.length === 0) break;
    glslParser.parseTranslationUnit(rest);
    errors.push(...glslParser.errors);
    strayTokens.push(...glslParser.strayTokens);
  }
  return { cst, errors, strayTokens };
}

/**
 * A syntax error found at a synthetic brace, parenthesis or hole of a chunked parse is reported at
 * the shader's own next token (and names that token), as a whole parse would report it.
 */
function unsynthesize(e: IRecognitionException, tokens: readonly GlslToken[], synthetic: WeakSet<IToken>): void {
  if (!synthetic.has(e.token)) return;
  let i = e.token.startOffset;
  while (i < tokens.length && synthetic.has(tokens[i]!)) i++;
  const real = tokens[i];
  if (real === undefined) return;
  e.message = e.message.replace(describeToken(e.token), describeToken(real));
  e.token = real;
}

/** A deeply nested shader, chunk by chunk (deep-nesting.ts); errors in token order. */
function parseChunks(chunked: ChunkedTokens): { parts: { cst: CstNode; hole?: IToken }[]; errors: IRecognitionException[]; strayTokens: IToken[] } {
  const unit = parseTokens(chunked.chunks[0]!.tokens);
  const parts: { cst: CstNode; hole?: IToken }[] = [{ cst: unit.cst }];
  const errors = unit.errors;
  for (let i = 1; i < chunked.chunks.length; i++) {
    const c = chunked.chunks[i]!;
    parts.push({ cst: glslParser.parseChunk(c.tokens, c.kind as 'expression' | 'arguments' | 'block'), hole: c.hole! });
    errors.push(...glslParser.errors);
  }
  const at = (e: IRecognitionException) => (Number.isNaN(e.token.startOffset) ? Infinity : e.token.startOffset);
  errors.sort((a, b) => at(a) - at(b));
  return { parts, errors, strayTokens: unit.strayTokens };
}

/** Parses `path` (reading it through the host unless `text` is given). `Loc.file` in the AST indexes `sources`; sources[0] is the main file; every #included file is appended with its text. */
export function parseGlsl(path: string, text?: string, opts: ParseOptions = {}): ParseResult {
  try {
    return parseOrThrow(path, text, opts);
  } catch (e) {
    // A bug of ours, not the shader's: still a diagnostic, so callers never see a stack trace.
    const message = `internal error in the GLSL front end: ${e instanceof Error ? e.message : String(e)}`;
    return { unit: undefined, sources: [{ path, text: text ?? '' }], diagnostics: [{ severity: 'error', file: path, line: 1, column: 1, message }] };
  }
}

function parseOrThrow(path: string, text: string | undefined, opts: ParseOptions): ParseResult {
  const host = opts.host ?? fsHost;
  const source = text ?? host.readFile(path);
  if (source === undefined) {
    return {
      unit: undefined,
      sources: [{ path, text: '' }],
      diagnostics: [{ severity: 'error', file: path, line: 0, column: 0, message: `cannot open file "${path}"` }],
    };
  }
  const pp = preprocess(path, source, { ...opts, host });
  const deep = hasErrors(pp.diagnostics) ? undefined : tooDeeplyNested(pp.tokens);
  if (deep !== undefined) {
    const at = tokenLocation(deep, pp.tokens, false);
    const message = `'${deep.image}' nests deeper than ${MAX_NESTING_DEPTH} levels of (, [ and {: vvision's nesting limit`;
    return { unit: undefined, sources: pp.sources, diagnostics: [{ severity: 'error', file: pp.sources[at.file]?.path ?? '', line: at.line, column: at.column, message }] };
  }
  markUserTypeNames(pp.tokens);
  const chunked = chunkDeepTokens(pp.tokens, opts.forceChunks);
  // Chunking adds synthetic tokens and renumbers offsets: from here on, offsets index `tokens`.
  const tokens = chunked?.tokens ?? pp.tokens;
  let parsed: ReturnType<typeof parseChunks>;
  try {
    if (chunked !== undefined) parsed = parseChunks(chunked);
    else {
      // Deep but not chunkable (its brackets do not match: it has a syntax error anyway): parsed
      // whole, without chevrotain's error recovery, whose re-synchronisation costs grow with the
      // rule stack's depth (a 323-deep unbalanced `if` nest took 5.6 s in a worker thread's 4 MB
      // stack, 44 ms on the CLI's 1 MB one, where the stack overflows first). The first error is
      // reported; the ones after it are not looked for.
      const whole = parseTokens(pp.tokens, nestingEstimate(pp.tokens) <= DEEP_MODE_DEPTH);
      parsed = { parts: [{ cst: whole.cst }], errors: whole.errors, strayTokens: whole.strayTokens };
    }
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    // The recursive parser ran out of stack in a construct chunking does not cut (a thousand
    // nested initializer lists, say): report where it was.
    const input = glslParser.input as GlslToken[];
    const index = (glslParser as unknown as { currIdx: number }).currIdx + 1;
    const at = tokenLocation(input[Math.min(Math.max(index, 0), input.length - 1)], tokens, false);
    return { unit: undefined, sources: pp.sources, diagnostics: [{ severity: 'error', file: pp.sources[at.file]?.path ?? '', line: at.line, column: at.column, message: TOO_DEEP_MESSAGE }] };
  }
  const { parts, errors, strayTokens } = parsed;
  if (chunked !== undefined) for (const e of errors) unsynthesize(e, tokens, chunked.synthetic);
  const diagnostics = [...pp.diagnostics];
  // After a syntax error, brace matching is unreliable: a closer left over then is a cascade, not news.
  const firstError = Math.min(...errors.map((e) => (Number.isNaN(e.token.startOffset) ? Infinity : e.token.startOffset)));
  for (const t of strayTokens) {
    if (t.startOffset >= firstError) continue;
    const at = tokenLocation(t, tokens, false);
    diagnostics.push({ severity: 'error', file: pp.sources[at.file]?.path ?? '', line: at.line, column: at.column, message: `unmatched ${describeToken(t)}` });
  }
  // Error recovery often reports one mistake several times at or next to the same token; the first
  // report says it best, the others are cascades.
  const keptAt: number[] = [];
  const keptLocations = new Set<string>();
  for (const e of errors) {
    const index = Number.isNaN(e.token.startOffset) ? tokens.length : e.token.startOffset;
    const d = syntaxDiagnostic(e, tokens, pp.sources);
    const key = `${d.file}:${d.line}:${d.column}`;
    if (keptLocations.has(key) || keptAt.some((k) => Math.abs(k - index) <= 2)) continue;
    keptLocations.add(key);
    keptAt.push(index);
    diagnostics.push(d);
  }
  if (hasErrors(diagnostics)) return { unit: undefined, sources: pp.sources, diagnostics };
  const unit = chunked === undefined
    ? astBuilder.build(parts[0]!.cst, tokens, pp.version, pp.extensions)
    : astBuilder.buildChunked(parts, tokens, chunked.synthetic, pp.version, pp.extensions);
  for (const p of astBuilder.diagnostics) {
    diagnostics.push({ severity: 'error', file: pp.sources[p.loc.file]?.path ?? '', line: p.loc.line, column: p.loc.column, message: p.message });
  }
  return {
    unit: hasErrors(diagnostics) ? undefined : unit, sources: pp.sources, diagnostics, includes: pp.includes,
    ...(pp.pragmaStage ? { pragmaStage: pp.pragmaStage } : {}),
  };
}
