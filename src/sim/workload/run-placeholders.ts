/**
 * "${...}" strings in push constants and uniform buffers: run parameters the host writes where the
 * application keeps them. A placeholder is a name (`${spp}`) or a small arithmetic expression over
 * the names (`${(frame + 1) * spp}`: the total sample count after this frame, as an accumulating
 * renderer keeps it), with + - * / % and parentheses; `/` is integer division when both sides are
 * integers (the host does the arithmetic in C), real division otherwise.
 *
 * Names: width, height, depth, spp, bounces, seed (run parameters), frame (0-based index of the
 * launch in a multi-frame run) and frames (how many the run has).
 */
import { ManifestError, type JsonValue } from './manifest.js';

export const PLACEHOLDER_NAMES = ['width', 'height', 'depth', 'spp', 'bounces', 'seed', 'frame', 'frames'] as const;
export type PlaceholderName = (typeof PLACEHOLDER_NAMES)[number];
export type PlaceholderValues = Readonly<Record<PlaceholderName, number>>;

/** The expression of a "${...}" string, or undefined when `v` is no placeholder. */
export function placeholderExpression(v: string): string | undefined {
  const m = /^\$\{(.*)\}$/s.exec(v);
  return m ? m[1]! : undefined;
}

/** The problem with a placeholder expression, or undefined when it is well formed over the known names. */
export function placeholderProblem(expr: string): string | undefined {
  try {
    evaluate(expr, undefined);
    return undefined;
  } catch (e) {
    if (e instanceof ManifestError) return e.message;
    throw e;
  }
}

/** Every "${...}" string in `value` replaced by its number. */
export function substitutePlaceholders(value: JsonValue, values: PlaceholderValues): JsonValue {
  if (typeof value === 'string') {
    const expr = placeholderExpression(value);
    return expr === undefined ? value : evaluate(expr, values);
  }
  if (Array.isArray(value)) return value.map((v) => substitutePlaceholders(v, values));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitutePlaceholders(v, values)]));
  }
  return value;
}

/** True when a "${...}" string in `value` names `frame` (its value differs between frames). */
export function dependsOnFrame(value: JsonValue | undefined): boolean {
  if (typeof value === 'string') return /\bframe\b/.test(placeholderExpression(value) ?? '');
  if (Array.isArray(value)) return value.some(dependsOnFrame);
  if (value && typeof value === 'object') return Object.values(value).some(dependsOnFrame);
  return false;
}

/** Recursive descent over `expr`; with `values` undefined only checks the syntax and the names. */
function evaluate(expr: string, values: PlaceholderValues | undefined): number {
  const tokens = expr.match(/\s*(\d+(\.\d+)?|[A-Za-z_]\w*|[-+*/%()]|\S)/g)?.map((t) => t.trim()) ?? [];
  let i = 0;
  const fail = (what: string): never => {
    throw new ManifestError([`\${${expr}}: ${what} (a run parameter such as \${spp}, or arithmetic over ${PLACEHOLDER_NAMES.join(', ')})`]);
  };
  const primary = (): number => {
    const t = tokens[i++];
    if (t === undefined) return fail('unexpected end');
    if (t === '(') {
      const v = sum();
      if (tokens[i++] !== ')') fail('missing )');
      return v;
    }
    if (t === '-') return -primary();
    if (/^\d/.test(t)) return Number(t);
    if (/^[A-Za-z_]/.test(t)) {
      if (!(PLACEHOLDER_NAMES as readonly string[]).includes(t)) fail(`unknown name '${t}'`);
      return values ? values[t as PlaceholderName] : 1;
    }
    return fail(`unexpected '${t}'`);
  };
  const product = (): number => {
    let v = primary();
    while (tokens[i] === '*' || tokens[i] === '/' || tokens[i] === '%') {
      const op = tokens[i++];
      const r = primary();
      if (op === '*') v *= r;
      else if (r === 0) v = values ? fail('division by zero') : 0;
      else if (op === '%') v %= r;
      else v = Number.isInteger(v) && Number.isInteger(r) ? Math.trunc(v / r) : v / r;
    }
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (tokens[i] === '+' || tokens[i] === '-') v = tokens[i++] === '+' ? v + product() : v - product();
    return v;
  };
  if (tokens.length === 0) fail('empty');
  const v = sum();
  if (i < tokens.length) fail(`unexpected '${tokens[i]}'`);
  return v;
}
