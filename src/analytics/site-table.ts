/**
 * Typed per-site lookups shared by the analyses, built once from the metadata so hot loops over
 * entries index typed arrays instead of metadata objects. Also the error an analysis throws when
 * it is given a dump from a mode that does not record what it needs.
 *
 * Invariant: every array is indexed by inst id (= `meta.sites` index).
 */
import type { BuiltinSiteKind, InstrumentationMetadata, SiteKind } from '../primitives/buffer-layout.js';

export const enum KindCode {
  Block = 0,
  ShaderEntry = 1,
  EarlyReturn = 2,
  PreTraceRay = 3,
  PostTraceRay = 4,
  SyncPoint = 5,
  WarpId = 6,
  BlockTrace = 7,
  PipelineEntry = 8,
  PipelineExit = 9,
  PreExecuteCallable = 10,
  PostExecuteCallable = 11,
  /** A user utility's own kind: no built-in analysis reads it. */
  Custom = 255,
}

const KIND_CODES: Record<BuiltinSiteKind, KindCode> = {
  block: KindCode.Block,
  shaderEntry: KindCode.ShaderEntry,
  earlyReturn: KindCode.EarlyReturn,
  preTraceRay: KindCode.PreTraceRay,
  postTraceRay: KindCode.PostTraceRay,
  syncPoint: KindCode.SyncPoint,
  warpId: KindCode.WarpId,
  blockTrace: KindCode.BlockTrace,
  pipelineEntry: KindCode.PipelineEntry,
  pipelineExit: KindCode.PipelineExit,
  preExecuteCallable: KindCode.PreExecuteCallable,
  postExecuteCallable: KindCode.PostExecuteCallable,
};

export interface SiteTable {
  kind: Uint8Array;
  shader: Uint32Array;
  blockInstCount: Uint32Array;
  /** 1 when the site's shader is a ray generation shader. */
  raygen: Uint8Array;
  /** traceRay index for traceRay-related sites, else 0. */
  traceRay: Uint32Array;
}

export function siteTable(meta: InstrumentationMetadata): SiteTable {
  const n = meta.sites.length;
  const t: SiteTable = {
    kind: new Uint8Array(n),
    shader: new Uint32Array(n),
    blockInstCount: new Uint32Array(n),
    raygen: new Uint8Array(n),
    traceRay: new Uint32Array(n),
  };
  for (let s = 0; s < n; s++) {
    const site = meta.sites[s]!;
    t.kind[s] = (KIND_CODES as Partial<Record<SiteKind, KindCode>>)[site.kind] ?? KindCode.Custom;
    t.shader[s] = site.shader;
    t.blockInstCount[s] = site.blockInstCount;
    t.raygen[s] = meta.shaders[site.shader]?.stage === 'raygen' ? 1 : 0;
    t.traceRay[s] = site.traceRay ?? 0;
  }
  return t;
}

/** True for sites whose entries are one warp-level execution of a basic block with its ballot. */
export function isBlockExecution(kind: number): boolean {
  return kind === KindCode.Block || kind === KindCode.ShaderEntry;
}

/** Set bits of a 32-bit mask. */
export function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** An analysis was given a dump that lacks the sites it needs (wrong --mode). */
export class AnalysisInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnalysisInputError';
  }
}

/** Throws unless the metadata has at least one site of one of `kinds`. */
export function requireSites(meta: InstrumentationMetadata, analysis: string, kinds: SiteKind[], mode: string): void {
  if (!meta.sites.some((s) => kinds.includes(s.kind))) {
    throw new AnalysisInputError(
      `${analysis} needs ${kinds.join('/')} instrumentation sites, which this run does not have; run with --mode ${mode}`,
    );
  }
}
