/**
 * The SPIR-V writer (src/backend/spirv): every built-in workload shader, and every one instrumented
 * by each V-Vision utility (and all of them at once), is written as SPIR-V that
 * `spirv-val --target-env vulkan1.2` accepts (with --scalar-block-layout for modules that declare
 * scalar blocks, which glslang's own output of those shaders needs too).
 */
import test from 'ava';
import { spirvBytes, SpirvWriteError, writeSpirv } from '../../../src/backend/spirv/write-spirv.js';
import { cloneCompiled, compileWorkload, type CompiledWorkload } from '../../../src/driver/compile-workload.js';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import { printModule } from '../../../src/ir/printer.js';
import { instrumentPipeline } from '../../../src/passes/instrument/instrument-module.js';
import { INSTRUMENTATION_MODES } from '../../../src/primitives/buffer-layout.js';
import { existsSync } from 'node:fs';
import { calibrationDir, listBuiltinWorkloads, listCalibrationWorkloads, loadManifest, resolveWorkload } from '../../../src/sim/workload/load-manifest.js';
import { linkPipeline } from '../../../src/passes/lower/rt-pipeline.js';
import { hasSpirvTools, spirvDis, spirvVal, usesScalarLayout } from './spirv-tools.js';

const maybe = hasSpirvTools ? test : test.skip;
if (!hasSpirvTools) console.log('spirv-val / spirv-dis not installed (Debian spirv-tools): SPIR-V validation tests skipped');

const workloads: { name: string; compiled: CompiledWorkload }[] = listBuiltinWorkloads().map((w) => ({ name: w.name, compiled: compileWorkload(loadManifest(w.manifest)) }));

function label(m: CompiledWorkload['modules'][number]): string {
  return m.sources[0]!.path.split('/').slice(-2).join('/');
}

(hasSpirvTools && existsSync(calibrationDir()) ? test : test.skip)('the LumiBench calibration shaders, as they are and instrumented with all utilities, validate', (t) => {
  for (const w of listCalibrationWorkloads()) {
    const base = compileWorkload(loadManifest(resolveWorkload(w.name)));
    const all = cloneCompiled(base);
    instrumentPipeline(all.modules, INSTRUMENTATION_MODES);
    for (const m of [...base.modules, ...all.modules]) t.is(spirvVal(spirvBytes(writeSpirv(m)), true), '', `${w.name} ${label(m)}`);
  }
});

maybe('every workload shader is written as SPIR-V that spirv-val accepts', (t) => {
  let n = 0;
  for (const w of workloads) {
    for (const m of w.compiled.modules) {
      t.is(spirvVal(spirvBytes(writeSpirv(m)), usesScalarLayout(m)), '', label(m));
      n++;
    }
  }
  t.is(n, 53, 'the 53 stage modules of the 12 built-in workloads');
});

for (const mode of [...INSTRUMENTATION_MODES, 'all'] as const) {
  maybe(`every workload shader instrumented with ${mode} validates`, (t) => {
    for (const w of workloads) {
      const c = cloneCompiled(w.compiled);
      instrumentPipeline(c.modules, mode === 'all' ? INSTRUMENTATION_MODES : mode);
      for (const m of c.modules) {
        const bytes = spirvBytes(writeSpirv(m));
        t.is(spirvVal(bytes, usesScalarLayout(m)), '', `${w.name} ${label(m)}`);
      }
    }
  });
}

const tri = workloads.find((w) => w.name === 'tri')!.compiled;

test('header: magic, SPIR-V 1.5 for vulkan1.2 and 1.6 for vulkan1.3, id bound above every IR id', (t) => {
  const m = tri.modules[0]!;
  const a = writeSpirv(m);
  t.is(a[0], 0x07230203);
  t.is(a[1], 0x00010500);
  t.true(a[3]! >= m.nextId);
  t.is(writeSpirv(m, { targetEnv: 'vulkan1.3' })[1], 0x00010600);
});

test('writing does not change the module', (t) => {
  const c = cloneCompiled(tri);
  instrumentPipeline(c.modules, 'its');
  const before = c.modules.map(printModule);
  for (const m of c.modules) writeSpirv(m);
  t.deepEqual(c.modules.map(printModule), before);
});

maybe('debug info: each source file is an OpString + OpSource with its text, instructions carry OpLine', (t) => {
  const m = tri.modules[0]!;
  const dis = spirvDis(spirvBytes(writeSpirv(m)));
  for (const src of m.sources) t.true(dis.includes(`OpString "${src.path}"`), src.path);
  t.regex(dis, /OpSource GLSL 460 %\d+ "\/\/ tri:/);
  t.regex(dis, /OpLine %\d+ \d+ \d+/);
  t.notRegex(spirvDis(spirvBytes(writeSpirv(m, { debugInfo: false }))), /OpLine|OpSource /);
  // spirv-dis of SPIRV-Tools 2023 spells the KHR ray tracing enumerants by their NV aliases.
  t.regex(dis, /OpEntryPoint RayGeneration(KHR|NV) %\d+ "main"/);
  t.regex(dis, /OpDecorate %\d+ BuiltIn LaunchId(KHR|NV)/);
});

maybe('its: a raygen with an early return keeps one exit, written as a run-once loop merging there', (t) => {
  const ao = cloneCompiled(workloads.find((w) => w.name === 'ao')!.compiled);
  instrumentPipeline(ao.modules, 'its');
  const bytes = spirvBytes(writeSpirv(ao.modules[0]!));
  t.is(spirvVal(bytes, true), '');
  const main = new RegExp(`%${ao.modules[0]!.entryPoints[0]!.function} = OpFunction [^]*?OpFunctionEnd`).exec(spirvDis(bytes))![0];
  t.is(main.match(/OpReturn\b/g)?.length, 1, 'one exit');
  t.is(main.match(/OpLoopMerge/g)?.length, 1 + ao.modules[0]!.functions.find((f) => f.id === ao.modules[0]!.entryPoints[0]!.function)!.blocks.filter((b) => b.merge?.kind === 'loop').length, 'the run-once loop around the body');
});

test('a lowered pipeline (rtCall) and a module without one entry point are refused with a reason', (t) => {
  const linked = linkPipeline(cloneCompiled(tri).stages).module;
  const e = t.throws(() => writeSpirv(linked), { instanceOf: SpirvWriteError });
  t.regex(e!.message, /entry point|rtCall/);
  const lib = compileGlsl('lib.rmiss', '#version 460\n#extension GL_EXT_ray_tracing : require\nlayout(location = 0) rayPayloadInEXT vec3 p;\nvoid main() { p = vec3(1.0); }\n');
  const m = lib.module!;
  m.entryPoints = [];
  t.throws(() => writeSpirv(m), { instanceOf: SpirvWriteError, message: /exactly one entry point/ });
});

const BOOL_UBO = `#version 460
#extension GL_EXT_ray_tracing : require
layout(location = 0) rayPayloadInEXT vec4 p;
struct Settings { bool sky; bvec2 flags; float gain; };
layout(set = 0, binding = 3) uniform SettingsBlock { Settings s; };
layout(set = 0, binding = 4) buffer Out { bool seen; Settings copy; } o;
layout(set = 0, binding = 5) uniform sampler2D tex;
void main() {
  Settings local = s;
  o.seen = s.sky || local.flags.y;
  o.copy = local;
  p = s.sky ? texture(tex, vec2(0.5)) : vec4(s.gain);
}
`;

maybe('bools in blocks are stored as u32 and texture() in a hit shader samples LOD 0, as glslang writes them', (t) => {
  const r = compileGlsl('bools.rmiss', BOOL_UBO);
  t.deepEqual(r.diagnostics.filter((d) => d.severity === 'error'), []);
  const bytes = spirvBytes(writeSpirv(r.module!));
  t.is(spirvVal(bytes, false), '');
  const dis = spirvDis(bytes);
  const bool = /%(\d+) = OpTypeBool/.exec(dis)![1];
  const laidOut = [...dis.matchAll(/OpMemberDecorate %(\d+) 0 Offset/g)].map((m) => m[1]!);
  t.true(laidOut.length >= 4);
  for (const id of laidOut) t.notRegex(new RegExp(`%${id} = OpTypeStruct[^\\n]*`).exec(dis)![0], new RegExp(`%${bool}\\b`), 'no bool member in a laid-out struct');
  t.regex(dis, new RegExp(`OpINotEqual %${bool} `));
  t.regex(dis, /OpImageSampleExplicitLod %\d+ %\d+ %\d+ Lod %\d+/);
  t.notRegex(dis, /ImplicitLod/);
});
