/**
 * The error a user gets for a bad configuration: an unknown key (with the closest known name
 * suggested by edit distance), a malformed value, or an unreadable file. Always names the key and,
 * when it came from a file, `file:line`.
 */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly key?: string,
    readonly file?: string,
    readonly line?: number,
  ) {
    super(file === undefined ? message : line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** Levenshtein distance; two rows, O(|a|*|b|) time. */
export function editDistance(a: string, b: string): number {
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const sub = prev[j - 1]! + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1);
      cur[j] = Math.min(sub, prev[j]! + 1, cur[j - 1]! + 1);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/** The known name nearest to `key`; ties go to the earlier declaration so the answer is stable. */
export function closestName(key: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const n of names) {
    const d = editDistance(key, n);
    if (d < bestD) {
      bestD = d;
      best = n;
    }
  }
  return best;
}
