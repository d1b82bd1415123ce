/**
 * The `#if` / `#elif` expression evaluator: integer constant expressions with C precedence
 * (`?:`, `||`, `&&`, `|`, `^`, `&`, equality, relational, shifts, additive, multiplicative,
 * unary `+ - ~ !`, parentheses). Input is already macro-expanded with `defined` replaced;
 * identifiers left over evaluate to 0 as in C. Arithmetic is 32-bit signed, like glslang.
 * Throws `PpExpressionError` (carrying the offending token) on malformed input; never anything else.
 */
import type { PpToken } from './preprocessor-macros.js';
import { FloatLiteral, Identifier, IntLiteral, LParen, RParen } from './tokens.js';

export class PpExpressionError extends Error {
  constructor(readonly at: PpToken | undefined, message: string) {
    super(message);
  }
}

const BINARY_PRECEDENCE: Readonly<Record<string, number>> = {
  '||': 1, '&&': 2, '|': 3, '^': 4, '&': 5, '==': 6, '!=': 6,
  '<': 7, '>': 7, '<=': 7, '>=': 7, '<<': 8, '>>': 8, '+': 9, '-': 9, '*': 10, '/': 10, '%': 10,
};

function parseIntLiteral(t: PpToken): number {
  const text = t.image.replace(/(?:ul|UL|us|US|u|U|l|L|s|S)$/, '');
  let v: number;
  if (/^0[xX]/.test(text)) v = parseInt(text.slice(2), 16);
  else if (/^0[0-7]+$/.test(text)) v = parseInt(text.slice(1), 8);
  else if (/^\d+$/.test(text)) v = parseInt(text, 10);
  else throw new PpExpressionError(t, `invalid integer '${t.image}' in preprocessor expression`);
  return v | 0;
}

/** Evaluates the expression; the whole token list must be consumed. */
export function evaluatePpExpression(tokens: readonly PpToken[]): number {
  let pos = 0;
  // > 0 while parsing an operand whose value cannot matter (`0 && x`): errors like 1/0 are ignored there, as in C.
  let unevaluated = 0;
  const peek = (): PpToken | undefined => tokens[pos];
  const fail = (message: string): never => {
    throw new PpExpressionError(tokens[pos] ?? tokens[tokens.length - 1], message);
  };

  const primary = (): number => {
    const t = peek();
    if (t === undefined) return fail('missing operand in preprocessor expression');
    pos++;
    if (t.type === IntLiteral) return parseIntLiteral(t);
    if (t.type === Identifier) return 0;
    if (t.type === FloatLiteral) throw new PpExpressionError(t, `floating-point literal '${t.image}' in preprocessor expression`);
    if (t.type === LParen) {
      const v = conditional();
      if (peek()?.type !== RParen) fail("expected ')' in preprocessor expression");
      pos++;
      return v;
    }
    if (t.image === '+' || t.image === '-' || t.image === '~' || t.image === '!') {
      const v = primary();
      switch (t.image) {
        case '+': return v;
        case '-': return -v | 0;
        case '~': return ~v;
        default: return v === 0 ? 1 : 0;
      }
    }
    throw new PpExpressionError(t, `unexpected '${t.image}' in preprocessor expression`);
  };

  const binary = (minPrec: number): number => {
    let left = primary();
    for (;;) {
      const t = peek();
      const prec = t === undefined ? undefined : BINARY_PRECEDENCE[t.image];
      if (t === undefined || prec === undefined || prec < minPrec) return left;
      pos++;
      const shortCircuit = (t.image === '&&' && left === 0) || (t.image === '||' && left !== 0);
      if (shortCircuit) unevaluated++;
      const right = binary(prec + 1);
      if (shortCircuit) unevaluated--;
      left = applyBinary(t, left, right, unevaluated > 0 || shortCircuit);
    }
  };

  const conditional = (): number => {
    const c = binary(1);
    if (peek()?.image !== '?') return c;
    pos++;
    if (c === 0) unevaluated++;
    const a = conditional();
    if (c === 0) unevaluated--;
    if (peek()?.image !== ':') fail("expected ':' in preprocessor expression");
    pos++;
    if (c !== 0) unevaluated++;
    const b = conditional();
    if (c !== 0) unevaluated--;
    return c !== 0 ? a : b;
  };

  if (tokens.length === 0) throw new PpExpressionError(undefined, '#if with no expression');
  const v = conditional();
  if (pos < tokens.length) fail(`unexpected '${tokens[pos]!.image}' in preprocessor expression`);
  return v;
}

function applyBinary(op: PpToken, a: number, b: number, unevaluated: boolean): number {
  switch (op.image) {
    case '||': return a !== 0 || b !== 0 ? 1 : 0;
    case '&&': return a !== 0 && b !== 0 ? 1 : 0;
    case '|': return a | b;
    case '^': return a ^ b;
    case '&': return a & b;
    case '==': return a === b ? 1 : 0;
    case '!=': return a !== b ? 1 : 0;
    case '<': return a < b ? 1 : 0;
    case '>': return a > b ? 1 : 0;
    case '<=': return a <= b ? 1 : 0;
    case '>=': return a >= b ? 1 : 0;
    case '<<': return a << b;
    case '>>': return a >> b;
    case '+': return (a + b) | 0;
    case '-': return (a - b) | 0;
    case '*': return Math.imul(a, b);
    case '/':
    case '%':
      if (b === 0 && unevaluated) return 0;
      if (b === 0) throw new PpExpressionError(op, 'division by zero in preprocessor expression');
      return op.image === '/' ? (a / b) | 0 : a % b | 0;
    default: throw new PpExpressionError(op, `unexpected '${op.image}' in preprocessor expression`);
  }
}
