/**
 * What an instrumentation utility sees while it places probes: the shaders of one stage module,
 * selectors for program points (block entries, calls, traceRay sites, instructions matching a
 * predicate, a source line, a named GLSL variable) and `probe`, which emits one V-Vision
 * primitive (ThreadUpdate, WarpUpdate, CreateWarpId) at a point and records its site in the
 * static metadata. The built-in utilities (simt, divergence, paths, trace, its) and user
 * utilities loaded with `vvision instrument --utility` use exactly this interface.
 *
 * Invariants a context keeps for every utility:
 * - Points are named by ids of the ORIGINAL program (blocks, instructions), which survive the
 *   block splitting earlier probes cause, so probes can be placed in any order.
 * - Every selector answers about the program as it was before any probe was placed.
 * - Each probe appends one site to the metadata whose `fields` name the entry's words; the
 *   dump + metadata contract (src/primitives/buffer-layout.ts) is the same for every utility.
 */
import type { Cfg } from '../../ir/cfg.js';
import type { BlockId, Inst, Loc, ValueId } from '../../ir/inst.js';
import type { EntryPoint, Function, Module } from '../../ir/module.js';
import type { PayloadType } from '../../primitives/buffer-layout.js';

/** A place in a function: a block's entry (after its phis and variables), or before / after one instruction. */
export type ProbePoint =
  | { at: 'blockEntry'; block: BlockId }
  | { at: 'before'; inst: ValueId }
  | { at: 'after'; inst: ValueId };

/** A probe point in a function. */
export interface ProgramPoint {
  fn: Function;
  point: ProbePoint;
}

/** One entry point of the module and every function it reaches (root first). */
export interface InstrumentedShader {
  /** Index into the metadata's `shaders`. */
  shader: number;
  entry: EntryPoint;
  root: Function;
  functions: Function[];
}

/** An original instruction of a shader, where it is (`line` is its source line, 0 when unknown). */
export interface InstructionSite {
  fn: Function;
  inst: Inst;
  block: BlockId;
  line: number;
  /** Source path of the instruction ('' when unknown). */
  file: string;
}

/** An original `return` of a function (its id survives splitting and exit unification). */
export interface OriginalReturn {
  id: ValueId;
  block: BlockId;
  loc: Loc;
}

/**
 * A value recorded per thread: a named GLSL variable (function local, parameter or module
 * global, loaded at the probe point) or an IR value that dominates the point. Scalars and vectors
 * of bool, 32-bit int/uint and float; one payload word per component.
 */
export type ProbeValue = { variable: string } | { inst: ValueId; name: string };

/**
 * What each entry of a probe records (V-Vision Fig. 3-5):
 * - `ballot`: WarpUpdate(subgroupBallot(true).x): one entry per warp, payload `active_mask`;
 * - `warpId`: CreateWarpId: one entry per thread mapping its thread-work id to its warp id;
 * - `count`: ThreadUpdate(): one entry per thread, no payload (entries are the count);
 * - `value`: ThreadUpdate(value...): one entry per thread with the value's words.
 */
export type ProbeRecord = 'ballot' | 'warpId' | 'count' | { value: ProbeValue };

export interface Probe extends ProgramPoint {
  /** The site kind written into the metadata (built-in kinds, or a utility's own name for its sites). */
  kind: string;
  record: ProbeRecord;
  /** Which traceRay of the shader (layout order) a traceRay-related site belongs to. */
  traceRay?: number;
  /** Overrides the original block the site is attributed to (synthetic blocks). */
  block?: BlockId;
  /** A short note stored with the site (e.g. the variable and line a user probe watches). */
  label?: string;
}

/** The placement side of a utility: one call per stage module of the pipeline. */
export interface Placement {
  /** kebab-case; the run directory's `runs/<name>/` and the metadata's `modes` entry. */
  readonly name: string;
  place(ctx: ProbeContext): void;
}

export interface ProbeContext {
  readonly module: Module;
  readonly shaders: readonly InstrumentedShader[];
  /** Emits one probe (or reuses the equivalent one already placed) and returns its site id. */
  probe(p: Probe): number;

  /** Entry points of every original block of `fn`, in original layout order. */
  blockEntries(fn: Function): ProgramPoint[];
  /** Every original instruction of the shader's functions, in layout order, with its block and line. */
  instructions(sh: InstrumentedShader, predicate?: (site: InstructionSite) => boolean): InstructionSite[];
  /** The original instructions with `op` in a shader, in layout order. */
  instsOf(sh: InstrumentedShader, op: Inst['op']): { fn: Function; inst: ValueId }[];
  /** The traceRay calls of a shader in layout order (their index is the site's `traceRay`). */
  traceRays(sh: InstrumentedShader): { fn: Function; inst: ValueId }[];
  /** The function calls (`call` instructions) of a shader, in layout order. */
  calls(sh: InstrumentedShader): { fn: Function; inst: ValueId; callee: string }[];
  /**
   * The first original instruction at `line` of the shader (layout order), optionally only in the
   * file whose path ends with `file` (an #included file); undefined when no code is on that line.
   */
  atLine(sh: InstrumentedShader, line: number, file?: string): InstructionSite | undefined;
  /** Whether a GLSL variable of that name is visible in `fn` (a local or parameter of it, or a module global). */
  hasVariable(fn: Function, name: string): boolean;

  /** Ids of the original blocks of `fn`, in their original layout order. */
  originalBlocks(fn: Function): BlockId[];
  /** The returns of `fn` before instrumentation, in layout order. */
  originalReturns(fn: Function): OriginalReturn[];
  /** The CFG of `fn` before instrumentation. */
  originalCfg(fn: Function): Cfg;
  originalBlockOf(fn: Function, inst: ValueId): BlockId;
  /**
   * Makes `fn` leave through one exit block (every original return becomes a branch to it) and
   * returns that block's `return`; a probe before it runs once per warp under a SIMT stack
   * (V-Vision Fig. 10's sync point). `final` names the return whose location the exit takes.
   */
  unifyReturns(fn: Function, final: OriginalReturn): ValueId;
}

/** Payload field names and types of a value probe (one word per component). */
export interface ValueLayout {
  fields: string[];
  types: PayloadType[];
}
