import test from 'ava';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import { formatDiagnostic } from '../../../src/frontend/glsl/diagnostics.js';

const files: Record<string, string> = { 'lib.glsl': 'float twice(float x) { return 2.0 * x; }\n' };
const host = { readFile: (p: string) => files[p.replace(/^\.\//, '')] };

function errors(text: string): string[] {
  const r = compileGlsl('main.comp', text, { host, includeDirs: ['.'] });
  return r.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
}

test('#include without GL_GOOGLE_include_directive is rejected at the directive, as glslang does', (t) => {
  t.deepEqual(errors('#version 460\n#include "lib.glsl"\nvoid main() { float y = twice(1.0); }\n'), [
    "main.comp:2:1: error: '#include' requires '#extension GL_GOOGLE_include_directive : require' (or enable) before it",
  ]);
});

test('#include with the extension enabled compiles', (t) => {
  t.deepEqual(errors('#version 460\n#extension GL_GOOGLE_include_directive : enable\n#include "lib.glsl"\nvoid main() { float y = twice(1.0); }\n'), []);
});
