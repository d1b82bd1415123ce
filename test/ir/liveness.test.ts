import test from 'ava';
import { compileGlsl } from '../../src/frontend/glsl/compile.js';
import { registersLiveAtTraceRay } from '../../src/ir/liveness.js';

const RGEN = (after: string) => `#version 460
#extension GL_EXT_ray_tracing : require
layout(binding = 0, set = 0) uniform accelerationStructureEXT tlas;
layout(binding = 1, set = 0, rgba8) uniform image2D img;
layout(location = 0) rayPayloadEXT vec3 payload;
void main() {
  vec3 origin = vec3(gl_LaunchIDEXT.xy, 1.0);
  vec4 keep = vec4(float(gl_LaunchIDEXT.x) * 0.5, 1.0, 2.0, 3.0);
  traceRayEXT(tlas, 0, 0xff, 0, 0, 0, origin, 0.001, vec3(0, 0, -1), 100.0, 0);
  ${after}
}
`;

test('registers live across a traceRay: values used after it count, values only used before do not', (t) => {
  const compile = (src: string) => {
    const r = compileGlsl('a.rgen', src);
    if (!r.module) throw new Error(JSON.stringify(r.diagnostics));
    return r.module;
  };
  const none = registersLiveAtTraceRay(compile(RGEN('imageStore(img, ivec2(gl_LaunchIDEXT.xy), vec4(payload, 1.0));')));
  const withKeep = registersLiveAtTraceRay(compile(RGEN('imageStore(img, ivec2(gl_LaunchIDEXT.xy), vec4(payload, 1.0) + keep);')));
  t.true(withKeep >= none + 4, `keeping a vec4 across the trace adds 4 words: ${none} -> ${withKeep}`);
  t.true(withKeep <= none + 8);
});
