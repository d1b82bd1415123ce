/**
 * `vvision instrument --emit-spirv DIR`: the instrumented stage modules of a run, as the SPIR-V a
 * Vulkan driver accepts, with what a host (or a Vulkan layer) needs to run them on a GPU and hand
 * the dump back to `vvision report`:
 *
 *   DIR/instrumentation-buffer.json     the buffer's binding, layout, size, and where the dump goes
 *   DIR/spirv/<mode>/<shader>.spv       each instrumented stage module (raygen first)
 *   DIR/runs/<mode>/metadata.json       its static metadata: the same contract as a run directory's
 *
 * The modules written are the very ones the simulator ran (their IR twins, before the pipeline
 * lowering), so a dump taken on a GPU and one written by the simulator read the same way. A GPU
 * run's dump goes to `runs/<mode>/dump.bin` beside the metadata.
 */
import { basename, dirname } from 'node:path';
import { portableManifestPath, portablePath } from '../report/portable-path.js';
import { portableMetadata } from './portable-metadata.js';
import { spirvBytes, writeSpirv } from '../backend/spirv/write-spirv.js';
import type { Module } from '../ir/module.js';
import {
  bufferWordsWithMargin, FIRST_ENTRY_WORD, INSTRUMENTATION_BINDING, INSTRUMENTATION_BUFFER_NAME, INSTRUMENTATION_SET, WARP_ID_COUNT_WORD, WARP_SIZE,
  WORDS_WRITTEN_WORD, type InstrumentationMetadata,
} from '../primitives/buffer-layout.js';
import type { InstrumentResult } from './instrument-workload.js';
import type { FileWriter } from './run-dir.js';

export interface SpirvBinding {
  set: number;
  binding: number;
}

export const DEFAULT_SPIRV_BINDING: SpirvBinding = { set: INSTRUMENTATION_SET, binding: INSTRUMENTATION_BINDING };

export type SpirvTargetEnv = 'vulkan1.2' | 'vulkan1.3' | 'vulkan1.4';

/** The shader's own (set, binding) collides with the one chosen for the instrumentation buffer. */
export class SpirvBindingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpirvBindingError';
  }
}

/** instrumentation-buffer.json */
export interface InstrumentationBufferDescription {
  format: 'vvision-instrumentation-buffer';
  version: 1;
  workload: string;
  manifest: string;
  targetEnv: SpirvTargetEnv;
  descriptorType: 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER';
  set: number;
  binding: number;
  /** GLSL spelling of the block every instrumented module declares there. */
  block: string;
  /** The primitives' ballots are one 32-bit word: the pipeline must run with this subgroup size. */
  requiredSubgroupSize: number;
  /**
   * Vulkan features the modules need beyond Vulkan 1.2 core (VkPhysicalDevice*Features names):
   * rayTracingPipeline, subgroupSizeControl (for the subgroup size), and scalarBlockLayout /
   * bufferDeviceAddress when a shader declares a scalar block / a buffer_reference.
   */
  requiredFeatures: string[];
  /** The buffer must be zero-filled before the launch (a zero buffer is a valid empty dump). */
  zeroInitialise: true;
  words: { warpIdCount: number; wordsWritten: number; firstEntry: number };
  launch: { width: number; height: number };
  modes: {
    mode: string;
    /** Words the simulated twin needed (2 + words written). */
    requiredWords: number;
    /**
     * Words to allocate on a GPU: requiredWords with a margin (bufferWordsWithMargin), since a GPU
     * may run more invocations (extra intersection / any-hit calls) and write more warp entries.
     */
    bufferWords: number;
    shaders: { file: string; stage: string; entryPoint: string; source: string }[];
    metadata: string;
    dump: string;
  }[];
  howToReport: string;
}

/** Writes the SPIR-V of every mode's instrumented modules, their metadata and the buffer description. */
export function emitInstrumentedSpirv(
  w: FileWriter, result: InstrumentResult, binding: SpirvBinding = DEFAULT_SPIRV_BINDING, targetEnv: SpirvTargetEnv = 'vulkan1.2',
): InstrumentationBufferDescription {
  const first = result.runs[0]!;
  const description: InstrumentationBufferDescription = {
    format: 'vvision-instrumentation-buffer',
    version: 1,
    workload: result.workload,
    // Names relative to the manifest, not the absolute paths of the machine that wrote this file.
    manifest: portableManifestPath(first.prepared.manifest.path),
    targetEnv,
    descriptorType: 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER',
    set: binding.set,
    binding: binding.binding,
    block: `layout(set = ${binding.set}, binding = ${binding.binding}, std430) buffer ${INSTRUMENTATION_BUFFER_NAME}_block { uint data[]; } ${INSTRUMENTATION_BUFFER_NAME};`,
    requiredSubgroupSize: WARP_SIZE,
    requiredFeatures: requiredFeatures(result.runs.flatMap((r) => r.prepared.instrumentedModules ?? [])),
    zeroInitialise: true,
    words: { warpIdCount: WARP_ID_COUNT_WORD, wordsWritten: WORDS_WRITTEN_WORD, firstEntry: FIRST_ENTRY_WORD },
    launch: { width: first.prepared.params.width, height: first.prepared.params.height },
    modes: [],
    howToReport:
      'Bind a zero-filled storage buffer of bufferWords 32-bit words (at least requiredWords) at (set, binding) for every stage, run the pipeline, ' +
      'then write the buffer\'s first 2 + data[1] words (little-endian) to runs/<mode>/dump.bin beside runs/<mode>/metadata.json ' +
      'and give that directory, with the run.json of a vvision run of the same workload, to `vvision report`.',
  };
  const manifestDir = dirname(first.prepared.manifest.path);
  // OpString names the source files as metadata.json does: relative to the manifest.
  const sourceName = (path: string) => portablePath(path, manifestDir);
  for (const run of result.runs) {
    const modules = run.prepared.instrumentedModules;
    if (!modules) throw new Error(`the ${run.mode} run kept no instrumented modules`);
    const names = spirvFileNames(modules);
    const shaders: InstrumentationBufferDescription['modes'][number]['shaders'] = [];
    modules.forEach((m, i) => {
      const rebind = rebindInstrumentationBuffer(m, binding);
      const file = `spirv/${run.mode}/${names[i]}`;
      w.write(file, spirvBytes(writeSpirv(m, { targetEnv, rebind, sourceName })));
      const ep = m.entryPoints[0]!;
      shaders.push({ file, stage: ep.stage, entryPoint: ep.name, source: sourceName(m.sources[0]?.path ?? '') });
    });
    const meta: InstrumentationMetadata = { ...portableMetadata(run.metadata, manifestDir), layout: { ...run.metadata.layout, set: binding.set, binding: binding.binding } };
    const metadataFile = `runs/${run.mode}/metadata.json`;
    w.write(metadataFile, JSON.stringify(meta));
    description.modes.push({
      mode: run.mode, requiredWords: FIRST_ENTRY_WORD + run.dump.wordsWritten, bufferWords: bufferWordsWithMargin(FIRST_ENTRY_WORD + run.dump.wordsWritten), shaders, metadata: metadataFile, dump: `runs/${run.mode}/dump.bin`,
    });
  }
  w.write('instrumentation-buffer.json', `${JSON.stringify(description, null, 2)}\n`);
  return description;
}

function requiredFeatures(modules: readonly Module[]): string[] {
  const out = new Set(['rayTracingPipeline', 'subgroupSizeControl']);
  for (const m of modules) {
    for (const t of m.types.types) {
      if (t.kind === 'struct' && t.layout === 'scalar') out.add('scalarBlockLayout');
      if (t.kind === 'pointer' && t.storage === 'physicalStorageBuffer') out.add('bufferDeviceAddress');
    }
  }
  return [...out].sort();
}

/** `<source file name>.spv`, numbered when two stage modules share a file name. */
function spirvFileNames(modules: readonly Module[]): string[] {
  const seen = new Map<string, number>();
  return modules.map((m) => {
    const base = basename(m.sources[0]?.path ?? 'shader');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? `${base}.spv` : `${base}.${n}.spv`;
  });
}

/** The writer's rebind map moving the instrumentation buffer to `binding`; refuses a binding the shader uses. */
function rebindInstrumentationBuffer(m: Module, binding: SpirvBinding): Map<number, SpirvBinding> {
  const buffer = m.globals.find((g) => g.name === INSTRUMENTATION_BUFFER_NAME && g.set === INSTRUMENTATION_SET && g.binding === INSTRUMENTATION_BINDING);
  const out = new Map<number, SpirvBinding>();
  if (!buffer) return out;
  const clash = m.globals.find((g) => g !== buffer && g.set === binding.set && g.binding === binding.binding);
  if (clash) {
    const where = m.sources[clash.loc.file]?.path ?? m.sources[0]?.path ?? '<shader>';
    throw new SpirvBindingError(`${where}:${clash.loc.line}:${clash.loc.column}: '${clash.name}' already uses set ${binding.set} binding ${binding.binding}; choose another --spirv-binding for the instrumentation buffer`);
  }
  out.set(buffer.id, binding);
  return out;
}
