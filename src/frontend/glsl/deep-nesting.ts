/**
 * Deeply nested shaders (issue 14) without a deep parser stack. The chevrotain parser is recursive
 * descent: every nesting level of the shader (a bracket, an unbraced `if` body, an `else if`, a
 * `?:` arm, a right-hand `=`) costs a handful of JavaScript frames. A shader nested deeper than
 * DEEP_MODE_DEPTH levels is therefore parsed in pieces:
 *
 * 1. `braceBodies`: every unbraced body of `if`, `else`, `for`, `while` and `do`, and every
 *    control statement in a `switch`, gets synthetic braces, so statement nesting (else-if chains,
 *    `if (a) if (b) ...`, `case 0: switch ...`) becomes nesting of cuttable blocks.
 * 2. `parenthesizeChains`: every `?:` arm and every right-hand side of an assignment operator gets
 *    synthetic parentheses, so expression chains become bracket nesting too.
 * 3. `cutChunks`: each statement block, parenthesised expression, index or call argument list that
 *    opens CHUNK_DEPTH brackets below its chunk's start becomes a chunk of its own, replaced in the
 *    enclosing chunk by one hole token (`( hole )`, `[ hole ]`, `f( hole )`, `{ hole ; }`).
 *
 * Each chunk is then parsed on its own (bounded stack) and the AST builder splices the chunks'
 * trees into their holes, innermost first; synthetic braces around a single statement and
 * synthetic parentheses leave no trace in the AST, so a deep shader's AST is the one a parser with
 * an unbounded stack would build. All of this is a loop over the token vector with explicit
 * stacks. Shaders nested less deeply (all hand-written ones) skip it: `nestingEstimate` is one
 * cheap pass.
 */
import type { TokenType } from 'chevrotain';
import { tokenMatcher } from './chevrotain.js';
import {
  AssignOperator, Assign, Case, Colon, Comma, Default, Do, Else, For, Identifier, If, Layout, LBracket, LCurly, LParen, NonUniform,
  Question, RBracket, RCurly, RParen, Semicolon, Switch, TypeName, While, type GlslToken,
} from './tokens.js';

/** Nesting (brackets plus statement and expression chains, estimated) past which a shader is parsed in chunks. */
export const DEEP_MODE_DEPTH = 40;
/** Brackets a chunk may open below its start before its next cuttable bracket becomes a chunk. */
export const CHUNK_DEPTH = 32;

/** What a chunk's tokens are parsed as: the unit, the inside of `( )` or `[ ]`, call arguments, or a `{ }` block (braces included). */
export type ChunkKind = 'unit' | 'expression' | 'arguments' | 'block';

export interface Chunk {
  kind: ChunkKind;
  tokens: GlslToken[];
  /** The token standing for this chunk in its parent chunk (absent for the unit). */
  hole?: GlslToken;
}

export interface ChunkedTokens {
  /** The whole token vector with synthetic braces and parentheses; every token's startOffset is its index here. */
  tokens: GlslToken[];
  /** Chunks, each after its parent: chunks[0] is the unit. */
  chunks: Chunk[];
  /** The synthetic brace and parenthesis tokens (the AST builder leaves no trace of them). */
  synthetic: WeakSet<GlslToken>;
}

function isOpener(t: GlslToken): boolean {
  return t.tokenType === LParen || t.tokenType === LBracket || t.tokenType === LCurly;
}
function isCloser(t: GlslToken): boolean {
  return t.tokenType === RParen || t.tokenType === RBracket || t.tokenType === RCurly;
}
function isControl(t: TokenType): boolean {
  return t === If || t === Else || t === For || t === While || t === Do;
}

/**
 * Over-estimates the parser's nesting: brackets, plus per bracket level the control keywords and
 * `?` / assignment operators of a statement chain (reset where a statement ends and no `else`
 * follows). One pass, no allocation but a small stack.
 */
export function nestingEstimate(tokens: readonly GlslToken[]): number {
  let chain = 0;
  let base = 0;
  let max = 0;
  const saved: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const type = t.tokenType;
    if (type === LParen || type === LBracket || type === LCurly) {
      saved.push(chain, base);
      base += chain + 1;
      chain = 0;
      if (base > max) max = base;
    } else if (type === RParen || type === RBracket || type === RCurly) {
      if (saved.length > 0) {
        base = saved.pop()!;
        chain = saved.pop()!;
      }
      if (type === RCurly && tokens[i + 1]?.tokenType !== Else) chain = 0;
    } else if (type === Semicolon) {
      if (tokens[i + 1]?.tokenType !== Else) chain = 0;
    } else if (isControl(type) || type === Question || tokenMatcher(t, AssignOperator)) {
      chain++;
      if (base + chain > max) max = base + chain;
    }
  }
  return max;
}

/** The index of each bracket's partner (-1 for other tokens); undefined when brackets do not match. */
function matchBrackets(tokens: readonly GlslToken[]): Int32Array | undefined {
  const match = new Int32Array(tokens.length).fill(-1);
  const open: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (isOpener(t)) open.push(i);
    else if (isCloser(t)) {
      const o = open.pop();
      if (o === undefined) return undefined;
      const expected = tokens[o]!.tokenType === LParen ? RParen : tokens[o]!.tokenType === LBracket ? RBracket : RCurly;
      if (t.tokenType !== expected) return undefined;
      match[o] = i;
      match[i] = o;
    }
  }
  return open.length === 0 ? match : undefined;
}

function synthesize(type: TokenType, image: string, at: GlslToken, synthetic: WeakSet<GlslToken>): GlslToken {
  const t: GlslToken = {
    image, startOffset: at.startOffset, endOffset: at.startOffset, startLine: at.startLine, endLine: at.startLine,
    startColumn: at.startColumn, endColumn: at.startColumn, tokenType: type, tokenTypeIdx: type.tokenTypeIdx!, file: at.file,
  };
  synthetic.add(t);
  return t;
}

type Pending =
  | { k: 'block'; end: number; switchBody: boolean }
  | { k: 'close' }
  | { k: 'else' }
  | { k: 'doTail' };

/**
 * Step 1: synthetic braces around every unbraced body of a control statement, walking function
 * bodies with an explicit stack of what each statement is the end of. Undefined when the token
 * vector is not well-formed enough to walk (the parser then reports what is wrong).
 */
function braceBodies(tokens: readonly GlslToken[], match: Int32Array, synthetic: WeakSet<GlslToken>): GlslToken[] | undefined {
  const out: GlslToken[] = [];
  const n = tokens.length;
  const copyGroup = (i: number): number => {
    const end = match[i]!;
    for (let j = i; j <= end; j++) out.push(tokens[j]!);
    return end + 1;
  };
  let i = 0;
  while (i < n) {
    const t = tokens[i]!;
    if (t.tokenType === LCurly && tokens[i - 1]?.tokenType === RParen) {
      // A function body: walk its statements.
      const stack: Pending[] = [{ k: 'block', end: match[i]!, switchBody: false }];
      // Starts the body of a control statement at i: a block as is, anything else in synthetic braces.
      const openBody = (): boolean => {
        const b = tokens[i];
        if (b === undefined) return false;
        if (b.tokenType !== LCurly) {
          out.push(synthesize(LCurly, '{', b, synthetic));
          stack.push({ k: 'close' });
        }
        return true;
      };
      out.push(t);
      i++;
      let done = false; // did a statement just end (true) or does one start at i (false)?
      while (stack.length > 0) {
        const top = stack[stack.length - 1]!;
        if (done) {
          if (top.k === 'block') done = false;
          else if (top.k === 'close') {
            out.push(synthesize(RCurly, '}', out[out.length - 1]!, synthetic));
            stack.pop();
          } else if (top.k === 'else') {
            stack.pop();
            if (tokens[i]?.tokenType === Else) {
              out.push(tokens[i++]!);
              if (!openBody()) return undefined;
              done = false;
            }
          } else {
            stack.pop();
            // do S while (e);
            if (tokens[i]?.tokenType !== While || tokens[i + 1]?.tokenType !== LParen) return undefined;
            out.push(tokens[i]!);
            i = copyGroup(i + 1);
            if (tokens[i]?.tokenType !== Semicolon) return undefined;
            out.push(tokens[i++]!);
          }
          continue;
        }
        if (i >= n) return undefined;
        const s = tokens[i]!;
        if (top.k === 'block' && i === top.end) {
          out.push(s);
          i++;
          stack.pop();
          done = true;
          continue;
        }
        const type = s.tokenType;
        if (top.k === 'block' && top.switchBody && (type === Case || type === Default)) {
          // A label: up to its ':' (a `?:` inside a case value keeps its own ':').
          let questions = 0;
          for (;;) {
            const u = tokens[i];
            if (u === undefined || i >= top.end) return undefined;
            if (isOpener(u)) {
              i = copyGroup(i);
              continue;
            }
            out.push(u);
            i++;
            if (u.tokenType === Question) questions++;
            else if (u.tokenType === Colon && questions-- === 0) break;
          }
          continue;
        }
        if (top.k === 'block' && top.switchBody
          && (type === If || type === For || type === While || type === Do || type === Switch || (type === LBracket && tokens[i + 1]?.tokenType === LBracket))) {
          // A control statement in a switch gets braces too: a switch body is never cut, a block is.
          out.push(synthesize(LCurly, '{', s, synthetic));
          stack.push({ k: 'close' });
          continue;
        }
        if (type === LBracket && tokens[i + 1]?.tokenType === LBracket) {
          i = copyGroup(i); // [[attributes]] before a control statement
          continue;
        }
        if (type === LCurly) {
          out.push(s);
          stack.push({ k: 'block', end: match[i]!, switchBody: false });
          i++;
        } else if (type === If || type === For || type === While) {
          out.push(s);
          if (tokens[i + 1]?.tokenType !== LParen) return undefined;
          i = copyGroup(i + 1);
          if (type === If) stack.push({ k: 'else' });
          if (!openBody()) return undefined;
        } else if (type === Do) {
          out.push(s);
          i++;
          stack.push({ k: 'doTail' });
          if (!openBody()) return undefined;
        } else if (type === Switch) {
          out.push(s);
          if (tokens[i + 1]?.tokenType !== LParen) return undefined;
          i = copyGroup(i + 1);
          if (tokens[i]?.tokenType !== LCurly) return undefined;
          out.push(tokens[i]!);
          stack.push({ k: 'block', end: match[i]!, switchBody: true });
          i++;
        } else if (type === Else || type === RCurly) {
          return undefined;
        } else {
          // A simple statement: up to its ';' outside brackets.
          for (;;) {
            const u = tokens[i];
            if (u === undefined || u.tokenType === RCurly) return undefined;
            if (isOpener(u)) {
              i = copyGroup(i);
              continue;
            }
            out.push(u);
            i++;
            if (u.tokenType === Semicolon) break;
          }
          done = true;
        }
      }
      continue;
    }
    if (isOpener(t)) i = copyGroup(i);
    else {
      out.push(t);
      i++;
    }
  }
  return out;
}

interface ExprFrame {
  synthetic: boolean;
  /** Opened after '?': ends at its ':' and is not ended by ','. */
  middle: boolean;
  /** '?' seen in this frame whose ':' is still to come. */
  questions: number;
}

/** Step 2: synthetic parentheses around each `?:` arm and each right-hand side of an assignment operator. */
function parenthesizeChains(tokens: readonly GlslToken[], synthetic: WeakSet<GlslToken>): GlslToken[] {
  const out: GlslToken[] = [];
  const frames: ExprFrame[] = [{ synthetic: false, middle: false, questions: 0 }];
  const open = (at: GlslToken, middle: boolean) => {
    out.push(synthesize(LParen, '(', at, synthetic));
    frames.push({ synthetic: true, middle, questions: 0 });
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const type = t.tokenType;
    for (;;) {
      const top = frames[frames.length - 1]!;
      if (!top.synthetic) break;
      const ends = type === Semicolon || isCloser(t) || (type === Comma && !top.middle) || (type === Colon && top.questions === 0);
      if (!ends) break;
      out.push(synthesize(RParen, ')', out[out.length - 1]!, synthetic));
      frames.pop();
    }
    const top = frames[frames.length - 1]!;
    out.push(t);
    const next = tokens[i + 1];
    if (next === undefined) continue;
    if (isOpener(t)) frames.push({ synthetic: false, middle: false, questions: 0 });
    else if (isCloser(t)) {
      if (frames.length > 1) frames.pop();
    } else if (type === Question) {
      top.questions++;
      open(next, true);
    } else if (type === Colon && top.questions > 0) {
      top.questions--;
      open(next, false);
    } else if (tokenMatcher(t, AssignOperator) && next.tokenType !== LCurly) {
      open(next, false);
    }
  }
  while (frames.length > 1) {
    if (frames.pop()!.synthetic) out.push(synthesize(RParen, ')', out[out.length - 1]!, synthetic));
  }
  return out;
}

type FrameKind = 'block' | 'switch' | 'init' | 'expression' | 'arguments' | 'other';

/** Step 3: cut the vector into chunks no deeper than CHUNK_DEPTH brackets each (plus the uncuttable ones). */
function cutChunks(tokens: GlslToken[], match: Int32Array, synthetic: WeakSet<GlslToken>, chunkDepth: number): Chunk[] {
  const chunks: Chunk[] = [{ kind: 'unit', tokens: [] }];
  const depth: number[] = [0];
  const frames: { kind: FrameKind; parent: number; afterSwitch: boolean }[] = [];
  let cur = 0;
  let closedParenAfterSwitch = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const type = t.tokenType;
    if (isOpener(t)) {
      const prev = tokens[i - 1]?.tokenType;
      const enclosing = frames[frames.length - 1]?.kind;
      let kind: FrameKind = 'other';
      if (type === LCurly) {
        if (enclosing === 'init' || prev === Assign) kind = 'init';
        else if (prev === RParen) kind = closedParenAfterSwitch ? 'switch' : 'block';
        else if ((enclosing === 'block' || enclosing === 'switch')
          && (prev === Semicolon || prev === RCurly || prev === LCurly || prev === Else || prev === Do || prev === Colon)) kind = 'block';
      } else if (type === LParen) {
        // A call, a constructor, or an array constructor (`float[2](...)`: the only '(' after ']').
        if (prev === Identifier || prev === NonUniform || prev === RBracket || (prev !== undefined && tokenMatcher(tokens[i - 1]!, TypeName))) kind = 'arguments';
        else if (prev !== For && prev !== Layout) kind = 'expression';
      } else if (prev !== LBracket && tokens[i + 1]?.tokenType !== LBracket) kind = 'expression';
      const cuttable = kind === 'block' || kind === 'expression' || kind === 'arguments';
      if (cuttable && depth[cur]! >= chunkDepth && match[i] !== i + 1) {
        const parent = chunks[cur]!;
        const first = tokens[i + 1]!;
        const hole = synthesize(Identifier, kind === 'block' ? '{...}' : kind === 'arguments' ? '(...)' : `${t.image}...${tokens[match[i]!]!.image}`, first, synthetic);
        parent.tokens.push(t, hole);
        if (kind === 'block') parent.tokens.push(synthesize(Semicolon, ';', first, synthetic));
        chunks.push({ kind: kind as ChunkKind, tokens: kind === 'block' ? [t] : [], hole });
        frames.push({ kind, parent: cur, afterSwitch: type === LParen && prev === Switch });
        cur = chunks.length - 1;
        depth.push(0);
      } else {
        chunks[cur]!.tokens.push(t);
        depth[cur]!++;
        frames.push({ kind, parent: -1, afterSwitch: type === LParen && prev === Switch });
      }
    } else if (isCloser(t)) {
      const f = frames.pop()!;
      closedParenAfterSwitch = f.afterSwitch;
      if (f.parent >= 0) {
        if (f.kind === 'block') chunks[cur]!.tokens.push(t);
        cur = f.parent;
        chunks[cur]!.tokens.push(t);
      } else {
        chunks[cur]!.tokens.push(t);
        depth[cur]!--;
      }
    } else chunks[cur]!.tokens.push(t);
  }
  return chunks;
}

/**
 * The chunks to parse a deeply nested shader in, or undefined when it is shallow enough to parse
 * whole (or too malformed to split: its brackets do not match or a statement has no end; the
 * parser then reports the mistake). `forced` chunks any shader, cutting every `chunkDepth`
 * brackets (tests: a chunked parse must build the same AST as a whole one).
 */
export function chunkDeepTokens(tokens: GlslToken[], forced?: { chunkDepth: number }): ChunkedTokens | undefined {
  if (forced === undefined && nestingEstimate(tokens) <= DEEP_MODE_DEPTH) return undefined;
  const synthetic = new WeakSet<GlslToken>();
  const firstMatch = matchBrackets(tokens);
  if (firstMatch === undefined) return undefined;
  const braced = braceBodies(tokens, firstMatch, synthetic);
  if (braced === undefined) return undefined;
  const all = parenthesizeChains(braced, synthetic);
  for (let i = 0; i < all.length; i++) all[i]!.startOffset = i;
  const match = matchBrackets(all);
  if (match === undefined) return undefined;
  const chunks = cutChunks(all, match, synthetic, forced?.chunkDepth ?? CHUNK_DEPTH);
  return { tokens: all, chunks, synthetic };
}
