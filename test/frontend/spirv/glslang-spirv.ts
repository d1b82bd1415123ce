/**
 * Test helper: a workload's shaders compiled by glslang (`glslangValidator -V -g --target-env
 * vulkan1.2`, with the manifest's include dirs and defines), read back by vvision's SPIR-V reader,
 * arranged as the same pipeline stages as the GLSL front end's modules.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { CompiledWorkload } from '../../../src/driver/compile-workload.js';
import type { SharedPreparation } from '../../../src/driver/run-workload.js';
import { readSpirvFile } from '../../../src/frontend/spirv/read-file.js';
import type { Module } from '../../../src/ir/module.js';
import type { ShaderSource } from '../../../src/sim/workload/manifest.js';

const work = mkdtempSync(join(tmpdir(), 'vv-glslang-spv-'));
let counter = 0;

/** The .spv glslang writes for one manifest shader. */
export function glslangSpirv(src: ShaderSource): string {
  const out = join(work, `${counter++}-${basename(src.file)}.spv`);
  const r = spawnSync('glslangValidator', [
    '-V', '-g', '--target-env', 'vulkan1.2', ...src.includeDirs.map((d) => `-I${d}`),
    ...Object.entries(src.defines).map(([k, v]) => `-D${k}=${v}`), src.file, '-o', out,
  ], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`glslangValidator failed on ${src.file}:\n${r.stdout}`);
  return out;
}

/** The same preparation with every stage module replaced by its glslang-compiled SPIR-V twin. */
export function withGlslangModules(shared: SharedPreparation): SharedPreparation {
  const sources = Object.values(shared.manifest.shaders).flat();
  const twin = new Map<Module, Module>();
  for (const m of shared.compiled.modules) {
    const src = sources.find((s) => s.file === m.sources[0]!.path);
    if (!src) throw new Error(`no manifest shader for ${m.sources[0]!.path}`);
    twin.set(m, readSpirvFile(glslangSpirv(src)));
  }
  const c = (m: Module): Module => twin.get(m)!;
  const s = shared.compiled.stages;
  const compiled: CompiledWorkload = {
    modules: shared.compiled.modules.map(c),
    stages: {
      raygen: c(s.raygen), miss: s.miss.map(c), callables: s.callables.map(c),
      hitGroups: s.hitGroups.map((g) => ({
        ...(g.closestHit ? { closestHit: c(g.closestHit) } : {}), ...(g.anyHit ? { anyHit: c(g.anyHit) } : {}),
        ...(g.intersection ? { intersection: c(g.intersection) } : {}),
      })),
    },
  };
  return { ...shared, compiled };
}
