/**
 * Is a file shader source text at all? Binary data (a mis-named file, random bytes) is rejected at
 * its first offending character with its line and column, in one linear scan, before any
 * tokenising: glslang rejects such files at once, and lexing megabytes of noise would take seconds.
 * Text is what UTF-8 decoding gives without replacement characters, with no control characters
 * other than tab, line feed, vertical tab, form feed and carriage return.
 */

export interface NotTextProblem {
  line: number;
  column: number;
  message: string;
}

export function firstNonTextCharacter(text: string): NotTextProblem | undefined {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      lineStart = i + 1;
      continue;
    }
    const control = c < 32 && c !== 9 && c !== 11 && c !== 12 && c !== 13;
    if (control || c === 0x7f || c === 0xfffd) {
      const what = c === 0xfffd ? 'bytes that are not UTF-8 text' : `control character 0x${c.toString(16).padStart(2, '0')}`;
      return { line, column: i - lineStart + 1, message: `not a text file: ${what} (a shader source must be text)` };
    }
  }
  return undefined;
}
