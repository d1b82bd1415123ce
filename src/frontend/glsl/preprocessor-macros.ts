/**
 * Macro definitions and C-preprocessor macro expansion on tokens (Prosser's algorithm with hide
 * sets): object- and function-like macros, `#` stringification, `##` pasting, rescanning of the
 * result together with the rest of the input, and no recursive self-expansion.
 * Invariants: a token's hide set only grows while it is rescanned, so expansion terminates; every
 * token coming out of a macro body carries the location of the outermost invocation, while tokens
 * coming from an argument keep their own location (they are written in the source).
 */
import type { TokenType } from 'chevrotain';
import { Comma, Hash, HashHash, Identifier, IntLiteral, LParen, lexGlsl, RParen, StringLiteral } from './tokens.js';

/** A preprocessing token: lexer type (words are all `Identifier`), text and reported location. */
export interface PpToken {
  type: TokenType;
  image: string;
  /** Index into the preprocessor's `sources`. */
  file: number;
  line: number;
  column: number;
  /** Names of macros that must not expand this token again. */
  hide?: ReadonlySet<string>;
}

export interface Macro {
  name: string;
  /** `undefined` for an object-like macro. */
  params?: string[];
  body: PpToken[];
  /** Where `#define` named it, for redefinition messages. */
  loc: { file: number; line: number };
}

/** What expansion needs from the running preprocessor. */
export interface ExpansionContext {
  macros: ReadonlyMap<string, Macro>;
  version(): number;
  report(at: PpToken, message: string): void;
  /**
   * Counts `tokens` more produced by expanding `invocation` against the token limit
   * (token-limit.ts); false once past it (reported once), and the invocation is then left as it is.
   */
  spendExpansion(tokens: number, invocation: PpToken): boolean;
}

function withHide(t: PpToken, hide: ReadonlySet<string>, at?: PpToken): PpToken {
  const merged = t.hide === undefined || t.hide.size === 0 ? hide : new Set([...t.hide, ...hide]);
  return at === undefined
    ? { type: t.type, image: t.image, file: t.file, line: t.line, column: t.column, hide: merged }
    : { type: t.type, image: t.image, file: at.file, line: at.line, column: at.column, hide: merged };
}

function intersectHide(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): Set<string> {
  const r = new Set<string>();
  if (a === undefined || b === undefined) return r;
  for (const n of a) if (b.has(n)) r.add(n);
  return r;
}

/** Expands every macro in `input` (one logical stretch of text, newlines already removed). */
export function expandMacros(input: readonly PpToken[], ctx: ExpansionContext): PpToken[] {
  const out: PpToken[] = [];
  // A stack of pending tokens, next token last: expansions are pushed back and rescanned with what follows.
  const pending: PpToken[] = [];
  for (let i = input.length - 1; i >= 0; i--) pending.push(input[i]!);
  while (pending.length > 0) {
    const t = pending.pop()!;
    if (t.type !== Identifier || t.hide?.has(t.image)) {
      out.push(t);
      continue;
    }
    const special = expandBuiltinMacro(t, ctx);
    if (special !== undefined) {
      out.push(special);
      continue;
    }
    const m = ctx.macros.get(t.image);
    if (m === undefined) {
      out.push(t);
      continue;
    }
    if (m.params === undefined) {
      const hide = new Set(t.hide ?? []);
      hide.add(m.name);
      if (!ctx.spendExpansion(m.body.length, t)) {
        out.push(t);
        continue;
      }
      const body = substitute(m, [], hide, t, ctx);
      for (let i = body.length - 1; i >= 0; i--) pending.push(body[i]!);
      continue;
    }
    // A function-like macro name not followed by '(' is an ordinary identifier.
    if (pending.length === 0 || pending[pending.length - 1]!.type !== LParen) {
      out.push(t);
      continue;
    }
    const collected = collectArguments(pending);
    if (collected === undefined) {
      ctx.report(t, `unterminated argument list invoking macro ${m.name}`);
      out.push(t);
      continue;
    }
    const { args, close, taken } = collected;
    const wanted = m.params.length;
    const got = wanted === 0 && args.length === 1 && args[0]!.length === 0 ? 0 : args.length;
    if (got !== wanted) {
      // Leave the invocation unexpanded so the parser does not add errors of its own about it.
      ctx.report(t, `macro ${m.name} expects ${wanted} argument${wanted === 1 ? '' : 's'}, got ${got}`);
      out.push(t);
      continue;
    }
    pending.length -= taken;
    const hide = intersectHide(t.hide, close.hide);
    hide.add(m.name);
    if (!ctx.spendExpansion(m.body.length + taken, t)) {
      out.push(t);
      continue;
    }
    const body = substitute(m, wanted === 0 ? [] : args, hide, t, ctx);
    if (!ctx.spendExpansion(body.length, t)) {
      out.push(t);
      continue;
    }
    for (let i = body.length - 1; i >= 0; i--) pending.push(body[i]!);
  }
  return out;
}

function expandBuiltinMacro(t: PpToken, ctx: ExpansionContext): PpToken | undefined {
  let value: number;
  switch (t.image) {
    case '__LINE__': value = t.line; break;
    case '__FILE__': value = t.file; break;
    case '__VERSION__': value = ctx.version(); break;
    default: return undefined;
  }
  return { type: IntLiteral, image: String(value), file: t.file, line: t.line, column: t.column };
}

/**
 * Reads `( a, b )` from the top of the pending stack without consuming it; commas inside nested
 * parentheses do not split. `taken` is how many stack entries the invocation's arguments occupy.
 */
function collectArguments(pending: readonly PpToken[]): { args: PpToken[][]; close: PpToken; taken: number } | undefined {
  const args: PpToken[][] = [[]];
  let depth = 0;
  for (let i = pending.length - 2; i >= 0; i--) {
    const t = pending[i]!;
    if (t.type === LParen) depth++;
    else if (t.type === RParen) {
      if (depth === 0) return { args, close: t, taken: pending.length - i };
      depth--;
    } else if (t.type === Comma && depth === 0) {
      args.push([]);
      continue;
    }
    args[args.length - 1]!.push(t);
  }
  return undefined;
}

/** Replaces parameters in the body (`#`, `##`, expanded arguments) and adds the hide set. */
function substitute(m: Macro, args: PpToken[][], hide: ReadonlySet<string>, at: PpToken, ctx: ExpansionContext): PpToken[] {
  const params = m.params ?? [];
  const paramIndex = (t: PpToken | undefined): number => (t !== undefined && t.type === Identifier ? params.indexOf(t.image) : -1);
  const body = m.body;
  // Each entry remembers whether it came from an argument (keeps its own location).
  const result: { tok: PpToken; fromArg: boolean }[] = [];
  const pasteOnto = (right: PpToken[], fromArg: boolean): void => {
    if (right.length === 0) return;
    const left = result.pop();
    if (left === undefined) {
      for (const r of right) result.push({ tok: r, fromArg });
      return;
    }
    const first = right[0]!;
    const text = left.tok.image + first.image;
    const relexed = lexGlsl(text);
    if (relexed.errors.length === 0 && relexed.tokens.length === 1) {
      result.push({ tok: { type: relexed.tokens[0]!.tokenType, image: text, file: at.file, line: at.line, column: at.column }, fromArg: false });
    } else {
      ctx.report(at, `pasting "${left.tok.image}" and "${first.image}" does not give a valid token`);
      result.push(left, { tok: first, fromArg });
    }
    for (const r of right.slice(1)) result.push({ tok: r, fromArg });
  };
  for (let i = 0; i < body.length; i++) {
    const t = body[i]!;
    const next = body[i + 1];
    if (t.type === Hash && params.length > 0 && paramIndex(next) >= 0) {
      const arg = args[paramIndex(next)] ?? [];
      const text = `"${arg.map((a) => a.image).join(' ').replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
      result.push({ tok: { type: StringLiteral, image: text, file: at.file, line: at.line, column: at.column }, fromArg: false });
      i++;
      continue;
    }
    if (t.type === HashHash && next !== undefined) {
      const j = paramIndex(next);
      pasteOnto(j >= 0 ? args[j] ?? [] : [next], j >= 0);
      i++;
      continue;
    }
    const j = paramIndex(t);
    if (j >= 0) {
      const arg = args[j] ?? [];
      // An operand of ## is inserted unexpanded; anything else is fully expanded first.
      const raw = next?.type === HashHash;
      const toks = raw ? arg : expandMacros(arg, ctx);
      for (const a of toks) result.push({ tok: a, fromArg: true });
      continue;
    }
    result.push({ tok: t, fromArg: false });
  }
  return result.map((r) => withHide(r.tok, hide, r.fromArg ? undefined : at));
}
