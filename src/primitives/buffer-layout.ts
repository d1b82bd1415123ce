/**
 * The V-Vision instrumentation contract (paper 003, Fig. 6): the layout of the instrumentation
 * storage buffer and the schema of the static metadata written beside it. The IR emitters
 * (writer) and `src/analytics/dump-reader.ts` (reader) both import this file and nothing else
 * defines these numbers, like SPIRV-Tools' `instrument.hpp`.
 *
 * Buffer of little-endian u32 words:
 *   buf[0]  Warp ID Count: incremented by CreateWarpId, one per warp.
 *   buf[1]  Words Written: entry words reserved so far. Incremented even when the entry no longer
 *           fits, so after an overflow it still says exactly how many words were needed.
 *   buf[2..] entries, back to back: thread_work_id, inst_id, payload words...
 * A zero-filled buffer is a valid empty buffer (no host initialisation needed): an entry reserved
 * at `i = atomicAdd(buf[1], size)` lives at words [FIRST_ENTRY_WORD + i, FIRST_ENTRY_WORD + i + size).
 *
 * Metadata invariants:
 * - `sites[k].id === k`: the inst id written into the buffer indexes `sites` directly.
 * - `sites[k].entryWords === ENTRY_HEADER_WORDS + sites[k].payload.length`.
 * - Instruction counts, opcodes and lines describe the ORIGINAL (uninstrumented) blocks.
 */

/** Descriptor set and binding reserved for the instrumentation buffer in every instrumented module. */
export const INSTRUMENTATION_SET = 7;
export const INSTRUMENTATION_BINDING = 0;
/** Name of the storage-buffer global the passes add (and of its block type). */
export const INSTRUMENTATION_BUFFER_NAME = 'vvision_instrumentation';

export const WARP_ID_COUNT_WORD = 0;
export const WORDS_WRITTEN_WORD = 1;
export const FIRST_ENTRY_WORD = 2;

/** Header words of every entry: thread_work_id then inst_id. */
export const ENTRY_HEADER_WORDS = 2;
export const ENTRY_THREAD_WORK_ID = 0;
export const ENTRY_INST_ID = 1;
export const ENTRY_PAYLOAD = 2;

/** Lanes per warp (subgroup size) the ballot payloads assume: one u32 mask word. */
export const WARP_SIZE = 32;

/** Default buffer size in words (64 MiB) when the user does not pass --buffer-size. */
export const DEFAULT_BUFFER_WORDS = 16 * 1024 * 1024;

/** Whole-buffer words needed to hold `wordsWritten` entry words (the value of buf[1]). */
export function requiredBufferWords(wordsWrittenCounter: number): number {
  return FIRST_ENTRY_WORD + wordsWrittenCounter;
}

/**
 * Buffer words to give a GPU run whose simulated (or earlier) run needed `requiredWords`: a GPU may
 * run more invocations than the simulator (Vulkan allows extra intersection / any-hit calls; the
 * H100 ran 12,066 intersection shaders where the simulator ran 11,570) and partial warps write
 * more warp entries, so 25% more plus 64 Ki words (256 KiB) for small dumps (the H100 wrote 1,922
 * words where 770 were simulated).
 */
export function bufferWordsWithMargin(requiredWords: number): number {
  return Math.ceil(requiredWords * 1.25) + 65536;
}

/** A zero-filled instrumentation buffer of `words` words (header included). */
export function newInstrumentationBuffer(words: number = DEFAULT_BUFFER_WORDS): Uint32Array {
  if (!Number.isInteger(words) || words < FIRST_ENTRY_WORD) {
    throw new RangeError(`instrumentation buffer size must be an integer >= ${FIRST_ENTRY_WORD} words, got ${words}`);
  }
  return new Uint32Array(words);
}

// ----- static metadata (metadata.json) -----

export type InstrumentationMode = 'simt' | 'divergence' | 'paths' | 'trace' | 'its';
export const INSTRUMENTATION_MODES: readonly InstrumentationMode[] = ['simt', 'divergence', 'paths', 'trace', 'its'];

export type PrimitiveKind = 'ThreadUpdate' | 'WarpUpdate' | 'CreateWarpId';

/**
 * What an instrumentation call site records, i.e. where it sits:
 * - block: WarpUpdate(subgroupBallot(true)) at a basic block's entry (simt, divergence).
 * - shaderEntry: the same at the entry block of a stage's entry function (divergence, Fig. 13 l.3).
 * - earlyReturn: WarpUpdate(ballot) before a raygen `return` other than the final one (Fig. 13 l.9).
 * - preTraceRay / postTraceRay: WarpUpdate(ballot) just before / after a traceRay (Fig. 9 l.5, Fig. 13 l.13/16).
 * - preExecuteCallable / postExecuteCallable: the same around an executeCallable, the other
 *   indirect function call of the pipeline (divergence).
 * - syncPoint: WarpUpdate(ballot) where the warp reconverges after a traceRay (Fig. 9 l.11).
 * - warpId: CreateWarpId at the raygen entry; payload = warp id (Fig. 5).
 * - blockTrace: ThreadUpdate() at a basic block's entry (trace).
 * - pipelineEntry / pipelineExit: WarpUpdate(ballot) at raygen entry / unified raygen exit (Fig. 10-11).
 */
export type BuiltinSiteKind =
  | 'block' | 'shaderEntry' | 'earlyReturn' | 'preTraceRay' | 'postTraceRay' | 'syncPoint'
  | 'preExecuteCallable' | 'postExecuteCallable'
  | 'warpId' | 'blockTrace' | 'pipelineEntry' | 'pipelineExit';

export const BUILTIN_SITE_KINDS: readonly BuiltinSiteKind[] = [
  'block', 'shaderEntry', 'earlyReturn', 'preTraceRay', 'postTraceRay', 'syncPoint',
  'preExecuteCallable', 'postExecuteCallable', 'warpId', 'blockTrace', 'pipelineEntry', 'pipelineExit',
];

/**
 * A site's kind: one of the built-in kinds above, or a name a user utility gives its own sites
 * (`SITE_KIND_PATTERN`); analyses of the built-in utilities ignore kinds they do not know.
 */
export type SiteKind = BuiltinSiteKind | (string & {});

/** Names of user site kinds and utilities: a letter, then letters, digits, '-', '_' or '.'. */
export const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/**
 * How a payload word is to be read: `u32` (default), `i32` (two's complement), `f32` (IEEE bits,
 * as floatBitsToUint wrote them) or `bool` (0 / 1).
 */
export type PayloadType = 'u32' | 'i32' | 'f32' | 'bool';
export const PAYLOAD_TYPES: readonly PayloadType[] = ['u32', 'i32', 'f32', 'bool'];

export interface SourceLocation {
  /** Source path as given to the compiler ('' when unknown). */
  file: string;
  line: number;
  column: number;
}

export interface SiteMetadata {
  /** The inst id written in each entry; equals this site's index in `sites`. */
  id: number;
  kind: SiteKind;
  primitive: PrimitiveKind;
  /** Words per entry, header included. */
  entryWords: number;
  /** Field names of the whole entry, header included: ['thread_work_id', 'inst_id', ...payload]. */
  fields: string[];
  /** Index into `InstrumentationMetadata.shaders`. */
  shader: number;
  function: string;
  /** Original block id (as in `ShaderMetadata.cfg`) the site sits in. */
  block: number;
  /** Issued instructions (all but phi / variable) of that original block, before instrumentation. */
  blockInstCount: number;
  /** Distinct source lines of the original block's instructions, ascending (0 = unknown omitted). */
  blockLines: number[];
  loc: SourceLocation;
  /** preTraceRay / postTraceRay / syncPoint: which traceRay of the shader (0-based, layout order). */
  traceRay?: number;
  /** How to read each payload word (parallel to the payload part of `fields`); absent = all u32. */
  payloadTypes?: PayloadType[];
  /** A short note from the utility that placed the site (e.g. `bounce @ raygen.rgen:95`). */
  label?: string;
}

export interface BlockMetadata {
  id: number;
  name?: string;
  successors: number[];
  /** Opcode of each original issued instruction (phis and variables are not issued), in order. */
  opcodes: string[];
  /** Source line of each original instruction, parallel to `opcodes` (0 = unknown). */
  lines: number[];
  /**
   * Source file of each original instruction, parallel to `lines`: an index into the shader's
   * `files` (0 = the shader's own file). Absent in metadata written before #include attribution
   * existed, or when every instruction is in the shader's own file.
   */
  files?: number[];
}

export interface FunctionMetadata {
  name: string;
  /** blocks[0] is the entry block. */
  blocks: BlockMetadata[];
}

export type ShaderStage = 'raygen' | 'closestHit' | 'miss' | 'anyHit' | 'intersection' | 'callable' | 'compute';

export interface ShaderMetadata {
  index: number;
  /** Entry point name, made unique in the pipeline (e.g. 'main' -> file stem). */
  name: string;
  stage: ShaderStage;
  sourcePath: string;
  sourceText: string;
  entryFunction: string;
  cfg: FunctionMetadata[];
  /**
   * Files the shader's code comes from, indexed by `BlockMetadata.files`: files[0] is the shader's
   * own file (`sourcePath`; its text is `sourceText`, not repeated here), then every #included file
   * that holds code of a reachable function, in order of first use. Absent = only the own file.
   */
  files?: SourceFileMetadata[];
}

export interface SourceFileMetadata {
  path: string;
  /** Omitted for files[0] (it is `ShaderMetadata.sourceText`). */
  text?: string;
}

/** Path of file `file` of a shader (0 or an unknown index: the shader's own file). */
export function shaderFilePath(shader: ShaderMetadata, file: number): string {
  return file === 0 ? shader.sourcePath : shader.files?.[file]?.path ?? shader.sourcePath;
}

/** Source text of file `file` of a shader ('' when unknown). */
export function shaderFileText(shader: ShaderMetadata, file: number): string {
  return file === 0 ? shader.sourceText : shader.files?.[file]?.text ?? '';
}

export interface InstrumentationMetadata {
  format: 'vvision-instrumentation-metadata';
  version: 1;
  /**
   * Utilities applied, in order (a module instrumented once per run, so usually one): built-in
   * mode names or user utility names (NAME_PATTERN).
   */
  modes: string[];
  warpSize: number;
  layout: {
    warpIdCountWord: number;
    wordsWrittenWord: number;
    firstEntryWord: number;
    entryHeaderWords: number;
    set: number;
    binding: number;
  };
  shaders: ShaderMetadata[];
  sites: SiteMetadata[];
}

export function emptyMetadata(): InstrumentationMetadata {
  return {
    format: 'vvision-instrumentation-metadata',
    version: 1,
    modes: [],
    warpSize: WARP_SIZE,
    layout: {
      warpIdCountWord: WARP_ID_COUNT_WORD,
      wordsWrittenWord: WORDS_WRITTEN_WORD,
      firstEntryWord: FIRST_ENTRY_WORD,
      entryHeaderWords: ENTRY_HEADER_WORDS,
      set: INSTRUMENTATION_SET,
      binding: INSTRUMENTATION_BINDING,
    },
    shaders: [],
    sites: [],
  };
}

/** Names of the two header fields, in word order. */
export const ENTRY_HEADER_FIELDS: readonly string[] = ['thread_work_id', 'inst_id'];
