import test from 'ava';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import { compileProgram } from '../../../src/sim/functional/program.js';

const SHADER = `#version 460
#extension GL_EXT_ray_tracing : require
layout(binding = 0, set = 0) buffer Out { float v[]; } o;
void main() {
  float a = o.v[0];
  for (int i = 0; i < 4; i++) {
    if (a > 1.0) { a = a * 5.0; } else { a = a + 1.0; }
    if (a > 100.0) break;
  }
  o.v[1] = a;
}
`;

test('blocks fall through in NIR\'s structured order: then after the branch, else after then, the merge after both, the loop exit last', (t) => {
  const r = compileGlsl('k.rgen', SHADER);
  if (r.module === undefined) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  const p = compileProgram(r.module);
  const fn = p.functions.find((f) => f.id === r.module!.entryPoints[0]!.function)!;
  const chain: string[] = [];
  let pos = 0;
  for (let k = 0; k < fn.blocks.length && pos >= 0; k++) {
    chain.push(fn.blocks[pos]!.name);
    pos = fn.blocks[pos]!.fallThrough;
  }
  t.deepEqual(chain, ['entry', 'for.header', 'for.cond', 'for.body', 'if.then', 'if.else', 'if.end', 'if.then', 'if.end', 'for.continue', 'for.end']);
});
