/**
 * The manifest validator: untyped JSON (a parsed workload.json) -> `WorkloadManifest`, or the
 * complete list of problems. Hand-written rather than a schema library so each message can say
 * what a Vulkan application author would: the key path, what was expected, what was found.
 * Invariant: returns a manifest only when `problems` is empty, and then the manifest satisfies
 * every invariant listed in manifest.ts. Never throws on any JSON input.
 */
import { extname, isAbsolute, resolve } from 'node:path';
import {
  array, describeJson, existingDirectory, existingFile, isObject, key, newJsonChecks, oneOf,
  nonNegativeInteger, object, onlyKeys, report, string, type JsonChecks,
} from './json-checks.js';
import {
  SHADER_COMPILERS, SHADER_STAGES, STAGE_EXTENSION, type ShaderCompiler, type HitGroup, type LaunchSize, type SbtShaderEntry, type ShaderSource,
  type ShaderStage, type WorkloadManifest, type JsonObject,
} from './manifest.js';
import { placeholderExpression, placeholderProblem } from './run-placeholders.js';
import { namedBufferReferences, readAccelerationStructures } from './acceleration-structures.js';
import { readBuffers, readDescriptors, readJsonObject, readScene } from './validate-resources.js';
import { checkAddressReferences, declaredBufferNames } from './address-references.js';
import { hitGroupSchema, keysOf, launchSchema, manifestSchema, sbtEntrySchema, shaderSourceSchema } from './manifest-schema.js';
import { MAX_LAUNCH_INVOCATIONS } from './launch-limits.js';

/** The top-level keys: the schema's (manifest-schema.ts), so the two cannot drift. */
const TOP_LEVEL_KEYS = keysOf(manifestSchema);

export interface ManifestValidation {
  manifest?: WorkloadManifest;
  problems: string[];
}

/**
 * `file` is how messages name the manifest; `manifestPath` its absolute path; relative paths in
 * the manifest resolve against `baseDir` (the manifest's directory).
 */
export function validateManifest(json: unknown, file: string, manifestPath: string, baseDir: string): ManifestValidation {
  const c = newJsonChecks(file, baseDir);
  const root = object(c, json, '');
  if (!root) return { problems: c.problems };
  onlyKeys(c, root, TOP_LEVEL_KEYS, '');

  const name = root.name === undefined ? undefined : string(c, root.name, 'name');
  if (root.name === undefined) report(c, 'name', 'missing (a short workload name such as "pt")');
  const description = root.description === undefined ? '' : string(c, root.description, 'description') ?? '';

  const includeDirs: string[] = [];
  if (root.includeDirs !== undefined) {
    (array(c, root.includeDirs, 'includeDirs') ?? []).forEach((d, i) => {
      const abs = existingDirectory(c, d, key('includeDirs', i));
      if (abs) includeDirs.push(abs);
    });
  }
  const defines = root.defines === undefined ? {} : readDefines(c, root.defines, 'defines');
  const compiler = root.compiler === undefined ? 'glslangValidator' : oneOf(c, root.compiler, SHADER_COMPILERS, 'compiler') ?? 'glslangValidator';
  const shaders = readShaders(c, root.shaders, includeDirs, defines, compiler);

  const raygen = readRaygen(c, root.raygen, shaders);
  const raygenShaderRecord = root.raygenShaderRecord === undefined ? undefined : readJsonObject(c, root.raygenShaderRecord, 'raygenShaderRecord');
  const hitGroups = readHitGroups(c, root.hitGroups, shaders);
  const miss = readSbtEntries(c, root.miss, 'miss', 'miss', shaders);
  const callables = readSbtEntries(c, root.callables, 'callables', 'callable', shaders);
  if (miss.length === 0 && root.miss === undefined) report(c, 'miss', 'missing (at least one miss shader; traceRayEXT needs a miss index)');

  const maxRecursionDepth = root.maxRecursionDepth === undefined ? 1 : nonNegativeInteger(c, root.maxRecursionDepth, 'maxRecursionDepth', 1);
  const descriptors = readDescriptors(c, root.descriptors);
  const buffers = readBuffers(c, root.buffers);
  const pushConstants = root.pushConstants === undefined ? undefined : readJsonObject(c, root.pushConstants, 'pushConstants');
  const specConstants = readSpecConstants(c, root.specConstants);
  const scene = root.scene === undefined ? undefined : readScene(c, root.scene, 'scene');
  if (root.scene === undefined && root.accelerationStructures === undefined) {
    report(c, 'scene', 'missing (e.g. {"obj": "model.obj"} or {"procedural": "wknd", "seed": 1}; optional when "accelerationStructures" declares the geometry)');
  }
  if (root.scene === undefined) {
    descriptors.forEach((d, i) => {
      if (d.kind === 'storageBuffer' && d.from === 'scene') report(c, key(key('descriptors', i), 'from'), '"scene" needs a "scene" in the manifest, and there is none');
      if (d.kind === 'sampledImages' && d.files === 'scene') report(c, key(key('descriptors', i), 'files'), '"scene" needs a "scene" in the manifest, and there is none');
    });
    buffers.forEach((b) => {
      if (b.content.from === 'scene') report(c, key(b.key, 'from'), '"scene" needs a "scene" in the manifest, and there is none');
    });
  }
  const modelCount = scene?.models?.length;
  if (modelCount !== undefined) [...descriptors.map((d, i) => ({ d, path: key('descriptors', i) })), ...buffers.map((b) => ({ d: b.content, path: b.key }))].forEach(({ d, path }) => {
    if (d.kind === 'storageBuffer' && d.model !== undefined && d.model >= modelCount) {
      report(c, key(path, 'model'), `${d.model} is out of range (the scene has ${modelCount} model${modelCount === 1 ? '' : 's'})`);
    }
  });
  checkAddressReferences(c, root, declaredBufferNames(c, root), modelCount ?? 1);
  const accelerationStructures = root.accelerationStructures === undefined
    ? undefined
    : readAccelerationStructures(c, root.accelerationStructures, 'accelerationStructures');
  if (accelerationStructures) {
    const names = declaredBufferNames(newJsonChecks(file, baseDir), root);
    for (const ref of namedBufferReferences(accelerationStructures)) {
      if (!names.has(ref.name)) report(c, ref.path, `no buffer named "${ref.name}" (buffers: ${[...names].join(', ') || 'none: add a "buffers" entry or an "id" to a storage buffer descriptor'})`);
    }
  }
  const launch = readLaunch(c, root.launch);
  const spp = root.spp === undefined ? 1 : nonNegativeInteger(c, root.spp, 'spp', 1);
  const bounces = root.bounces === undefined ? 0 : nonNegativeInteger(c, root.bounces, 'bounces');
  const seed = root.seed === undefined ? 0 : nonNegativeInteger(c, root.seed, 'seed');
  const floatModel = root.floatModel === undefined ? 'ieee' : oneOf(c, root.floatModel, ['ieee', 'gpu'] as const, 'floatModel');
  const frames = root.frames === undefined ? 1 : nonNegativeInteger(c, root.frames, 'frames', 1);
  let perFramePushConstants: JsonObject[] | undefined;
  if (root.perFramePushConstants !== undefined) {
    if (root.pushConstants === undefined) report(c, 'perFramePushConstants', 'needs "pushConstants" (the values frames change)');
    perFramePushConstants = (array(c, root.perFramePushConstants, 'perFramePushConstants') ?? [])
      .map((v, i) => readJsonObject(c, v, key('perFramePushConstants', i)))
      .filter((v): v is JsonObject => v !== undefined);
  }

  checkPlaceholders(c, root);

  if (c.problems.length > 0) return { problems: c.problems };
  const manifest: WorkloadManifest = {
    path: manifestPath,
    name: name!,
    description,
    shaders,
    raygen: raygen!,
    hitGroups,
    miss,
    callables,
    maxRecursionDepth: maxRecursionDepth!,
    descriptors,
    buffers,
    specConstants,
    launch: launch!,
    spp: spp!,
    bounces: bounces!,
    seed: seed!,
    floatModel: floatModel!,
  };
  if (raygenShaderRecord) manifest.raygenShaderRecord = raygenShaderRecord;
  if (pushConstants) manifest.pushConstants = pushConstants;
  if (perFramePushConstants && perFramePushConstants.length > 0) manifest.perFramePushConstants = perFramePushConstants;
  if (frames !== undefined && frames > 1) manifest.frames = frames;
  if (accelerationStructures) manifest.accelerationStructures = accelerationStructures;
  if (scene) manifest.scene = scene;
  return { manifest, problems: [] };
}

/** Defines as preprocessor text: numbers and booleans are spelled as GLSL spells them. */
function readDefines(c: JsonChecks, v: unknown, path: string): Record<string, string> {
  const out: Record<string, string> = {};
  const obj = object(c, v, path);
  if (!obj) return out;
  for (const [name, value] of Object.entries(obj)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      report(c, key(path, name), 'not a preprocessor identifier');
    } else if (typeof value === 'string') {
      out[name] = value;
    } else if (typeof value === 'number' && Number.isFinite(value)) {
      out[name] = String(value);
    } else if (typeof value === 'boolean') {
      out[name] = value ? '1' : '0';
    } else {
      report(c, key(path, name), `expected a string, number or boolean, found ${describeJson(value)}`);
    }
  }
  return out;
}

function emptyStages(): Record<ShaderStage, ShaderSource[]> {
  return { raygen: [], closestHit: [], anyHit: [], intersection: [], miss: [], callable: [] };
}

function readShaders(
  c: JsonChecks, v: unknown, includeDirs: string[], defines: Record<string, string>, compiler: ShaderCompiler,
): Record<ShaderStage, ShaderSource[]> {
  const out = emptyStages();
  if (v === undefined) {
    report(c, 'shaders', 'missing (shader files by stage: {"raygen": [...], "closestHit": [...], "miss": [...]})');
    return out;
  }
  const obj = object(c, v, 'shaders');
  if (!obj) return out;
  onlyKeys(c, obj, SHADER_STAGES, 'shaders');
  for (const stage of SHADER_STAGES) {
    if (obj[stage] === undefined) continue;
    const path = key('shaders', stage);
    (array(c, obj[stage], path) ?? []).forEach((entry, i) => {
      const shader = readShaderSource(c, entry, key(path, i), stage, includeDirs, defines, compiler);
      if (shader) out[stage].push(shader);
    });
  }
  if (obj.raygen === undefined) report(c, 'shaders.raygen', 'missing (a ray generation shader, .rgen)');
  return out;
}

function readShaderSource(
  c: JsonChecks, v: unknown, path: string, stage: ShaderStage, includeDirs: string[], defines: Record<string, string>,
  workloadCompiler: ShaderCompiler,
): ShaderSource | undefined {
  let fileValue: unknown = v;
  let ownDefines: Record<string, string> = {};
  let ownDirs: string[] = [];
  let conventions = workloadCompiler;
  if (isObject(v)) {
    onlyKeys(c, v, keysOf(shaderSourceSchema), path);
    fileValue = v.file;
    if (v.compiler !== undefined) conventions = oneOf(c, v.compiler, SHADER_COMPILERS, key(path, 'compiler')) ?? conventions;
    if (v.defines !== undefined) ownDefines = readDefines(c, v.defines, key(path, 'defines'));
    if (v.includeDirs !== undefined) {
      ownDirs = (array(c, v.includeDirs, key(path, 'includeDirs')) ?? [])
        .map((d, i) => existingDirectory(c, d, key(key(path, 'includeDirs'), i)))
        .filter((d): d is string => d !== undefined);
    }
    if (fileValue === undefined) {
      report(c, key(path, 'file'), 'missing (the shader file, relative to the manifest)');
      return undefined;
    }
  } else if (typeof v !== 'string') {
    report(c, path, `expected a file name or {"file": ...}, found ${describeJson(v)}`);
    return undefined;
  }
  const filePath = isObject(v) ? key(path, 'file') : path;
  // glslc takes the stage from -fshader-stage= (here: the list the shader is under) whatever the extension.
  // A SPIR-V module (.spv) says its stage in its entry point; the compiler driver checks it.
  if (typeof fileValue === 'string' && conventions !== 'glslc' && extname(fileValue) !== STAGE_EXTENSION[stage] && extname(fileValue) !== '.spv') {
    report(c, filePath, `a ${stage} shader needs the ${STAGE_EXTENSION[stage]} extension, found ${describeJson(fileValue)} (a SPIR-V module may be named .spv; glslc-built sources need "compiler": "glslc")`);
    return undefined;
  }
  const file = existingFile(c, fileValue, filePath);
  if (!file) return undefined;
  return { file, stage, defines: { ...defines, ...ownDefines }, includeDirs: [...ownDirs, ...includeDirs], conventions };
}

/** A reference to a listed shader: resolved like a file, then looked up under the required stage. */
function shaderReference(
  c: JsonChecks, v: unknown, path: string, stage: ShaderStage, shaders: Record<ShaderStage, ShaderSource[]>,
): string | undefined {
  const name = string(c, v, path);
  if (name === undefined) return undefined;
  const found = shaders[stage].find((s) => s.file === resolveIn(c, name));
  if (found) return found.file;
  const elsewhere = SHADER_STAGES.find((s) => s !== stage && shaders[s].some((x) => x.file === resolveIn(c, name)));
  report(
    c, path,
    elsewhere
      ? `"${name}" is listed under shaders.${elsewhere}, but this role needs a ${stage} shader`
      : `"${name}" is not listed in shaders.${stage}`,
  );
  return undefined;
}

function resolveIn(c: JsonChecks, rel: string): string {
  return isAbsolute(rel) ? rel : resolve(c.baseDir, rel);
}

function readRaygen(c: JsonChecks, v: unknown, shaders: Record<ShaderStage, ShaderSource[]>): string | undefined {
  if (v !== undefined) return shaderReference(c, v, 'raygen', 'raygen', shaders);
  if (shaders.raygen.length === 1) return shaders.raygen[0]!.file;
  if (shaders.raygen.length > 1) report(c, 'raygen', `missing: ${shaders.raygen.length} raygen shaders are listed, name the one to launch`);
  return undefined;
}

function readHitGroups(c: JsonChecks, v: unknown, shaders: Record<ShaderStage, ShaderSource[]>): HitGroup[] {
  const out: HitGroup[] = [];
  if (v === undefined) return out;
  (array(c, v, 'hitGroups') ?? []).forEach((entry, i) => {
    const path = key('hitGroups', i);
    const obj = object(c, entry, path);
    if (!obj) return;
    onlyKeys(c, obj, keysOf(hitGroupSchema), path);
    const type = obj.type === undefined ? 'triangles' : obj.type;
    if (type !== 'triangles' && type !== 'procedural') {
      report(c, key(path, 'type'), `expected "triangles" or "procedural", found ${describeJson(type)}`);
      return;
    }
    const group: HitGroup = { type };
    for (const role of ['closestHit', 'anyHit', 'intersection'] as const) {
      if (obj[role] === undefined) continue;
      const file = shaderReference(c, obj[role], key(path, role), role, shaders);
      if (file) group[role] = file;
    }
    if (type === 'procedural' && obj.intersection === undefined) {
      report(c, key(path, 'intersection'), 'procedural hit group needs an intersection shader');
    }
    if (type === 'triangles' && obj.intersection !== undefined) {
      report(c, key(path, 'intersection'), 'a triangles hit group cannot have an intersection shader (use "type": "procedural")');
    }
    if (obj.shaderRecord !== undefined) {
      const record = readJsonObject(c, obj.shaderRecord, key(path, 'shaderRecord'));
      if (record) group.shaderRecord = record;
    }
    out.push(group);
  });
  return out;
}

function readSbtEntries(
  c: JsonChecks, v: unknown, path: string, stage: ShaderStage, shaders: Record<ShaderStage, ShaderSource[]>,
): SbtShaderEntry[] {
  const out: SbtShaderEntry[] = [];
  if (v === undefined) return out;
  (array(c, v, path) ?? []).forEach((entry, i) => {
    const p = key(path, i);
    if (isObject(entry)) {
      onlyKeys(c, entry, keysOf(sbtEntrySchema), p);
      const shader = shaderReference(c, entry.shader, key(p, 'shader'), stage, shaders);
      const record = entry.shaderRecord === undefined ? undefined : readJsonObject(c, entry.shaderRecord, key(p, 'shaderRecord'));
      if (shader) out.push(record ? { shader, shaderRecord: record } : { shader });
    } else {
      const shader = shaderReference(c, entry, p, stage, shaders);
      if (shader) out.push({ shader });
    }
  });
  return out;
}

function readSpecConstants(c: JsonChecks, v: unknown): Record<number, number | boolean> {
  const out: Record<number, number | boolean> = {};
  if (v === undefined) return out;
  const obj = object(c, v, 'specConstants');
  if (!obj) return out;
  for (const [id, value] of Object.entries(obj)) {
    const path = key('specConstants', id);
    if (!/^(0|[1-9][0-9]*)$/.test(id)) {
      report(c, path, 'expected a constant_id (a non-negative integer) as the key');
      continue;
    }
    if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) out[Number(id)] = value;
    else report(c, path, `expected a number or boolean, found ${describeJson(value)}`);
  }
  return out;
}

function readLaunch(c: JsonChecks, v: unknown): LaunchSize | undefined {
  if (v === undefined) {
    report(c, 'launch', 'missing (e.g. {"width": 64, "height": 64})');
    return undefined;
  }
  const obj = object(c, v, 'launch');
  if (!obj) return undefined;
  onlyKeys(c, obj, keysOf(launchSchema), 'launch');
  const width = nonNegativeInteger(c, obj.width, 'launch.width', 1);
  const height = nonNegativeInteger(c, obj.height, 'launch.height', 1);
  const depth = obj.depth === undefined ? 1 : nonNegativeInteger(c, obj.depth, 'launch.depth', 1);
  if (width === undefined || height === undefined || depth === undefined) return undefined;
  if (width * height * depth > MAX_LAUNCH_INVOCATIONS) {
    report(c, 'launch', `${width}x${height}x${depth} is ${width * height * depth} invocations, over ${MAX_LAUNCH_INVOCATIONS} (2^30, Vulkan's maxRayDispatchInvocationCount)`);
    return undefined;
  }
  return { width, height, depth };
}

/**
 * "${...}" strings are run parameters the host substitutes in push constants (so `--spp` reaches
 * the shader); anywhere else they would reach a buffer as text, so they are reported.
 */
function checkPlaceholders(c: JsonChecks, root: Record<string, unknown>): void {
  const visit = (v: unknown, path: string, allowed: boolean): void => {
    if (typeof v === 'string') {
      const expr = placeholderExpression(v);
      if (expr === undefined) return;
      if (!allowed) {
        report(c, path, `run parameter ${v} is only substituted in pushConstants, perFramePushConstants and in uniform buffers' "value", "members" and "perFrame"`);
        return;
      }
      const problem = placeholderProblem(expr);
      if (problem !== undefined) report(c, path, problem);
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => visit(x, key(path, i), allowed));
    } else if (isObject(v)) {
      for (const [k, x] of Object.entries(v)) visit(x, key(path, k), allowed);
    }
  };
  visit(root.pushConstants, 'pushConstants', true);
  visit(root.perFramePushConstants, 'perFramePushConstants', true);
  if (Array.isArray(root.descriptors)) {
    root.descriptors.forEach((d, i) => {
      const uniform = isObject(d) && d.kind === 'uniformBuffer';
      if (!isObject(d)) return;
      for (const [k, x] of Object.entries(d)) visit(x, key(key('descriptors', i), k), uniform && (k === 'value' || k === 'members' || k === 'perFrame'));
    });
  }
  for (const k of ['hitGroups', 'miss', 'callables', 'raygenShaderRecord']) visit(root[k], k, false);
}
