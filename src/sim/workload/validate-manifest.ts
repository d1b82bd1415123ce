/**
 * The manifest validator: untyped JSON (a parsed workload.json) -> `WorkloadManifest`, or the
 * complete list of problems. Two steps: the schema (manifest-schema.ts) parses the JSON and every
 * type, range and key problem becomes a message with its key path, what was expected and what was
 * found (schema-issues.ts); then the checks no schema can say run over the parts it vouched for —
 * files exist, shaders are listed under the stage their role needs, names resolve, keys that only
 * mean something together come together — and defaults are filled in.
 * Invariant: returns a manifest only when `problems` is empty, and then the manifest satisfies
 * every invariant listed in manifest.ts. Never throws on any JSON input.
 */
import { extname, isAbsolute, resolve } from 'node:path';
import { describeJson, existingDirectory, existingFile, isObject, key, newJsonChecks, report, type JsonChecks } from './json-checks.js';
import {
  SHADER_STAGES, STAGE_EXTENSION, type HitGroup, type SbtShaderEntry, type ShaderCompiler, type ShaderSource, type ShaderStage,
  type WorkloadManifest,
} from './manifest.js';
import { placeholderExpression, placeholderProblem } from './run-placeholders.js';
import { namedBufferReferences, readAccelerationStructures } from './acceleration-structures.js';
import { checkedEntries, readBuffers, readDescriptors, readScene } from './validate-resources.js';
import { checkAddressReferences, declaredBufferNames } from './address-references.js';
import { manifestSchema, type ManifestJson } from './manifest-schema.js';
import { parseReporting, type Vouch } from './schema-issues.js';
import { MAX_LAUNCH_INVOCATIONS } from './launch-limits.js';

export interface ManifestValidation {
  manifest?: WorkloadManifest;
  problems: string[];
}

type Shaders = Record<ShaderStage, ShaderSource[]>;
type SbtEntryJson = ManifestJson['miss'][number];

/**
 * `file` is how messages name the manifest; `manifestPath` its absolute path; relative paths in
 * the manifest resolve against `baseDir` (the manifest's directory).
 */
export function validateManifest(json: unknown, file: string, manifestPath: string, baseDir: string): ManifestValidation {
  const c = newJsonChecks(file, baseDir);
  if (!isObject(json)) {
    report(c, '', `expected an object, found ${describeJson(json)}`);
    return { problems: c.problems };
  }
  const v = parseReporting(c, manifestSchema, json);
  const { ok } = v;
  // Read only where `ok` vouches for the shape: there the JSON is what the schema's type says.
  const root = json as ManifestJson;
  const at = (k: keyof ManifestJson): boolean => root[k] !== undefined && ok(k);

  const includeDirs = at('includeDirs') ? existingDirectories(c, root.includeDirs!, 'includeDirs') : [];
  const defines = at('defines') ? defineText(root.defines!) : {};
  const compiler = (at('compiler') && root.compiler) || 'glslangValidator';
  const { shaders, listed } = readShaders(c, root.shaders, v, includeDirs, defines, compiler);
  const ref = (name: string, path: string, stage: ShaderStage): string | undefined => shaderReference(c, name, path, stage, shaders, listed);

  let raygen: string | undefined;
  if (root.raygen !== undefined) raygen = ok('raygen') ? ref(root.raygen, 'raygen', 'raygen') : undefined;
  else if (shaders.raygen.length === 1) raygen = shaders.raygen[0]!.file;
  else if (shaders.raygen.length > 1) report(c, 'raygen', `missing: ${shaders.raygen.length} raygen shaders are listed, name the one to launch`);
  const hitGroups = checkedEntries(root.hitGroups, 'hitGroups', v).map(({ value: g, path }): HitGroup => {
    const type = g.type ?? 'triangles';
    if (type === 'procedural' && g.intersection === undefined) report(c, key(path, 'intersection'), 'procedural hit group needs an intersection shader');
    if (type === 'triangles' && g.intersection !== undefined) {
      report(c, key(path, 'intersection'), 'a triangles hit group cannot have an intersection shader (use "type": "procedural")');
    }
    const group: HitGroup = { type, ...(g.shaderRecord ? { shaderRecord: g.shaderRecord } : {}) };
    for (const role of ['closestHit', 'anyHit', 'intersection'] as const) {
      const shader = g[role] === undefined ? undefined : ref(g[role], key(path, role), role);
      if (shader) group[role] = shader;
    }
    return group;
  });
  const sbt = (list: SbtEntryJson[] | undefined, path: string, stage: ShaderStage): SbtShaderEntry[] =>
    checkedEntries(list, path, v).flatMap(({ value: e, path: p }) => {
      const shader = typeof e === 'string' ? ref(e, p, stage) : ref(e.shader, key(p, 'shader'), stage);
      return !shader ? [] : typeof e !== 'string' && e.shaderRecord ? [{ shader, shaderRecord: e.shaderRecord }] : [{ shader }];
    });
  const miss = sbt(root.miss, 'miss', 'miss');
  const callables = sbt(root.callables, 'callables', 'callable');

  const descriptors = readDescriptors(c, root.descriptors, v);
  const buffers = readBuffers(c, root.buffers, v);
  const scene = at('scene') ? readScene(c, root.scene!, 'scene') : undefined;
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
  const names = declaredBufferNames(c, root);
  checkAddressReferences(c, root, names, modelCount ?? 1, v);
  const accelerationStructures = root.accelerationStructures !== undefined && v.shapeOk('accelerationStructures')
    ? readAccelerationStructures(c, root.accelerationStructures, 'accelerationStructures', v)
    : undefined;
  for (const r of namedBufferReferences(accelerationStructures)) {
    if (!names.has(r.name)) report(c, r.path, `no buffer named "${r.name}" (buffers: ${[...names].join(', ') || 'none: add a "buffers" entry or an "id" to a storage buffer descriptor'})`);
  }
  if (root.perFramePushConstants !== undefined && root.pushConstants === undefined) report(c, 'perFramePushConstants', 'needs "pushConstants" (the values frames change)');
  const launch = at('launch') ? { ...root.launch, depth: root.launch.depth ?? 1 } : undefined;
  const invocations = launch ? launch.width * launch.height * launch.depth : 0;
  if (launch && invocations > MAX_LAUNCH_INVOCATIONS) {
    report(c, 'launch', `${launch.width}x${launch.height}x${launch.depth} is ${invocations} invocations, over ${MAX_LAUNCH_INVOCATIONS} (2^30, Vulkan's maxRayDispatchInvocationCount)`);
  }
  checkPlaceholders(c, root);

  if (c.problems.length > 0) return { problems: c.problems };
  const manifest: WorkloadManifest = {
    path: manifestPath,
    name: root.name,
    description: root.description ?? '',
    shaders,
    raygen: raygen!,
    hitGroups,
    miss,
    callables,
    maxRecursionDepth: root.maxRecursionDepth ?? 1,
    descriptors,
    buffers,
    specConstants: Object.fromEntries(Object.entries(root.specConstants ?? {}).map(([id, v]) => [Number(id), v])),
    launch: launch!,
    spp: root.spp ?? 1,
    bounces: root.bounces ?? 0,
    seed: root.seed ?? 0,
    floatModel: root.floatModel ?? 'ieee',
  };
  if (root.raygenShaderRecord) manifest.raygenShaderRecord = root.raygenShaderRecord;
  if (root.pushConstants) manifest.pushConstants = root.pushConstants;
  if (root.perFramePushConstants) manifest.perFramePushConstants = root.perFramePushConstants;
  if (root.frames !== undefined && root.frames > 1) manifest.frames = root.frames;
  if (accelerationStructures) manifest.accelerationStructures = accelerationStructures;
  if (scene) manifest.scene = scene;
  return { manifest, problems: [] };
}

function existingDirectories(c: JsonChecks, dirs: string[], path: string): string[] {
  return dirs.map((d, i) => existingDirectory(c, d, key(path, i))).filter((d): d is string => d !== undefined);
}

/** Defines as preprocessor text: numbers and booleans are spelled as GLSL spells them. */
function defineText(defines: Record<string, string | number | boolean>): Record<string, string> {
  return Object.fromEntries(Object.entries(defines).map(([k, v]) => [k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v)]));
}

function resolveIn(c: JsonChecks, rel: string): string {
  return isAbsolute(rel) ? rel : resolve(c.baseDir, rel);
}

/**
 * The shaders by stage, and every file listed under each stage whether or not it checked out, so
 * a reference to a listed shader with a problem of its own gets no second, misleading message.
 */
function readShaders(
  c: JsonChecks, stages: ManifestJson['shaders'] | undefined, v: Vouch, includeDirs: string[], defines: Record<string, string>, compiler: ShaderCompiler,
): { shaders: Shaders; listed: Record<ShaderStage, Set<string>> } {
  const shaders = Object.fromEntries(SHADER_STAGES.map((s) => [s, []])) as unknown as Shaders;
  const listed = Object.fromEntries(SHADER_STAGES.map((s) => [s, new Set<string>()])) as Record<ShaderStage, Set<string>>;
  for (const stage of SHADER_STAGES) {
    const list = v.shapeOk('shaders') ? stages?.[stage] : undefined;
    if (!list || !v.shapeOk(key('shaders', stage))) continue;
    list.forEach((entry) => {
      const name = typeof entry === 'string' ? entry : isObject(entry) && typeof entry.file === 'string' ? entry.file : undefined;
      if (name !== undefined) listed[stage].add(resolveIn(c, name));
    });
    for (const { value, path } of checkedEntries(list, key('shaders', stage), v)) {
      const shader = readShaderSource(c, value, path, stage, includeDirs, defines, compiler);
      if (shader) shaders[stage].push(shader);
    }
  }
  return { shaders, listed };
}

function readShaderSource(
  c: JsonChecks, entry: ManifestJson['shaders']['raygen'][number], path: string, stage: ShaderStage, includeDirs: string[],
  defines: Record<string, string>, workloadCompiler: ShaderCompiler,
): ShaderSource | undefined {
  const own = typeof entry === 'string' ? { file: entry } : entry;
  const conventions = own.compiler ?? workloadCompiler;
  const filePath = typeof entry === 'string' ? path : key(path, 'file');
  // glslc takes the stage from -fshader-stage= (here: the list the shader is under) whatever the extension.
  // A SPIR-V module (.spv) says its stage in its entry point; the compiler driver checks it.
  if (conventions !== 'glslc' && extname(own.file) !== STAGE_EXTENSION[stage] && extname(own.file) !== '.spv') {
    report(c, filePath, `a ${stage} shader needs the ${STAGE_EXTENSION[stage]} extension, found ${describeJson(own.file)} (a SPIR-V module may be named .spv; glslc-built sources need "compiler": "glslc")`);
    return undefined;
  }
  const file = existingFile(c, own.file, filePath);
  const ownDirs = own.includeDirs ? existingDirectories(c, own.includeDirs, key(path, 'includeDirs')) : [];
  if (!file) return undefined;
  return { file, stage, defines: { ...defines, ...defineText(own.defines ?? {}) }, includeDirs: [...ownDirs, ...includeDirs], conventions };
}

/** A reference to a listed shader: resolved like a file, then looked up under the required stage. */
function shaderReference(
  c: JsonChecks, name: string, path: string, stage: ShaderStage, shaders: Shaders, listed: Record<ShaderStage, Set<string>>,
): string | undefined {
  const abs = resolveIn(c, name);
  const found = shaders[stage].find((s) => s.file === abs);
  if (found) return found.file;
  if (listed[stage].has(abs)) return undefined; // listed, with a problem of its own already reported
  const elsewhere = SHADER_STAGES.find((s) => s !== stage && listed[s].has(abs));
  report(
    c, path,
    elsewhere
      ? `"${name}" is listed under shaders.${elsewhere}, but this role needs a ${stage} shader`
      : `"${name}" is not listed in shaders.${stage}`,
  );
  return undefined;
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
