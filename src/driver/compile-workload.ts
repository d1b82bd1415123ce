/**
 * Compiles every shader a workload manifest lists (each file once per set of defines; a `.spv`
 * file is read by the SPIR-V reader, its stage checked against the list it is under) and arranges
 * the modules as the pipeline's stages and shader binding table. Compile errors of all shaders
 * are collected and reported together, each `file:line:col: error: ...`.
 */
import { compileGlsl } from '../frontend/glsl/compile.js';
import { isSpirvPath, readSpirvFile } from '../frontend/spirv/read-file.js';
import { formatDiagnostic, type Diagnostic } from '../frontend/glsl/diagnostics.js';
import { cloneModule } from '../ir/clone.js';
import type { Module } from '../ir/module.js';
import type { PipelineStages } from '../passes/lower/rt-pipeline.js';
import { ManifestError, type ShaderSource, type WorkloadManifest } from '../sim/workload/manifest.js';
import { checkManifestInterfaces, moduleLookup } from '../sim/workload/check-interface.js';
import { checkBlasVertexStrides, checkBufferReferenceLayouts } from '../sim/workload/check-buffer-references.js';

export class ShaderCompileError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'ShaderCompileError';
  }
}

export interface CompiledWorkload {
  stages: PipelineStages;
  /** Every distinct stage module, raygen first (the order instrumentation numbers shaders in). */
  modules: Module[];
}

/**
 * An independent copy (instrumentation rewrites modules in place), so one compilation serves
 * several runs; stages keep pointing at the same copies the module list holds.
 */
export function cloneCompiled(c: CompiledWorkload): CompiledWorkload {
  const copies = new Map(c.modules.map((m) => [m, cloneModule(m)]));
  const copy = (m: Module): Module => copies.get(m)!;
  const s = c.stages;
  return {
    modules: c.modules.map(copy),
    stages: {
      raygen: copy(s.raygen),
      miss: s.miss.map(copy),
      hitGroups: s.hitGroups.map((g) => {
        const out: PipelineStages['hitGroups'][number] = {};
        if (g.closestHit) out.closestHit = copy(g.closestHit);
        if (g.anyHit) out.anyHit = copy(g.anyHit);
        if (g.intersection) out.intersection = copy(g.intersection);
        return out;
      }),
      callables: s.callables.map(copy),
    },
  };
}

/**
 * `onWarning` receives what may be wrong but cannot be proven (a buffer's layout against the
 * buffer_reference type that reads it); by default each is written to stderr as `warning: ...`.
 */
export function compileWorkload(
  manifest: WorkloadManifest, onWarning: (message: string) => void = (w) => process.stderr.write(`warning: ${w}\n`),
): CompiledWorkload {
  const sources = new Map<string, ShaderSource>();
  for (const list of Object.values(manifest.shaders)) for (const s of list) sources.set(s.file, s);
  const compiled = new Map<string, Module>();
  const diagnostics: Diagnostic[] = [];
  const moduleOf = (file: string): Module | undefined => {
    const done = compiled.get(file);
    if (done) return done;
    const src = sources.get(file);
    if (!src) throw new Error(`${manifest.path}: shader ${file} is not listed under shaders`);
    if (isSpirvPath(src.file)) {
      const m = readSpirvFile(src.file);
      const stage = m.entryPoints[0]!.stage;
      if (stage !== src.stage) throw new ManifestError([`${manifest.path}: ${src.file} is a ${stage} module (its OpEntryPoint), but it is listed under shaders.${src.stage}`]);
      compiled.set(file, m);
      return m;
    }
    const r = compileGlsl(src.file, undefined, { includeDirs: src.includeDirs, defines: src.defines, stage: src.stage, conventions: src.conventions });
    diagnostics.push(...r.diagnostics.filter((d) => d.severity === 'error'));
    if (r.module) compiled.set(file, r.module);
    return r.module;
  };
  const raygen = moduleOf(manifest.raygen);
  const miss = manifest.miss.map((e) => moduleOf(e.shader));
  const hitGroups = manifest.hitGroups.map((hg) => ({
    closestHit: hg.closestHit ? moduleOf(hg.closestHit) : undefined,
    anyHit: hg.anyHit ? moduleOf(hg.anyHit) : undefined,
    intersection: hg.intersection ? moduleOf(hg.intersection) : undefined,
  }));
  const callables = manifest.callables.map((e) => moduleOf(e.shader));
  if (diagnostics.length > 0 || !raygen) throw new ShaderCompileError(diagnostics);
  const stages: PipelineStages = {
    raygen,
    miss: miss.map((m) => m!),
    hitGroups: hitGroups.map((g) => {
      const out: PipelineStages['hitGroups'][number] = {};
      if (g.closestHit) out.closestHit = g.closestHit;
      if (g.anyHit) out.anyHit = g.anyHit;
      if (g.intersection) out.intersection = g.intersection;
      return out;
    }),
    callables: callables.map((m) => m!),
  };
  const modules = [raygen, ...[...compiled.values()].filter((m) => m !== raygen)];
  // The manifest must describe what the shaders declare (bindings, kinds, formats, blocks).
  const problems = checkManifestInterfaces(manifest, moduleLookup(manifest, stages));
  if (problems.length > 0) throw new ManifestError(problems);
  for (const w of checkBufferReferenceLayouts(manifest, modules)) onWarning(w);
  for (const w of checkBlasVertexStrides(manifest, modules)) onWarning(w);
  return { stages, modules };
}
