/**
 * The SPIR-V writer's entry: an IR module (one entry point, before the RT pipeline lowering) ->
 * a SPIR-V binary for Vulkan (SPIR-V 1.5 for vulkan1.2, 1.6 for vulkan1.3+), in the logical
 * layout of SPIR-V 2.4. With debug info on (the default), every source file becomes an OpString
 * and an OpSource carrying its text, and instructions carry OpLine from their `loc`, so a reader
 * (vvision's, or a driver's tools) recovers the GLSL lines that V-Vision's annotation needs.
 *
 * Throws `SpirvWriteError` for a module SPIR-V cannot express (e.g. a lowered pipeline's rtCall).
 */
import type { Module } from '../../ir/module.js';
import { EXECUTION_MODEL, MemoryModel, Op, SourceLanguage, SPIRV_MAGIC } from '../../ir/spirv-enums.js';
import { intern } from '../../ir/types.js';
import { FunctionWriter } from './function-writer.js';
import { structureSharedExit } from './structure-exits.js';
import { ModuleWriter, SpirvWriteError, type SpirvWriteOptions } from './module-writer.js';
import { MAX_INSTRUCTION_WORDS, Section, splitForWords, stringWords } from './spirv-binary.js';

export { SpirvWriteError, type SpirvWriteOptions } from './module-writer.js';

/** SPIR-V's generator word: tool id 0 ("unregistered"), version 1. */
const GENERATOR = 0x00000001;

export function spirvVersionWord(env: SpirvWriteOptions['targetEnv']): number {
  return env === 'vulkan1.3' || env === 'vulkan1.4' ? 0x00010600 : 0x00010500;
}

export function writeSpirv(m: Module, opts: SpirvWriteOptions = {}): Uint32Array {
  if (m.entryPoints.length !== 1) throw new SpirvWriteError(`a module needs exactly one entry point to be written as SPIR-V, found ${m.entryPoints.length}`);
  const w = new ModuleWriter(m, opts);
  const entry = m.entryPoints[0]!;
  if (entry.stage !== 'compute') w.rayTracing();

  const sources = new Section();
  if (opts.debugInfo !== false) {
    m.sources.forEach((src, i) => {
      const file = w.string(opts.sourceName ? opts.sourceName(src.path) : src.path);
      w.fileStrings[i] = file;
      // OpSource: language, version, file, text; the rest of a long text in OpSourceContinued.
      const pieces = splitForWords(src.text, MAX_INSTRUCTION_WORDS - 5);
      sources.emit(Op.Source, [SourceLanguage.GLSL, 460, file, ...stringWords(pieces[0]!)]);
      for (const p of pieces.slice(1)) sources.emit(Op.SourceContinued, stringWords(p));
    });
  }

  for (const g of m.globals) w.emitGlobal(g);
  // Specialization constants are part of the interface (SpecId) even when unused.
  for (const c of m.constants) if (c.specId !== undefined) w.useValue(c.id);
  const fw = new FunctionWriter(w, m);
  const voidType = intern(w.types, { kind: 'void' });
  for (const f of m.functions) fw.write(structureSharedExit(f, () => w.fresh(), voidType), f.id === entry.function);

  const entrySection = new Section();
  entrySection.emit(Op.EntryPoint, [EXECUTION_MODEL[entry.stage], entry.function, ...stringWords(entry.name), ...w.interfaceIds]);
  if (entry.stage === 'compute') {
    const [x, y, z] = entry.localSize ?? [1, 1, 1];
    entrySection.emit(Op.ExecutionMode, [entry.function, 17 /* LocalSize */, x, y, z]);
  }

  const head = new Section();
  for (const c of [...w.capabilities].sort((a, b) => a - b)) head.emit(Op.Capability, [c]);
  for (const e of [...w.extensions].sort()) head.emit(Op.Extension, stringWords(e));
  for (const [name, id] of w.importsInOrder()) head.emit(Op.ExtInstImport, [id, ...stringWords(name)]);
  head.emit(Op.MemoryModel, [w.addressing, MemoryModel.GLSL450]);

  const words = [
    SPIRV_MAGIC, spirvVersionWord(opts.targetEnv), GENERATOR, w.bound, 0,
    ...head.words, ...entrySection.words, ...w.debugStrings.words, ...sources.words, ...w.names.words,
    ...w.annotations.words, ...w.globalsSection.words, ...w.functions.words,
  ];
  return Uint32Array.from(words);
}

/** The binary as little-endian bytes (the `.spv` file). */
export function spirvBytes(words: Uint32Array): Uint8Array {
  const out = new Uint8Array(words.length * 4);
  const view = new DataView(out.buffer);
  words.forEach((w, i) => view.setUint32(i * 4, w, true));
  return out;
}
