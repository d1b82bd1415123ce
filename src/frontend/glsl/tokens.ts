/**
 * GLSL token types and the lexer, shared by the preprocessor and the parser.
 *
 * The lexer only produces preprocessing tokens: every word is an `Identifier`, so macro names
 * may shadow keywords exactly as in a C preprocessor. After macro expansion `classifyWord` turns
 * words into keyword / type-name tokens for the parser. Newlines are real tokens (directives are
 * line based); comments and `\`-newline continuations are skipped and so join logical lines.
 * Invariant: every token type the parser consumes is in `allTokenTypes`, and keyword types
 * (pattern `Lexer.NA`) are never produced by the lexer itself.
 */
import type { IToken, TokenType } from 'chevrotain';
import { createToken, Lexer } from './chevrotain.js';

// ---------------------------------------------------------------- categories (never lexed)

/** Any type name: built-in type keyword or a user type (struct / buffer_reference block). */
export const TypeName = createToken({ name: 'TypeName', pattern: Lexer.NA, label: 'type name' });
export const AssignOperator = createToken({ name: 'AssignOperator', pattern: Lexer.NA, label: 'assignment operator' });
/** Binary operators of every precedence level; the AST builder applies GLSL precedence. */
export const BinaryOperatorToken = createToken({ name: 'BinaryOperatorToken', pattern: Lexer.NA, label: 'binary operator' });
export const PrefixOperator = createToken({ name: 'PrefixOperator', pattern: Lexer.NA, label: 'unary operator' });

// ---------------------------------------------------------------- skipped and structural

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\f\v]+/, group: Lexer.SKIPPED });
export const LineContinuation = createToken({ name: 'LineContinuation', pattern: /\\\r?\n/, group: Lexer.SKIPPED, line_breaks: true });
export const LineComment = createToken({ name: 'LineComment', pattern: /\/\/[^\n\r]*/, group: Lexer.SKIPPED });
export const BlockComment = createToken({ name: 'BlockComment', pattern: /\/\*[\s\S]*?\*\//, group: Lexer.SKIPPED, line_breaks: true });
/** Matched only when BlockComment could not match: a comment opened and never closed before the end of the file. */
export const UnterminatedComment = createToken({ name: 'UnterminatedComment', pattern: /\/\*[\s\S]*/, line_breaks: true });
export const Newline = createToken({ name: 'Newline', pattern: /\r?\n|\r/, line_breaks: true, label: 'end of line' });

// ---------------------------------------------------------------- words and literals

export const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_][A-Za-z0-9_]*/, label: 'identifier' });
/** A user-declared type name (struct or buffer_reference block); set by the parse driver, never lexed. */
export const UserTypeName = createToken({ name: 'UserTypeName', pattern: Lexer.NA, categories: [TypeName], label: 'type name' });
export const BuiltinType = createToken({ name: 'BuiltinType', pattern: Lexer.NA, categories: [TypeName], label: 'type name' });

export const FloatLiteral = createToken({
  name: 'FloatLiteral',
  pattern: /(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?(?:lf|LF|hf|HF|f|F)?|\d+[eE][+-]?\d+(?:lf|LF|hf|HF|f|F)?/,
  label: 'floating-point literal',
});
export const IntLiteral = createToken({
  name: 'IntLiteral',
  pattern: /0[xX][0-9a-fA-F]+(?:ul|UL|us|US|u|U|l|L|s|S)?|\d+(?:ul|UL|us|US|u|U|l|L|s|S)?/,
  label: 'integer literal',
});
/** `#include "x"` names and debugPrintfEXT format strings; escapes are kept as written. */
export const StringLiteral = createToken({ name: 'StringLiteral', pattern: /"(?:[^"\\\n\r]|\\.)*"/, label: 'string' });

// ---------------------------------------------------------------- punctuators (longest first)

function op(name: string, pattern: RegExp, label: string, categories: TokenType[] = []): TokenType {
  return createToken({ name, pattern, label: `'${label}'`, categories });
}
export const ShiftLeftAssign = op('ShiftLeftAssign', /<<=/, '<<=', [AssignOperator]);
export const ShiftRightAssign = op('ShiftRightAssign', />>=/, '>>=', [AssignOperator]);
export const PlusPlus = op('PlusPlus', /\+\+/, '++', [PrefixOperator]);
export const MinusMinus = op('MinusMinus', /--/, '--', [PrefixOperator]);
export const ShiftLeft = op('ShiftLeft', /<</, '<<', [BinaryOperatorToken]);
export const ShiftRight = op('ShiftRight', />>/, '>>', [BinaryOperatorToken]);
export const LessEqual = op('LessEqual', /<=/, '<=', [BinaryOperatorToken]);
export const GreaterEqual = op('GreaterEqual', />=/, '>=', [BinaryOperatorToken]);
export const EqualEqual = op('EqualEqual', /==/, '==', [BinaryOperatorToken]);
export const NotEqual = op('NotEqual', /!=/, '!=', [BinaryOperatorToken]);
export const AndAnd = op('AndAnd', /&&/, '&&', [BinaryOperatorToken]);
export const OrOr = op('OrOr', /\|\|/, '||', [BinaryOperatorToken]);
export const XorXor = op('XorXor', /\^\^/, '^^', [BinaryOperatorToken]);
export const PlusAssign = op('PlusAssign', /\+=/, '+=', [AssignOperator]);
export const MinusAssign = op('MinusAssign', /-=/, '-=', [AssignOperator]);
export const StarAssign = op('StarAssign', /\*=/, '*=', [AssignOperator]);
export const SlashAssign = op('SlashAssign', /\/=/, '/=', [AssignOperator]);
export const PercentAssign = op('PercentAssign', /%=/, '%=', [AssignOperator]);
export const AmpAssign = op('AmpAssign', /&=/, '&=', [AssignOperator]);
export const PipeAssign = op('PipeAssign', /\|=/, '|=', [AssignOperator]);
export const CaretAssign = op('CaretAssign', /\^=/, '^=', [AssignOperator]);
export const HashHash = op('HashHash', /##/, '##');
export const Hash = op('Hash', /#/, '#');
export const LParen = op('LParen', /\(/, '(');
export const RParen = op('RParen', /\)/, ')');
export const LBracket = op('LBracket', /\[/, '[');
export const RBracket = op('RBracket', /\]/, ']');
export const LCurly = op('LCurly', /\{/, '{');
export const RCurly = op('RCurly', /\}/, '}');
export const Dot = op('Dot', /\./, '.');
export const Comma = op('Comma', /,/, ',');
export const Colon = op('Colon', /:/, ':');
export const Semicolon = op('Semicolon', /;/, ';');
export const Question = op('Question', /\?/, '?');
export const Plus = op('Plus', /\+/, '+', [BinaryOperatorToken, PrefixOperator]);
export const Minus = op('Minus', /-/, '-', [BinaryOperatorToken, PrefixOperator]);
export const Star = op('Star', /\*/, '*', [BinaryOperatorToken]);
export const Slash = op('Slash', /\//, '/', [BinaryOperatorToken]);
export const Percent = op('Percent', /%/, '%', [BinaryOperatorToken]);
export const Less = op('Less', /</, '<', [BinaryOperatorToken]);
export const Greater = op('Greater', />/, '>', [BinaryOperatorToken]);
export const Assign = op('Assign', /=/, '=', [AssignOperator]);
export const Bang = op('Bang', /!/, '!', [PrefixOperator]);
export const Tilde = op('Tilde', /~/, '~', [PrefixOperator]);
export const Amp = op('Amp', /&/, '&', [BinaryOperatorToken]);
export const Pipe = op('Pipe', /\|/, '|', [BinaryOperatorToken]);
export const Caret = op('Caret', /\^/, '^', [BinaryOperatorToken]);

// ---------------------------------------------------------------- keywords (assigned after expansion)

function kw(name: string, label: string): TokenType {
  return createToken({ name, pattern: Lexer.NA, label: `'${label}'` });
}
export const Struct = kw('Struct', 'struct');
export const Void = kw('Void', 'void');
export const If = kw('If', 'if');
export const Else = kw('Else', 'else');
export const For = kw('For', 'for');
export const While = kw('While', 'while');
export const Do = kw('Do', 'do');
export const Switch = kw('Switch', 'switch');
export const Case = kw('Case', 'case');
export const Default = kw('Default', 'default');
export const Break = kw('Break', 'break');
export const Continue = kw('Continue', 'continue');
export const Return = kw('Return', 'return');
export const Discard = kw('Discard', 'discard');
export const TerminateRay = kw('TerminateRay', 'terminateRayEXT');
export const IgnoreIntersection = kw('IgnoreIntersection', 'ignoreIntersectionEXT');
export const True = kw('True', 'true');
export const False = kw('False', 'false');
export const Layout = kw('Layout', 'layout');
export const Precision = kw('Precision', 'precision');
export const Invariant = kw('Invariant', 'invariant');
export const Precise = kw('Precise', 'precise');
export const NonUniform = kw('NonUniform', 'nonuniformEXT');
/** `const in out inout uniform buffer shared rayPayloadEXT ...`: the image says which. */
export const StorageQualifier = createToken({ name: 'StorageQualifier', pattern: Lexer.NA, label: 'storage qualifier' });
export const MemoryQualifier = createToken({ name: 'MemoryQualifier', pattern: Lexer.NA, label: 'memory qualifier' });
export const PrecisionQualifier = createToken({ name: 'PrecisionQualifier', pattern: Lexer.NA, label: 'precision qualifier' });
export const InterpolationQualifier = createToken({ name: 'InterpolationQualifier', pattern: Lexer.NA, label: 'interpolation qualifier' });
/** Auxiliary storage qualifiers the AST has no field for (`centroid`, `sample`, `patch`); accepted and dropped. */
export const AuxiliaryQualifier = createToken({ name: 'AuxiliaryQualifier', pattern: Lexer.NA, label: 'qualifier' });

export const STORAGE_QUALIFIERS = [
  'const', 'in', 'out', 'inout', 'uniform', 'buffer', 'shared',
  'rayPayloadEXT', 'rayPayloadInEXT', 'hitAttributeEXT', 'callableDataEXT', 'callableDataInEXT', 'shaderRecordEXT',
] as const;
export type StorageQualifierName = (typeof STORAGE_QUALIFIERS)[number];

/** Built-in type keywords: scalars, vectors, matrices, explicit arithmetic types and opaque types. */
export const BUILTIN_TYPE_NAMES: ReadonlySet<string> = (() => {
  const names = ['bool', 'int', 'uint', 'float', 'double', 'atomic_uint', 'accelerationStructureEXT', 'rayQueryEXT', 'sampler', 'samplerShadow'];
  for (const n of [2, 3, 4]) {
    for (const p of ['', 'd', 'i', 'u', 'b', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'f16', 'f32', 'f64']) names.push(`${p}vec${n}`);
    for (const p of ['', 'd', 'f16', 'f32', 'f64']) {
      names.push(`${p}mat${n}`);
      for (const m of [2, 3, 4]) names.push(`${p}mat${n}x${m}`);
    }
  }
  for (const bits of [8, 16, 32, 64]) names.push(`int${bits}_t`, `uint${bits}_t`);
  names.push('float16_t', 'float32_t', 'float64_t');
  const dims = ['1D', '2D', '3D', 'Cube', '1DArray', '2DArray', 'CubeArray', '2DRect', 'Buffer', '2DMS', '2DMSArray'];
  for (const p of ['', 'i', 'u']) {
    for (const d of dims) names.push(`${p}sampler${d}`, `${p}texture${d}`, `${p}image${d}`);
    names.push(`${p}subpassInput`, `${p}subpassInputMS`);
  }
  for (const d of dims) names.push(`i64image${d}`, `u64image${d}`);
  for (const d of ['1D', '2D', 'Cube', '1DArray', '2DArray', 'CubeArray', '2DRect']) names.push(`sampler${d}Shadow`);
  return new Set(names);
})();

const KEYWORDS = new Map<string, TokenType>([
  ['struct', Struct], ['void', Void], ['if', If], ['else', Else], ['for', For], ['while', While], ['do', Do],
  ['switch', Switch], ['case', Case], ['default', Default], ['break', Break], ['continue', Continue],
  ['return', Return], ['discard', Discard], ['terminateRayEXT', TerminateRay], ['ignoreIntersectionEXT', IgnoreIntersection],
  ['true', True], ['false', False], ['layout', Layout], ['precision', Precision], ['invariant', Invariant],
  ['precise', Precise], ['nonuniformEXT', NonUniform],
  ...STORAGE_QUALIFIERS.map((q): [string, TokenType] => [q, StorageQualifier]),
  ...['readonly', 'writeonly', 'coherent', 'volatile', 'restrict'].map((q): [string, TokenType] => [q, MemoryQualifier]),
  ...['highp', 'mediump', 'lowp'].map((q): [string, TokenType] => [q, PrecisionQualifier]),
  ...['flat', 'smooth', 'noperspective'].map((q): [string, TokenType] => [q, InterpolationQualifier]),
  ...['centroid', 'sample', 'patch'].map((q): [string, TokenType] => [q, AuxiliaryQualifier]),
]);

/** The parser's token type for a word after preprocessing (keyword, built-in type, or identifier). */
export function classifyWord(word: string): TokenType {
  return KEYWORDS.get(word) ?? (BUILTIN_TYPE_NAMES.has(word) ? BuiltinType : Identifier);
}

/** Order matters: longer punctuators first, floats before ints, comments before '/'. */
/** The token types the lexer produces, in matching order. */
export const lexedTokenTypes: TokenType[] = [
  WhiteSpace, LineContinuation, Newline, LineComment, BlockComment, UnterminatedComment,
  FloatLiteral, IntLiteral, Identifier, StringLiteral,
  ShiftLeftAssign, ShiftRightAssign, PlusPlus, MinusMinus, ShiftLeft, ShiftRight, LessEqual, GreaterEqual,
  EqualEqual, NotEqual, AndAnd, OrOr, XorXor, PlusAssign, MinusAssign, StarAssign, SlashAssign, PercentAssign,
  AmpAssign, PipeAssign, CaretAssign, HashHash, Hash, LParen, RParen, LBracket, RBracket, LCurly, RCurly, Dot,
  Comma, Colon, Semicolon, Question, Plus, Minus, Star, Slash, Percent, Less, Greater, Assign, Bang, Tilde,
  Amp, Pipe, Caret,
];

/** Every token type, for the parser's vocabulary. */
export const allTokenTypes: TokenType[] = [
  TypeName, AssignOperator, BinaryOperatorToken, PrefixOperator, UserTypeName, BuiltinType,
  ...lexedTokenTypes,
  Struct, Void, If, Else, For, While, Do, Switch, Case, Default, Break, Continue, Return, Discard,
  TerminateRay, IgnoreIntersection, True, False, Layout, Precision, Invariant, Precise, NonUniform,
  StorageQualifier, MemoryQualifier, PrecisionQualifier, InterpolationQualifier, AuxiliaryQualifier,
];

/**
 * Validations skipped: they cost every GLSL compile at start (issue 25) and find nothing in token
 * definitions that passed them once; test/frontend/glsl/parser-grammar.test.ts runs them.
 */
const glslLexer = new Lexer(lexedTokenTypes, { positionTracking: 'full', ensureOptimizations: false, skipValidations: true });

export interface LexError {
  line: number;
  column: number;
  message: string;
}

/**
 * Where `text` stops being text: the first control character other than tab, newline, vertical tab,
 * form feed and carriage return (a NUL, an escape, DEL...). Source files never hold one, and binary
 * input (an image, a SPIR-V module, random bytes named `.rgen`) almost always does within its first
 * bytes, so it is rejected at once instead of being lexed into thousands of errors.
 */
export function nonTextCharacter(text: string): LexError | undefined {
  // eslint-disable-next-line no-control-regex
  const m = /[\x00-\x08\x0e-\x1f\x7f]/.exec(text);
  if (m === null) return undefined;
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < m.index; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  const code = m[0].charCodeAt(0).toString(16).padStart(2, '0');
  return { line, column: m.index - lineStart + 1, message: `not a text file: unexpected character 0x${code} (a control character) at offset ${m.index}` };
}

/** Lexes one source text into preprocessing tokens (Newline tokens included, comments skipped). */
export function lexGlsl(text: string): { tokens: IToken[]; errors: LexError[] } {
  const binary = nonTextCharacter(text);
  if (binary !== undefined) return { tokens: [], errors: [binary] };
  const r = glslLexer.tokenize(text);
  const errors: LexError[] = r.errors.map((e) => ({
    line: e.line ?? 0,
    column: e.column ?? 0,
    message: `unexpected character '${text.charAt(e.offset)}'`,
  }));
  let tokens = r.tokens;
  const last = tokens[tokens.length - 1];
  if (last !== undefined && last.tokenType === UnterminatedComment) {
    errors.push({ line: last.startLine ?? 0, column: last.startColumn ?? 0, message: 'unterminated /* comment' });
    tokens = tokens.slice(0, -1);
  }
  return { tokens, errors };
}

/**
 * A token handed to the parser: a chevrotain token whose `startLine`/`startColumn` are in the
 * ORIGINAL file `file` (an index into `ParseResult.sources`), after #include, #line and macro
 * expansion (expanded tokens carry the location of the macro invocation).
 */
export interface GlslToken extends IToken {
  file: number;
}
