/**
 * Seeded mutations of shader source for the front-end fuzzer: line edits (delete, duplicate,
 * swap), token edits (delete, duplicate, swap), nesting (a line wrapped in blocks or `if`s, a
 * token wrapped in parentheses) and random bytes (printable or not) inserted anywhere. The same
 * seed always gives the same mutant, so a failure names a reproducible case.
 */

/** mulberry32: small, fast, good enough to pick edits. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const MUTATION_KINDS = [
  'deleteLine', 'duplicateLine', 'swapLines', 'deleteToken', 'duplicateToken', 'swapTokens', 'nestLine', 'nestToken', 'insertBytes',
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

/** Words, numbers and single punctuators with their offsets (comments and strings are not special: mutants need not be valid). */
function tokenSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  const re = /[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9A-Za-z_.]*|\S/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

function pick<T>(rnd: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)]!;
}

/** Applies one mutation of `kind`; returns the new text (unchanged when the text offers nothing to edit). */
export function mutateOnce(text: string, kind: MutationKind, rnd: () => number): string {
  const lines = text.split('\n');
  const li = Math.floor(rnd() * lines.length);
  switch (kind) {
    case 'deleteLine':
      lines.splice(li, 1);
      return lines.join('\n');
    case 'duplicateLine':
      lines.splice(li, 0, lines[li]!);
      return lines.join('\n');
    case 'swapLines': {
      const lj = Math.floor(rnd() * lines.length);
      [lines[li], lines[lj]] = [lines[lj]!, lines[li]!];
      return lines.join('\n');
    }
    case 'nestLine': {
      // 1..400 levels, mostly few: past 40 or so the parser takes the chunked path (deep-nesting.ts).
      const depth = 1 + Math.floor(rnd() ** 3 * 400);
      const open = rnd() < 0.5 ? '{ ' : 'if (true) { ';
      lines[li] = `${open.repeat(depth)}${lines[li]}${' }'.repeat(depth)}`;
      return lines.join('\n');
    }
    case 'insertBytes': {
      const at = Math.floor(rnd() * (text.length + 1));
      const n = 1 + Math.floor(rnd() * 8);
      const printable = rnd() < 0.5;
      let bytes = '';
      for (let i = 0; i < n; i++) bytes += String.fromCharCode(printable ? 32 + Math.floor(rnd() * 95) : Math.floor(rnd() * 256));
      return text.slice(0, at) + bytes + text.slice(at);
    }
    default: {
      const spans = tokenSpans(text);
      if (spans.length === 0) return text;
      const [s, e] = pick(rnd, spans);
      const tok = text.slice(s, e);
      switch (kind) {
        case 'deleteToken':
          return text.slice(0, s) + text.slice(e);
        case 'duplicateToken':
          return `${text.slice(0, e)} ${tok}${text.slice(e)}`;
        case 'nestToken': {
          const depth = 1 + Math.floor(rnd() ** 3 * 400);
          return text.slice(0, s) + '('.repeat(depth) + tok + ')'.repeat(depth) + text.slice(e);
        }
        case 'swapTokens': {
          const [s2, e2] = pick(rnd, spans);
          if (s2 === s) return text;
          const [a, b] = s < s2 ? [[s, e], [s2, e2]] : [[s2, e2], [s, e]];
          return text.slice(0, a[0]) + text.slice(b[0], b[1]) + text.slice(a[1], b[0]) + text.slice(a[0], a[1]) + text.slice(b[1]);
        }
      }
      return text;
    }
  }
}

export interface Mutant {
  /** What was done, in order (for the failure message). */
  edits: MutationKind[];
  text: string;
}

/** One to three seeded mutations of `text`. */
export function mutate(text: string, seed: number): Mutant {
  const rnd = seededRandom(seed);
  const n = 1 + Math.floor(rnd() * 3);
  const edits: MutationKind[] = [];
  let out = text;
  for (let i = 0; i < n; i++) {
    const kind = pick(rnd, MUTATION_KINDS);
    edits.push(kind);
    out = mutateOnce(out, kind, rnd);
  }
  return { edits, text: out };
}
