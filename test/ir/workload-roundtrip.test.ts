/**
 * The text form and the verifier on real shaders: every built-in workload shader is compiled by
 * the GLSL front end, must verify, and must survive print -> parse -> print unchanged.
 */
import test from 'ava';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileGlsl } from '../../src/frontend/glsl/compile.js';
import { cloneModule } from '../../src/ir/clone.js';
import { printModule } from '../../src/ir/printer.js';
import { parseModuleText } from '../../src/ir/text-parser.js';
import { verifyModule } from '../../src/ir/verify.js';

const WORKLOADS = fileURLToPath(new URL('../../workloads/', import.meta.url));
const SHADER = /\.(rgen|rchit|rmiss|rahit|rint|rcall)$/;

function shaders(): { path: string; includeDirs: string[] }[] {
  const out: { path: string; includeDirs: string[] }[] = [];
  for (const w of readdirSync(WORKLOADS).sort()) {
    const dir = join(WORKLOADS, w);
    if (!statSync(dir).isDirectory()) continue;
    let includeDirs = [join(WORKLOADS, 'common')];
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'workload.json'), 'utf8')) as { includeDirs?: string[] };
      if (manifest.includeDirs) includeDirs = manifest.includeDirs.map((d) => join(dir, d));
    } catch {
      // no manifest: the shared include directory
    }
    for (const f of readdirSync(dir).sort()) if (SHADER.test(f)) out.push({ path: join(dir, f), includeDirs });
  }
  return out;
}

const all = shaders();

test('there are workload shaders to check', (t) => {
  t.true(all.length >= 10, `found ${all.length}`);
});

for (const { path, includeDirs } of all) {
  const name = path.slice(WORKLOADS.length);
  test(`${name}: verifies and round-trips through the text form`, (t) => {
    const r = compileGlsl(path, readFileSync(path, 'utf8'), { includeDirs });
    if (!r.module) {
      t.fail(`front end failed: ${r.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).slice(0, 3).join('; ')}`);
      return;
    }
    t.deepEqual(verifyModule(r.module), []);
    const text = printModule(r.module);
    const back = parseModuleText(text);
    t.is(printModule(back), text);
    t.deepEqual(verifyModule(back), []);
    t.is(printModule(cloneModule(r.module)), text);
  });
}
