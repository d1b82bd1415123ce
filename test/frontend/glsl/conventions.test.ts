/**
 * glslc's conventions (src/frontend/glsl/conventions.ts and `compileGlsl({conventions: 'glslc'})`):
 * `#include` without GL_GOOGLE_include_directive, `#pragma shader_stage()`, `-std=`, `--target-env=`.
 * glslangValidator's behaviour stays the default.
 */
import test from 'ava';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import { checkTargetEnv, glslcStage, parseStd } from '../../../src/frontend/glsl/conventions.js';
import { formatDiagnostic } from '../../../src/frontend/glsl/diagnostics.js';

const files: Record<string, string> = { 'util.glsl': 'vec3 sky(vec3 d) { return vec3(0.5 * d.y + 0.5); }\n' };
const host = { readFile: (p: string) => files[p.replace(/^\.\//, '')] };
const MISS = '#version 460\n#extension GL_EXT_ray_tracing : require\n#include "util.glsl"\n'
  + 'layout(location = 0) rayPayloadInEXT vec3 p;\nvoid main() { p = sky(gl_WorldRayDirectionEXT); }\n';

function errors(r: ReturnType<typeof compileGlsl>): string[] {
  return r.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
}

test('the default (glslangValidator) rejects #include without the extension at the directive', (t) => {
  const r = compileGlsl('miss.rmiss', MISS, { host, includeDirs: ['.'] });
  t.is(r.module, undefined);
  t.deepEqual(errors(r), ["miss.rmiss:3:1: error: '#include' requires '#extension GL_GOOGLE_include_directive : require' (or enable) before it"]);
});

test('glslc conventions accept #include without the extension, as shaderc does', (t) => {
  const r = compileGlsl('miss.rmiss', MISS, { host, includeDirs: ['.'], conventions: 'glslc' });
  t.deepEqual(errors(r), []);
  t.is(r.module!.entryPoints[0]!.stage, 'miss');
  t.deepEqual(r.module!.sources.map((s) => s.path), ['miss.rmiss', 'util.glsl']);
});

test('glslc: #pragma shader_stage() gives the stage of a .glsl file; an explicit stage overrides it', (t) => {
  const text = MISS.replace('#include', '#pragma shader_stage(closesthit)\n#include').replace('rayPayloadInEXT', 'rayPayloadInEXT');
  const byPragma = compileGlsl('shader.glsl', text, { host, conventions: 'glslc' });
  t.deepEqual(errors(byPragma), []);
  t.is(byPragma.module!.entryPoints[0]!.stage, 'closestHit');
  const byOption = compileGlsl('shader.glsl', text, { host, conventions: 'glslc', stage: 'miss' });
  t.is(byOption.module!.entryPoints[0]!.stage, 'miss');
});

test('glslc: an unknown #pragma shader_stage is located; no stage at all says how to give one', (t) => {
  const bad = compileGlsl('shader.glsl', '#version 460\n#pragma shader_stage(vertex)\nvoid main() {}\n', { conventions: 'glslc' });
  t.deepEqual(errors(bad), ["shader.glsl:2:22: error: unknown shader stage 'vertex' in #pragma shader_stage (expected one of rgen, raygen, rchit, closesthit, rmiss, miss, rahit, anyhit, rint, intersection, rcall, callable, comp, compute)"]);
  const none = compileGlsl('shader.glsl', '#version 460\nvoid main() {}\n', { conventions: 'glslc' });
  t.regex(errors(none)[0]!, /^shader\.glsl:1:1: error: cannot tell the shader stage .*-fshader-stage=<stage>, #pragma shader_stage/);
});

test('glslc: -std= forces __VERSION__ over #version', (t) => {
  const text = '#version 450\n#extension GL_EXT_ray_tracing : require\n#if __VERSION__ != 460\n#error wrong version\n#endif\n'
    + 'layout(location = 0) rayPayloadInEXT vec3 p;\nvoid main() { p = vec3(1.0); }\n';
  t.regex(errors(compileGlsl('m.rmiss', text, {}))[0]!, /#error wrong version/);
  t.deepEqual(errors(compileGlsl('m.rmiss', text, { conventions: 'glslc', forcedVersion: 460 })), []);
});

test('option values: stage names, -std=, --target-env=', (t) => {
  t.is(glslcStage('rgen'), 'raygen');
  t.is(glslcStage('anyhit'), 'anyHit');
  t.is(glslcStage('vertex'), undefined);
  t.is(glslcStage('toString'), undefined);
  t.deepEqual(parseStd('460core').std, { version: 460, profile: 'core' });
  t.deepEqual(parseStd('460').std, { version: 460, profile: 'none' });
  t.regex(parseStd('310es').error!, /es profile has no ray tracing/);
  t.regex(parseStd('450').error!, /need GLSL 460/);
  t.regex(parseStd('latest').error!, /expected a GLSL version/);
  t.is(checkTargetEnv('vulkan1.3').env, 'vulkan1.3');
  t.regex(checkTargetEnv('vulkan1.1').error!, /SPIR-V 1\.4/);
  t.regex(checkTargetEnv('opengl').error!, /unknown or unsupported/);
});
