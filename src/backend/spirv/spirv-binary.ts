/**
 * Encoding of SPIR-V instructions as words: the first word is `wordCount << 16 | opcode`, then
 * operands; literal strings are UTF-8, NUL-terminated and zero-padded to a word boundary. A
 * `Section` is one of the module's logical layout sections (SPIR-V 2.4) as a growing word list.
 */

/** Maximum words of one instruction (the word count is 16 bits). */
export const MAX_INSTRUCTION_WORDS = 0xffff;

/** Words of a literal string (NUL-terminated, padded); a NUL inside `s` becomes U+FFFD. */
export function stringWords(s: string): number[] {
  const bytes = new TextEncoder().encode(s.includes('\0') ? s.replaceAll('\0', '\uFFFD') : s);
  const n = Math.floor(bytes.length / 4) + 1;
  const out = new Array<number>(n).fill(0);
  for (let i = 0; i < bytes.length; i++) out[i >> 2]! |= bytes[i]! << ((i & 3) * 8);
  for (let i = 0; i < n; i++) out[i] = out[i]! >>> 0;
  return out;
}

/**
 * Splits `s` so that every piece encodes in at most `maxWords` words (SPIR-V's OpSource /
 * OpSourceContinued limit); pieces end on UTF-8 character boundaries.
 */
export function splitForWords(s: string, maxWords: number): string[] {
  const maxBytes = maxWords * 4 - 1;
  const out: string[] = [];
  let piece = '';
  let bytes = 0;
  for (const ch of s) {
    const n = new TextEncoder().encode(ch).length;
    if (bytes + n > maxBytes) {
      out.push(piece);
      piece = '';
      bytes = 0;
    }
    piece += ch;
    bytes += n;
  }
  out.push(piece);
  return out;
}

export class Section {
  readonly words: number[] = [];

  /** Appends one instruction. Operands must already be 32-bit words. */
  emit(opcode: number, operands: readonly number[]): void {
    const count = operands.length + 1;
    if (count > MAX_INSTRUCTION_WORDS) throw new Error(`SPIR-V instruction ${opcode} needs ${count} words, more than ${MAX_INSTRUCTION_WORDS}`);
    this.words.push(((count << 16) | opcode) >>> 0);
    for (const w of operands) this.words.push(w >>> 0);
  }
}

/** The words of a 32-bit float. */
export function f32Word(x: number): number {
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, x, true);
  return b.getUint32(0, true);
}

/** Low word first, as SPIR-V orders multi-word literals. */
export function f64Words(x: number): [number, number] {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x, true);
  return [b.getUint32(0, true), b.getUint32(4, true)];
}

export function i64Words(x: bigint): [number, number] {
  const v = BigInt.asUintN(64, x);
  return [Number(v & 0xffffffffn), Number(v >> 32n)];
}
