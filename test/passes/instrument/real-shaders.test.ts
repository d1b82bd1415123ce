/**
 * Every utility on real GLSL ray tracing shaders (the built-in workloads, compiled by the front
 * end): the instrumented modules verify and every site names a source line of its shader.
 */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMetadata } from '../../../src/analytics/metadata-reader.js';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';
import { verifyModule } from '../../../src/ir/verify.js';
import { INSTRUMENTATION_MODES } from '../../../src/primitives/buffer-layout.js';
import { instrumentModule } from '../../../src/passes/instrument/instrument-module.js';
import { reachableFunctions } from '../../../src/passes/instrument/metadata.js';

const root = join(import.meta.dirname, '../../../workloads');
const common = join(root, 'common');
const STAGE_EXT = /\.(rgen|rchit|rmiss|rahit|rint|rcall)$/;

for (const workload of ['pt', 'call', 'alpha']) {
  test(`every mode on the ${workload} workload's shaders`, (t) => {
    const dir = join(root, workload);
    const files = readdirSync(dir).filter((f) => STAGE_EXT.test(f)).sort();
    t.true(files.length >= 3);
    for (const file of files) {
      const path = join(dir, file);
      const text = readFileSync(path, 'utf8');
      const compiled = compileGlsl(path, text, { includeDirs: [common] });
      if (!compiled.module) {
        t.fail(`${file} does not compile: ${compiled.diagnostics[0]?.message}`);
        continue;
      }
      for (const mode of INSTRUMENTATION_MODES) {
        const m = structuredClone(compiled.module);
        const meta = instrumentModule(m, mode);
        t.deepEqual(verifyModule(m), [], `${file} --mode ${mode}`);
        for (const s of meta.sites) t.true(s.loc.line > 0, `${file} --mode ${mode}: site ${s.id} (${s.kind}) has a source line`);
        t.notThrows(() => parseMetadata(JSON.stringify(meta)), `${file} --mode ${mode}: metadata.json reads back`);
        if (mode === 'simt') {
          const entry = compiled.module.functions.find((f) => f.id === compiled.module!.entryPoints[0]!.function)!;
          const blocks = reachableFunctions(compiled.module, entry).reduce((n, f) => n + f.blocks.length, 0);
          t.is(meta.sites.length, blocks, `${file}: one simt site per block`);
          t.is(meta.shaders[0]!.sourceText, text);
        }
      }
    }
  });
}
