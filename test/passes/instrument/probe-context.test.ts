/**
 * The ProbeContext a utility places probes with, end to end on a real pipeline: a copy of the
 * `tri` workload whose raygen declares int, float, bool and uvec2 locals. Value probes record
 * them per thread (decoded by the site's payload types), and the selectors (atLine, calls,
 * instructions, traceRays, hasVariable) find the points the shader text says they should.
 */
import test from 'ava';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyse, compileWorkload, instrument, simulate } from '../../../src/api/pipeline.js';
import { dumpEntries } from '../../../src/analytics/dump-entries.js';
import type { Utility } from '../../../src/utilities/utility.js';
import { UtilityError } from '../../../src/utilities/utility-error.js';

const TRI = join(import.meta.dirname, '..', '..', '..', 'workloads', 'tri');
const RAYGEN = `#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "host-device.glsl"
#include "camera.glsl"
layout(set = 0, binding = BINDING_TLAS) uniform accelerationStructureEXT topLevelAS;
layout(set = 0, binding = BINDING_OUTPUT_IMAGE, rgba8) uniform writeonly image2D image;
layout(set = 0, binding = BINDING_CAMERA, std140) uniform _CameraMatrices { CameraMatrices cam; };
layout(location = 0) rayPayloadEXT vec3 hitValue;
void main()
{
  vec3 origin, direction;
  primaryRay(cam, origin, direction);
  int   i   = int(gl_LaunchIDEXT.x) - 5;
  float f   = float(gl_LaunchIDEXT.x) * 0.5;
  bool  odd = (gl_LaunchIDEXT.x & 1u) == 1u;
  uvec2 px  = gl_LaunchIDEXT.xy;
  hitValue = vec3(0.0);
  traceRayEXT(topLevelAS, gl_RayFlagsOpaqueEXT, 0xFF, 0, 0, 0, origin, 0.001, direction, 10000.0, 0);
  imageStore(image, ivec2(px), vec4(hitValue, 1.0));
}
`;
// Line 19 holds `hitValue = vec3(0.0);`: every local above is assigned by then.
const LINE = 19;

function workload(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-probes-'));
  const manifest = JSON.parse(readFileSync(join(TRI, 'workload.json'), 'utf8'));
  manifest.name = 'tri-probes';
  manifest.includeDirs = [join(TRI, '..', 'common')];
  writeFileSync(join(dir, 'raygen.rgen'), RAYGEN);
  for (const f of ['closesthit.rchit', 'miss.rmiss']) copyFileSync(join(TRI, f), join(dir, f));
  writeFileSync(join(dir, 'workload.json'), JSON.stringify(manifest));
  return join(dir, 'workload.json');
}

test('value probes record int, float, bool and uvec2 locals per thread; selectors find calls, lines and instructions', async (t) => {
  const found: Record<string, number> = {};
  const probes: Utility = {
    name: 'probes',
    description: 'test',
    place(ctx) {
      for (const sh of ctx.shaders) {
        if (sh.entry.stage !== 'raygen') continue;
        const at = ctx.atLine(sh, LINE)!;
        t.is(at.line, LINE);
        t.is(at.fn, sh.root);
        t.true(ctx.hasVariable(at.fn, 'odd'));
        t.false(ctx.hasVariable(at.fn, 'even'));
        const point = { fn: at.fn, point: { at: 'before' as const, inst: at.inst.id } };
        for (const v of ['i', 'f', 'odd', 'px', 'hitValue']) ctx.probe({ ...point, kind: `value-${v}`, record: { value: { variable: v } } });
        // The same probe asked twice is placed once.
        t.is(ctx.probe({ ...point, kind: 'value-i', record: { value: { variable: 'i' } } }), ctx.probe({ ...point, kind: 'value-i', record: { value: { variable: 'i' } } }));
        found.calls = ctx.calls(sh).filter((c) => c.callee === 'primaryRay' && c.fn === sh.root).length;
        found.traceRays = ctx.traceRays(sh).length;
        found.imageStores = ctx.instructions(sh, (x) => x.inst.op === 'image' && x.line === LINE + 2).length;
        found.includedLines = ctx.instructions(sh, (x) => x.file.endsWith('camera.glsl')).length;
        for (const c of ctx.calls(sh)) ctx.probe({ fn: c.fn, point: { at: 'before', inst: c.inst }, kind: 'call', record: 'count' });
      }
    },
    analyse: () => ({}),
  };
  const w = await compileWorkload(workload());
  const inst = instrument(w, probes);
  t.deepEqual(found, { calls: 1, traceRays: 1, imageStores: 1, includedLines: found.includedLines });
  t.true(found.includedLines! > 0);
  const site = (k: string) => inst.metadata.sites.find((s) => s.kind === k)!;
  t.deepEqual(site('value-i').payloadTypes, ['i32']);
  t.deepEqual(site('value-f').payloadTypes, ['f32']);
  t.deepEqual(site('value-odd').payloadTypes, ['bool']);
  t.is(site('value-px').payloadTypes, undefined); // all u32
  t.deepEqual(site('value-px').fields.slice(2), ['px.x', 'px.y']);
  t.deepEqual(site('value-hitValue').fields.slice(2), ['hitValue.x', 'hitValue.y', 'hitValue.z']);
  const width = 40;
  const height = 3;
  const run = await simulate(inst, { width, height });
  const { dump } = run.instrumentation!;
  const by = (k: string) => dumpEntries(dump, inst.metadata, (s) => s.kind === k);
  for (const k of ['value-i', 'value-f', 'value-odd', 'value-px']) t.is(by(k).length, width * height, k);
  // Two calls per thread: main -> primaryRay(cam, o, d) -> primaryRay(cam, jitter, o, d) (camera.glsl).
  t.is(by('call').length, 2 * width * height);
  for (const e of by('value-i')) t.is(e.values.i, (e.threadWorkId % width) - 5);
  for (const e of by('value-f')) t.is(e.values.f, (e.threadWorkId % width) * 0.5);
  for (const e of by('value-odd')) t.is(e.values.odd, (e.threadWorkId % width) & 1);
  for (const e of by('value-px')) t.deepEqual([e.values['px.x'], e.values['px.y']], [e.threadWorkId % width, Math.floor(e.threadWorkId / width)]);
  for (const e of by('value-hitValue')) t.deepEqual(e.payload, [0, 0, 0]);
  t.deepEqual(analyse(run).utilities.probes, {});
});

test('a variable the function cannot see, or of a type a word cannot hold, is refused by name', async (t) => {
  const w = await compileWorkload(workload());
  const probe = (variable: string): Utility => ({
    name: 'p', description: '', analyse: () => ({}),
    place(ctx) {
      const sh = ctx.shaders.find((s) => s.entry.stage === 'raygen');
      if (sh) ctx.probe({ ...ctx.blockEntries(sh.root)[0]!, kind: 'v', record: { value: { variable } } });
    },
  });
  t.throws(() => instrument(w, probe('nothere')), { instanceOf: UtilityError, message: "utility 'p' failed in place: no variable 'nothere' in function main or among the module's globals" });
  t.throws(() => instrument(w, probe('topLevelAS')), { instanceOf: UtilityError, message: /'topLevelAS' has type .*; a probe records scalars and vectors/ });
});

test('an IR value probe must dominate its point and a site kind must be a name: both are utility errors', async (t) => {
  const w = await compileWorkload(workload());
  const late: Utility = {
    name: 'late', description: '', analyse: () => ({}),
    place(ctx) {
      const sh = ctx.shaders.find((s) => s.entry.stage === 'raygen');
      if (!sh) return;
      // The imageStore's coordinate is computed after the entry: recording it there breaks dominance.
      const store = ctx.instructions(sh, (x) => x.inst.op === 'image' && x.line === LINE + 2)[0]!;
      const value = (store.inst as { args: number[] }).args[1]!;
      ctx.probe({ ...ctx.blockEntries(sh.root)[0]!, kind: 'late', record: { value: { inst: value as never, name: 'coord' } } });
    },
  };
  t.throws(() => instrument(w, late), { instanceOf: UtilityError, message: /utility 'late' produced invalid IR in .*raygen.rgen/ });
  const spaced: Utility = {
    name: 'spaced', description: '', analyse: () => ({}),
    place(ctx) {
      for (const sh of ctx.shaders) ctx.probe({ ...ctx.blockEntries(sh.root)[0]!, kind: 'two words', record: 'count' });
    },
  };
  t.throws(() => instrument(w, spaced), { instanceOf: UtilityError, message: /site kind 'two words' must match/ });
});
