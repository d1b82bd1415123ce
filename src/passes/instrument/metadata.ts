/**
 * Static metadata of an instrumented pipeline (paper 003, Fig. 6 items 4-6), written beside the
 * dump as metadata.json: per shader its source and CFG, per inst id the site description. This
 * file builds the per-shader part from a module BEFORE it is instrumented and adds sites.
 *
 * Invariants: block facts (opcodes, lines, sizes) always describe the original blocks; block ids
 * are the original ids, which instrumentation keeps on the head of every split block; site ids are
 * dense and equal to their index (buffer-layout.ts).
 */
import { isTerminator, successors, type Inst } from '../../ir/inst.js';
import type { Block, EntryPoint, Function, Module } from '../../ir/module.js';
import {
  ENTRY_HEADER_FIELDS,
  ENTRY_HEADER_WORDS,
  type BlockMetadata,
  type FunctionMetadata,
  type InstrumentationMetadata,
  type PayloadType,
  type PrimitiveKind,
  type ShaderMetadata,
  type SiteKind,
  type SiteMetadata,
  type SourceFileMetadata,
  type SourceLocation,
} from '../../primitives/buffer-layout.js';

/** The opcode name used in hotspots and dyn_opcode_counts.csv: the op, refined by its kind/function. */
export function opcodeName(inst: Inst): string {
  switch (inst.op) {
    case 'binary':
    case 'unary':
    case 'compare':
    case 'test':
    case 'atomic':
    case 'subgroup':
    case 'image':
      return `${inst.op}.${inst.kind}`;
    case 'ext':
    case 'bits':
    case 'rtCall':
      return `${inst.op}.${inst.fn}`;
    default:
      return inst.op;
  }
}

/**
 * Whether an instruction is issued when its block runs: phis and variable declarations are not
 * (the same rule as the functional core's `countsAsInstruction`, so instruction-weighted SIMT
 * efficiency from a dump equals the simulator's active-lane counters).
 */
export function isIssuedInstruction(inst: Inst): boolean {
  return inst.op !== 'phi' && inst.op !== 'variable';
}

/**
 * Maps a module source index (`Loc.file`) to the shader's file index (0 = the shader's own file).
 * Without one, every instruction is taken to be in the shader's own file.
 */
export type ShaderFileIndex = (moduleFile: number) => number;

export function blockMetadata(block: Block, fileIndex?: ShaderFileIndex): BlockMetadata {
  const last = block.insts[block.insts.length - 1];
  const issued = block.insts.filter(isIssuedInstruction);
  const meta: BlockMetadata = {
    id: block.id,
    successors: last && isTerminator(last) ? [...new Set(successors(last))] : [],
    opcodes: issued.map(opcodeName),
    lines: issued.map((i) => i.loc.line),
  };
  if (fileIndex) {
    const files = issued.map((i) => fileIndex(i.loc.file));
    // Kept only when some instruction is outside the shader's own file: compact metadata.
    if (files.some((f) => f !== 0)) meta.files = files;
  }
  if (block.name !== undefined) meta.name = block.name;
  return meta;
}

export function functionMetadata(fn: Function, fileIndex?: ShaderFileIndex): FunctionMetadata {
  return { name: fn.name, blocks: fn.blocks.map((b) => blockMetadata(b, fileIndex)) };
}

/** Functions reachable from `root` through calls, root first (call order, each once). */
export function reachableFunctions(m: Module, root: Function): Function[] {
  const byId = new Map(m.functions.map((f) => [f.id as number, f]));
  const out: Function[] = [root];
  const seen = new Set<number>([root.id]);
  for (let k = 0; k < out.length; k++) {
    for (const b of out[k]!.blocks) {
      for (const inst of b.insts) {
        if (inst.op !== 'call' || seen.has(inst.callee)) continue;
        const callee = byId.get(inst.callee);
        if (!callee) continue;
        seen.add(callee.id);
        out.push(callee);
      }
    }
  }
  return out;
}

function fileStem(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  return base === '' ? path : base;
}

/**
 * Adds the metadata of one entry point (its source and the CFG of every function it reaches) and
 * returns the shader index. Names are made unique in the pipeline: the source file name, else
 * `<stage>.<entry name>`, with `#2`, `#3`... on collisions.
 */
export function addShaderMetadata(meta: InstrumentationMetadata, m: Module, entry: EntryPoint, functions: Function[]): number {
  const root = functions[0]!;
  const src = m.sources[root.loc.file] ?? m.sources[0];
  const base = src ? fileStem(src.path) : `${entry.stage}.${entry.name}`;
  let name = base;
  for (let k = 2; meta.shaders.some((s) => s.name === name); k++) name = `${base}#${k}`;
  const shader: ShaderMetadata = {
    index: meta.shaders.length,
    name,
    stage: entry.stage,
    sourcePath: src?.path ?? '',
    sourceText: src?.text ?? '',
    entryFunction: root.name,
    cfg: [],
  };
  // Module source index -> shader file index; the shader's own file is 0, includes follow in
  // order of first use, so only files that hold code of this shader are listed.
  const ownFile = m.sources[root.loc.file] ? root.loc.file : 0;
  const indexOf = new Map<number, number>([[ownFile, 0]]);
  const files: SourceFileMetadata[] = [{ path: shader.sourcePath }];
  const fileIndex: ShaderFileIndex = (f) => {
    let k = indexOf.get(f);
    if (k === undefined) {
      const source = m.sources[f];
      if (!source || source.path === shader.sourcePath) return 0;
      k = files.length;
      indexOf.set(f, k);
      files.push({ path: source.path, text: source.text });
    }
    return k;
  };
  shader.cfg = functions.map((fn) => functionMetadata(fn, fileIndex));
  if (files.length > 1) shader.files = files;
  meta.shaders.push(shader);
  return shader.index;
}

export interface NewSite {
  kind: SiteKind;
  primitive: PrimitiveKind;
  payload: string[];
  shader: number;
  function: string;
  /** The original block's metadata (facts before instrumentation). */
  block: BlockMetadata;
  loc: SourceLocation;
  traceRay?: number;
  /** Types of the payload words when not all u32. */
  payloadTypes?: PayloadType[];
  label?: string;
}

/** Appends a site and returns its inst id. */
export function addSite(meta: InstrumentationMetadata, s: NewSite): number {
  const id = meta.sites.length;
  const site: SiteMetadata = {
    id,
    kind: s.kind,
    primitive: s.primitive,
    entryWords: ENTRY_HEADER_WORDS + s.payload.length,
    fields: [...ENTRY_HEADER_FIELDS, ...s.payload],
    shader: s.shader,
    function: s.function,
    block: s.block.id,
    blockInstCount: s.block.opcodes.length,
    blockLines: [...new Set(s.block.lines.filter((l) => l > 0))].sort((a, b) => a - b),
    loc: s.loc,
  };
  if (s.traceRay !== undefined) site.traceRay = s.traceRay;
  if (s.payloadTypes && s.payloadTypes.some((t) => t !== 'u32')) site.payloadTypes = [...s.payloadTypes];
  if (s.label !== undefined) site.label = s.label;
  meta.sites.push(site);
  return id;
}
