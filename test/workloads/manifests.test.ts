// The built-in workload manifests against their own shaders: every manifest loads, and every
// descriptor binding, push constant block and spec constant a shader declares (as glslang
// compiles it, read back from the SPIR-V with spirv-dis) is described by the manifest with a
// matching kind — the check a Vulkan application's pipeline layout would fail on.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  builtinWorkloadsDir, DEFAULT_WORKLOAD, listBuiltinWorkloads, loadManifest, resolveWorkload,
} from '../../src/sim/workload/load-manifest.js';
import { ManifestError, SHADER_STAGES, type ShaderSource, type WorkloadManifest } from '../../src/sim/workload/manifest.js';

const EXPECTED = ['alpha', 'ao', 'bunny', 'call', 'cornell', 'pt', 'ref', 'rtv6', 'tri'];
const hasTools = spawnSync('glslangValidator', ['--version']).status === 0 && spawnSync('spirv-dis', ['--version']).status === 0;
const tmp = mkdtempSync(join(tmpdir(), 'vv-manifests-'));

test('the nine built-in workloads are listed with descriptions and load without problems', (t) => {
  const list = listBuiltinWorkloads();
  t.deepEqual(list.map((w) => w.name), EXPECTED);
  for (const w of list) {
    t.true(w.description.length > 20, `${w.name} has a description`);
    const m = loadManifest(w.manifest);
    t.is(m.name, w.name);
    t.true(m.launch.width <= 128 && m.launch.height <= 128, `${w.name} launches a small frame by default`);
  }
});

test('resolveWorkload maps names, folders and manifest paths, and names the built-ins when lost', (t) => {
  t.is(resolveWorkload('pt'), join(builtinWorkloadsDir(), 'pt', 'workload.json'));
  t.is(resolveWorkload(join(builtinWorkloadsDir(), 'ao')), join(builtinWorkloadsDir(), 'ao', 'workload.json'));
  t.is(resolveWorkload(join(builtinWorkloadsDir(), 'tri', 'workload.json')), join(builtinWorkloadsDir(), 'tri', 'workload.json'));
  const e = t.throws(() => resolveWorkload('sponza'), { instanceOf: ManifestError });
  t.regex(e!.message, /^sponza: unknown workload \(built-in workloads: alpha, ao, bunny, call, cornell, pt, ref, rtv6, tri;/);
  t.throws(() => resolveWorkload(builtinWorkloadsDir()), { message: /folder has no workload\.json/ });
});

test('the default workload is a small built-in', (t) => {
  const m = loadManifest(resolveWorkload(DEFAULT_WORKLOAD));
  t.true(m.launch.width * m.launch.height * m.spp <= 64 * 64);
});

interface ShaderInterface {
  bindings: { set: number; binding: number; kind: string; format?: string; name: string }[];
  pushConstant: boolean;
  specIds: number[];
}

/** What a pipeline layout needs from one shader, read from glslang's SPIR-V. */
function shaderInterface(s: ShaderSource): ShaderInterface {
  const spv = join(tmp, `${basename(s.file)}.spv`);
  const args = ['--target-env', 'vulkan1.2', '-V', ...s.includeDirs.map((d) => `-I${d}`)];
  for (const [k, v] of Object.entries(s.defines)) args.push(`-D${k}=${v}`);
  const r = spawnSync('glslangValidator', [...args, s.file, '-o', spv], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`glslang failed on ${s.file}:\n${r.stdout}`);
  const dis = spawnSync('spirv-dis', [spv], { encoding: 'utf8' }).stdout;
  const defs = new Map<string, string[]>();
  const sets = new Map<string, number>();
  const bindings = new Map<string, number>();
  const specIds: number[] = [];
  for (const line of dis.split('\n')) {
    const toks = line.trim().split(/\s+/);
    if (toks[1] === '=') defs.set(toks[0]!, toks.slice(2));
    if (toks[0] === 'OpDecorate' && toks[2] === 'DescriptorSet') sets.set(toks[1]!, Number(toks[3]));
    if (toks[0] === 'OpDecorate' && toks[2] === 'Binding') bindings.set(toks[1]!, Number(toks[3]));
    if (toks[0] === 'OpDecorate' && toks[2] === 'SpecId') specIds.push(Number(toks[3]));
  }
  const kindOf = (typeId: string, storage: string): { kind: string; format?: string } => {
    const d = defs.get(typeId) ?? [];
    if (d[0] === 'OpTypeRuntimeArray' || d[0] === 'OpTypeArray') return kindOf(d[1]!, storage);
    if (d[0] === 'OpTypeAccelerationStructureKHR') return { kind: 'accelerationStructure' };
    if (d[0] === 'OpTypeSampledImage') return { kind: 'sampledImages' };
    if (d[0] === 'OpTypeImage') return d[6] === '2' ? { kind: 'storageImage', format: d[7]!.toLowerCase() } : { kind: 'sampledImages' };
    if (storage === 'Uniform') return { kind: 'uniformBuffer' };
    if (storage === 'StorageBuffer') return { kind: 'storageBuffer' };
    return { kind: `unknown ${d.join(' ')}` };
  };
  const out: ShaderInterface = { bindings: [], pushConstant: false, specIds };
  for (const [id, def] of defs) {
    if (def[0] !== 'OpVariable') continue;
    const storage = def[2]!;
    if (storage === 'PushConstant') out.pushConstant = true;
    if (!bindings.has(id)) continue;
    const pointer = defs.get(def[1]!)!;
    out.bindings.push({ set: sets.get(id) ?? 0, binding: bindings.get(id)!, name: id, ...kindOf(pointer[2]!, storage) });
  }
  return out;
}

function allShaders(m: WorkloadManifest): ShaderSource[] {
  return SHADER_STAGES.flatMap((s) => m.shaders[s]);
}

(hasTools ? test : test.skip)('every binding, push constant block and spec constant the shaders declare is described by the manifest', (t) => {
  for (const w of listBuiltinWorkloads()) {
    const m = loadManifest(w.manifest);
    const used = new Set<string>();
    let pushConstant = false;
    const specIds = new Set<number>();
    for (const s of allShaders(m)) {
      const iface = shaderInterface(s);
      const where = `${w.name}/${basename(s.file)}`;
      pushConstant ||= iface.pushConstant;
      iface.specIds.forEach((id) => specIds.add(id));
      for (const b of iface.bindings) {
        used.add(`${b.set}.${b.binding}`);
        const d = m.descriptors.find((x) => x.set === b.set && x.binding === b.binding);
        if (!d) {
          t.fail(`${where}: ${b.name} (set ${b.set}, binding ${b.binding}) has no descriptor in the manifest`);
          continue;
        }
        t.is(d.kind, b.kind as typeof d.kind, `${where}: ${b.name} (set ${b.set}, binding ${b.binding})`);
        if (d.kind === 'storageImage') t.is(d.format, b.format as typeof d.format, `${where}: ${b.name} format`);
      }
    }
    t.is(m.pushConstants !== undefined, pushConstant, `${w.name}: pushConstants present iff a shader declares a push_constant block`);
    for (const id of Object.keys(m.specConstants)) t.true(specIds.has(Number(id)), `${w.name}: specConstants.${id} names a constant_id a shader declares`);
    for (const d of m.descriptors) {
      if (used.has(`${d.set}.${d.binding}`)) continue;
      // Only scene buffers reached through buffer_reference addresses may go unbound.
      t.true(d.kind === 'storageBuffer' && d.from === 'scene', `${w.name}: descriptor set ${d.set} binding ${d.binding} is used by no shader`);
    }
  }
});
