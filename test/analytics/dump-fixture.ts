/**
 * Hand-built instrumentation metadata and dumps for analytics tests: a JS model of the
 * primitives' semantics (paper 003 Fig. 3-5) writing into a Uint32Array laid out as
 * buffer-layout.ts says, so tests state warps and masks and check hand-computed answers.
 */
import {
  ENTRY_HEADER_FIELDS,
  ENTRY_HEADER_WORDS,
  FIRST_ENTRY_WORD,
  WARP_ID_COUNT_WORD,
  WORDS_WRITTEN_WORD,
  emptyMetadata,
  type InstrumentationMetadata,
  type PrimitiveKind,
  type ShaderStage,
  type SiteKind,
} from '../../src/primitives/buffer-layout.js';

export interface SiteSpec {
  kind: SiteKind;
  shader: number;
  /** Original block instruction count (default 1). */
  insts?: number;
  opcodes?: string[];
  lines?: number[];
  line?: number;
  traceRay?: number;
  block?: number;
  /** Shader file index of each instruction (BlockMetadata.files; see FixtureMeta.include). */
  files?: number[];
  /** Path of the site's location (default '' = the shader's own file). */
  file?: string;
}

const PRIMITIVE: Record<SiteKind, PrimitiveKind> = {
  block: 'WarpUpdate', shaderEntry: 'WarpUpdate', earlyReturn: 'WarpUpdate', preTraceRay: 'WarpUpdate',
  postTraceRay: 'WarpUpdate', syncPoint: 'WarpUpdate', pipelineEntry: 'WarpUpdate', pipelineExit: 'WarpUpdate',
  warpId: 'CreateWarpId', blockTrace: 'ThreadUpdate', preExecuteCallable: 'WarpUpdate', postExecuteCallable: 'WarpUpdate',
};

export class FixtureMeta {
  readonly meta: InstrumentationMetadata = emptyMetadata();

  shader(stage: ShaderStage, name: string, sourceText = ''): number {
    const index = this.meta.shaders.length;
    this.meta.shaders.push({ index, name, stage, sourcePath: `${name}.glsl`, sourceText, entryFunction: 'main', cfg: [] });
    return index;
  }

  /** Adds an #included file to a shader and returns its file index. */
  include(shader: number, path: string, text: string): number {
    const sh = this.meta.shaders[shader]!;
    sh.files ??= [{ path: sh.sourcePath }];
    sh.files.push({ path, text });
    return sh.files.length - 1;
  }

  site(spec: SiteSpec): number {
    const id = this.meta.sites.length;
    const primitive = PRIMITIVE[spec.kind];
    const payload = primitive === 'ThreadUpdate' ? [] : primitive === 'CreateWarpId' ? ['warp_id'] : ['active_mask'];
    const insts = spec.insts ?? spec.opcodes?.length ?? 1;
    const block = spec.block ?? id;
    this.meta.sites.push({
      id,
      kind: spec.kind,
      primitive,
      entryWords: ENTRY_HEADER_WORDS + payload.length,
      fields: [...ENTRY_HEADER_FIELDS, ...payload],
      shader: spec.shader,
      function: 'main',
      block,
      blockInstCount: insts,
      blockLines: spec.lines ? [...new Set(spec.lines)].filter((l) => l > 0).sort((a, b) => a - b) : spec.line ? [spec.line] : [],
      loc: { file: spec.file ?? '', line: spec.line ?? spec.lines?.[0] ?? 0, column: 1 },
      ...(spec.traceRay !== undefined ? { traceRay: spec.traceRay } : {}),
    });
    const sh = this.meta.shaders[spec.shader]!;
    if (sh.cfg.length === 0) sh.cfg.push({ name: 'main', blocks: [] });
    if (!sh.cfg[0]!.blocks.some((b) => b.id === block)) {
      sh.cfg[0]!.blocks.push({
        id: block,
        successors: [],
        opcodes: spec.opcodes ?? Array.from({ length: insts }, () => 'binary.add'),
        lines: spec.lines ?? Array.from({ length: insts }, () => spec.line ?? 0),
        ...(spec.files ? { files: spec.files } : {}),
      });
    }
    return id;
  }
}

/** Lowest set lane of a mask (the lane subgroupElect picks). */
function lowestLane(mask: number): number {
  return 31 - Math.clz32(mask & -mask);
}

/** A JS model of ThreadUpdate / WarpUpdate / CreateWarpId over one buffer. */
export class DumpWriter {
  readonly buf: Uint32Array;

  constructor(readonly meta: InstrumentationMetadata, capacityWords = 1 << 16) {
    this.buf = new Uint32Array(capacityWords);
  }

  threadUpdate(twi: number, site: number, ...payload: number[]): void {
    const size = this.meta.sites[site]!.entryWords;
    if (payload.length + ENTRY_HEADER_WORDS !== size) throw new Error(`site ${site} takes ${size - 2} payload words`);
    const i = this.buf[WORDS_WRITTEN_WORD]!;
    this.buf[WORDS_WRITTEN_WORD] = i + size;
    const at = FIRST_ENTRY_WORD + i;
    if (at + size > this.buf.length) return;
    this.buf[at] = twi;
    this.buf[at + 1] = site;
    payload.forEach((p, k) => (this.buf[at + 2 + k] = p >>> 0));
  }

  /** WarpUpdate(subgroupBallot(true)) by the lanes in `mask` of a warp whose lane l has thread-work id base + l. */
  warpBallot(base: number, mask: number, site: number): void {
    this.threadUpdate(base + lowestLane(mask), site, mask >>> 0);
  }

  /** CreateWarpId by the lanes in `mask`; returns the warp id. */
  createWarpId(base: number, mask: number, site: number): number {
    const warp = this.buf[WARP_ID_COUNT_WORD]!;
    this.buf[WARP_ID_COUNT_WORD] = warp + 1;
    for (let l = 0; l < 32; l++) if ((mask >>> l) & 1) this.threadUpdate(base + l, site, warp);
    return warp;
  }

  /** ThreadUpdate() by every lane in `mask`. */
  threadsUpdate(base: number, mask: number, site: number): void {
    for (let l = 0; l < 32; l++) if ((mask >>> l) & 1) this.threadUpdate(base + l, site);
  }

  bytes(): Uint8Array {
    return new Uint8Array(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }
}

export const FULL = 0xffffffff;
/** Mask of lanes [lo, hi). */
export function lanes(lo: number, hi: number): number {
  let m = 0;
  for (let l = lo; l < hi; l++) m |= 1 << l;
  return m >>> 0;
}

/** Per-lane bounce counts -> the masks of iterations 0, 1, 2... */
export function iterationMasks(trips: (lane: number) => number): number[] {
  const out: number[] = [];
  for (let i = 0; ; i++) {
    let m = 0;
    for (let l = 0; l < 32; l++) if (trips(l) > i) m |= 1 << l;
    if (m === 0) return out;
    out.push(m >>> 0);
  }
}

/**
 * A `--mode paths` dump of Fig. 9's inner loop: warp k (full, 32 lanes) bounces lane l
 * `tripsPerWarp[k](l)` times, then reaches the sync point. `arrival`: the order the warps draw
 * their warp ids and write (default launch order), as a GPU may schedule them.
 */
export function bounceLoopDump(
  tripsPerWarp: ((lane: number) => number)[], arrival?: readonly number[],
): { meta: InstrumentationMetadata; words: Uint8Array } {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg');
  const wid = f.site({ kind: 'warpId', shader: rg });
  const entry = f.site({ kind: 'pipelineEntry', shader: rg });
  const pre = f.site({ kind: 'preTraceRay', shader: rg, traceRay: 0 });
  const sync = f.site({ kind: 'syncPoint', shader: rg, traceRay: 0 });
  const w = new DumpWriter(f.meta);
  for (const k of arrival ?? tripsPerWarp.map((_, i) => i)) {
    const trips = tripsPerWarp[k]!;
    w.createWarpId(k * 32, FULL, wid);
    w.warpBallot(k * 32, FULL, entry);
    for (const m of iterationMasks(trips)) w.warpBallot(k * 32, m, pre);
    w.warpBallot(k * 32, FULL, sync);
  }
  return { meta: f.meta, words: w.bytes() };
}
