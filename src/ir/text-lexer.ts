/**
 * Tokens of the IR text form, one line at a time, and a cursor over a line's tokens with typed
 * readers (ids, words, numbers, strings) that raise `IrParseError` with line and column.
 *
 * The text form is line-oriented: every declaration, struct member, block label and instruction
 * is one line. Text after an unquoted `;` is the line's trailer: a loc (`[file:]line:col`) where
 * one is expected, otherwise a comment.
 */
import type { Loc } from './inst.js';

export class IrParseError extends Error {
  constructor(readonly detail: string, readonly line: number, readonly column: number) {
    super(`${line}:${column}: ${detail}`);
    this.name = 'IrParseError';
  }
}

export type TokKind = 'atom' | 'punct' | 'string' | 'fnString';
export interface Tok {
  kind: TokKind;
  text: string;
  col: number;
}
export interface Line {
  no: number;
  toks: Tok[];
  /** Text after an unquoted `;`, if any. */
  trailer?: string;
  trailerCol: number;
}

const ATOM = 0;
const SPACE = 1;
const PUNCT = 2;
const QUOTE = 3;
const SEMI = 4;
/** Character classes of ASCII; beyond ASCII, whitespace is SPACE and everything else ATOM. */
const ASCII_CLASS = new Uint8Array(128);
for (const c of ' \t\r\n\v\f') ASCII_CLASS[c.charCodeAt(0)] = SPACE;
for (const c of '(){}[]<>,:=') ASCII_CLASS[c.charCodeAt(0)] = PUNCT;
ASCII_CLASS['"'.charCodeAt(0)] = QUOTE;
ASCII_CLASS[';'.charCodeAt(0)] = SEMI;
const DASH = '-'.charCodeAt(0);
const GT = '>'.charCodeAt(0);
const AT = '@'.charCodeAt(0);
const QUOTE_CODE = '"'.charCodeAt(0);

function charClass(src: string, i: number): number {
  const code = src.charCodeAt(i);
  if (code < 128) return ASCII_CLASS[code]!;
  return /\s/.test(src[i]!) ? SPACE : ATOM;
}

/** Index just past the closing quote of the string starting at `start`. */
function stringEnd(src: string, start: number, no: number): number {
  let j = start + 1;
  while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
  if (j >= src.length) throw new IrParseError('unterminated string', no, start + 1);
  return j + 1;
}

function decodeString(raw: string, no: number, col: number): string {
  try {
    return JSON.parse(raw) as string;
  } catch {
    throw new IrParseError(`bad string literal ${raw}`, no, col);
  }
}

export function lexLine(src: string, no: number): Line {
  const toks: Tok[] = [];
  let i = 0;
  const line: Line = { no, toks, trailerCol: 0 };
  const n = src.length;
  while (i < n) {
    const cls = charClass(src, i);
    const code = src.charCodeAt(i);
    if (cls === SPACE) { i++; continue; }
    if (cls === SEMI) {
      line.trailer = src.slice(i + 1);
      line.trailerCol = i + 2;
      break;
    }
    if (cls === QUOTE) {
      const end = stringEnd(src, i, no);
      toks.push({ kind: 'string', text: decodeString(src.slice(i, end), no, i + 1), col: i + 1 });
      i = end;
      continue;
    }
    if (code === AT && src.charCodeAt(i + 1) === QUOTE_CODE) {
      const end = stringEnd(src, i + 1, no);
      toks.push({ kind: 'fnString', text: decodeString(src.slice(i + 1, end), no, i + 1), col: i + 1 });
      i = end;
      continue;
    }
    if (code === DASH && src.charCodeAt(i + 1) === GT) {
      toks.push({ kind: 'punct', text: '->', col: i + 1 });
      i += 2;
      continue;
    }
    if (cls === PUNCT) {
      toks.push({ kind: 'punct', text: src[i]!, col: i + 1 });
      i++;
      continue;
    }
    // An atom runs to the next non-atom character or an `->` (as in `fn(u32)->f32`).
    const start = i++;
    while (i < n && charClass(src, i) === ATOM && !(src.charCodeAt(i) === DASH && src.charCodeAt(i + 1) === GT)) i++;
    toks.push({ kind: 'atom', text: src.slice(start, i), col: start + 1 });
  }
  return line;
}

/** A trailer that starts with `[file:]line:col` is a loc. */
const LOC_RE = /^\s*(?:(\d+):)?(\d+):(\d+)(?!\S)/;

/** Token cursor over one line. */
export class LineReader {
  i = 0;
  constructor(readonly line: Line) {}
  fail(msg: string, tok?: Tok): never {
    const t = tok ?? this.line.toks[this.i];
    throw new IrParseError(msg, this.line.no, t ? t.col : (this.line.toks.at(-1)?.col ?? 1));
  }
  peek(k = 0): Tok | undefined {
    return this.line.toks[this.i + k];
  }
  done(): boolean {
    return this.i >= this.line.toks.length;
  }
  next(what: string): Tok {
    const t = this.line.toks[this.i];
    if (!t) this.fail(`expected ${what} at end of line`);
    this.i++;
    return t;
  }
  isPunct(p: string): boolean {
    const t = this.peek();
    return t !== undefined && t.kind === 'punct' && t.text === p;
  }
  isAtom(a: string): boolean {
    const t = this.peek();
    return t !== undefined && t.kind === 'atom' && t.text === a;
  }
  punct(p: string): void {
    const t = this.next(`'${p}'`);
    if (t.kind !== 'punct' || t.text !== p) this.fail(`expected '${p}', found '${t.text}'`, t);
  }
  atom(what: string): Tok {
    const t = this.next(what);
    if (t.kind !== 'atom') this.fail(`expected ${what}, found '${t.text}'`, t);
    return t;
  }
  keyword(k: string): void {
    const t = this.atom(`'${k}'`);
    if (t.text !== k) this.fail(`expected '${k}', found '${t.text}'`, t);
  }
  string(what: string): string {
    const t = this.next(what);
    if (t.kind !== 'string') this.fail(`expected ${what} (a quoted string), found '${t.text}'`, t);
    return t.text;
  }
  int(what: string): number {
    const t = this.atom(what);
    if (!/^-?\d+$/.test(t.text)) this.fail(`expected ${what} (an integer), found '${t.text}'`, t);
    return Number(t.text);
  }
  number(what: string): number {
    const t = this.atom(what);
    const n = Number(t.text);
    if (Number.isNaN(n) && t.text !== 'NaN') this.fail(`expected ${what} (a number), found '${t.text}'`, t);
    return n;
  }
  id(sigil: '%' | '^b' | '!', what: string): number {
    const t = this.atom(what);
    if (!t.text.startsWith(sigil) || !/^\d+$/.test(t.text.slice(sigil.length))) this.fail(`expected ${what} (${sigil}N), found '${t.text}'`, t);
    return Number(t.text.slice(sigil.length));
  }
  end(): void {
    const t = this.peek();
    if (t) this.fail(`unexpected '${t.text}'`, t);
  }
  loc(): Loc {
    const mt = this.line.trailer !== undefined ? LOC_RE.exec(this.line.trailer) : null;
    if (!mt) return { file: 0, line: 0, column: 0 };
    return { file: mt[1] ? Number(mt[1]) : 0, line: Number(mt[2]), column: Number(mt[3]) };
  }
}
