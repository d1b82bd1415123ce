/**
 * The SPIR-V binary as a list of instructions (SPIR-V 2.3 physical layout): header checks
 * (magic in either byte order, version 1.0-1.6, id bound), then each instruction's opcode,
 * operand words and its word offset in the file, so every later error can say where it is.
 *
 * Invariant of a returned `SpirvBinary`: every instruction's word count is >= 1 and the last one
 * ends exactly at the end of the file.
 */
import { Op, SPIRV_MAGIC } from '../../ir/spirv-enums.js';

export class SpirvReadError extends Error {
  constructor(readonly file: string, readonly wordOffset: number | undefined, message: string) {
    super(`${file}${wordOffset !== undefined ? `: word ${wordOffset}` : ''}: ${message}`);
    this.name = 'SpirvReadError';
  }
}

export interface SpirvInstruction {
  opcode: number;
  /** Operand words (the words after the first). */
  operands: Uint32Array;
  /** Word offset of the instruction's first word in the file. */
  offset: number;
}

export interface SpirvBinary {
  version: { major: number; minor: number };
  generator: number;
  bound: number;
  instructions: SpirvInstruction[];
}

const OP_NAMES = new Map<number, string>(Object.entries(Op).map(([k, v]) => [v, `Op${k}`]));

/** `OpName` of an opcode, or `opcode N` for one vvision does not know. */
export function opcodeName(opcode: number): string {
  return OP_NAMES.get(opcode) ?? `opcode ${opcode}`;
}

export function parseSpirvWords(file: string, bytes: Uint8Array): SpirvBinary {
  if (bytes.length % 4 !== 0) throw new SpirvReadError(file, undefined, `not a SPIR-V module: ${bytes.length} bytes is not a whole number of 32-bit words`);
  if (bytes.length < 20) throw new SpirvReadError(file, undefined, `not a SPIR-V module: ${bytes.length} bytes is shorter than the 5-word header`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let little = true;
  if (view.getUint32(0, true) !== SPIRV_MAGIC) {
    if (view.getUint32(0, false) === SPIRV_MAGIC) little = false;
    else throw new SpirvReadError(file, 0, `not a SPIR-V module: magic number 0x${view.getUint32(0, true).toString(16).padStart(8, '0')}, expected 0x07230203`);
  }
  const n = bytes.length / 4;
  const words = new Uint32Array(n);
  for (let i = 0; i < n; i++) words[i] = view.getUint32(i * 4, little);
  const versionWord = words[1]!;
  const major = (versionWord >>> 16) & 0xff;
  const minor = (versionWord >>> 8) & 0xff;
  if (major !== 1 || minor > 6) throw new SpirvReadError(file, 1, `unsupported SPIR-V version ${major}.${minor} (vvision reads 1.0 to 1.6)`);
  const bound = words[3]!;
  if (bound === 0 || bound > 0x3fffff) throw new SpirvReadError(file, 3, `id bound ${bound} is out of range`);
  const instructions: SpirvInstruction[] = [];
  let at = 5;
  while (at < n) {
    const first = words[at]!;
    const count = first >>> 16;
    const opcode = first & 0xffff;
    if (count === 0) throw new SpirvReadError(file, at, `${opcodeName(opcode)} has word count 0`);
    if (at + count > n) throw new SpirvReadError(file, at, `${opcodeName(opcode)} has ${count} words but the module ends after ${n - at}`);
    instructions.push({ opcode, operands: words.subarray(at + 1, at + count), offset: at });
    at += count;
  }
  return { version: { major, minor }, generator: words[2]!, bound, instructions };
}

/** Decodes a literal string starting at `operands[start]`; returns it and the index after it. */
export function readString(file: string, inst: SpirvInstruction, start: number): { value: string; next: number } {
  const bytes: number[] = [];
  for (let i = start; i < inst.operands.length; i++) {
    const w = inst.operands[i]!;
    for (let k = 0; k < 4; k++) {
      const b = (w >>> (k * 8)) & 0xff;
      if (b === 0) return { value: new TextDecoder().decode(Uint8Array.from(bytes)), next: i + 1 };
      bytes.push(b);
    }
  }
  throw new SpirvReadError(file, inst.offset, `${opcodeName(inst.opcode)}: literal string is not NUL-terminated`);
}
