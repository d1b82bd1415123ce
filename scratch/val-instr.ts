import { writeFileSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { loadManifest, listBuiltinWorkloads } from '../src/sim/workload/load-manifest.js';
import { compileWorkload, cloneCompiled } from '../src/driver/compile-workload.js';
import { instrumentPipeline } from '../src/passes/instrument/instrument-module.js';
import { INSTRUMENTATION_MODES } from '../src/primitives/buffer-layout.js';
import { writeSpirv, spirvBytes } from '../src/backend/spirv/write-spirv.js';
mkdirSync('/tmp/g11/ispv', { recursive: true });
let ok = 0, bad = 0;
for (const w of listBuiltinWorkloads()) {
  const base = compileWorkload(loadManifest(w.manifest));
  for (const mode of [...INSTRUMENTATION_MODES, 'all'] as const) {
    const c = cloneCompiled(base);
    instrumentPipeline(c.modules, mode === 'all' ? INSTRUMENTATION_MODES : mode);
    for (const m of c.modules) {
      const name = `${w.name}-${mode}-${m.sources[0]!.path.split('/').pop()}`;
      const out = `/tmp/g11/ispv/${name}.spv`;
      try {
        writeFileSync(out, spirvBytes(writeSpirv(m)));
        execFileSync('spirv-val', ['--target-env', 'vulkan1.2', ...(m.types.types.some((t) => t.kind === 'struct' && t.layout === 'scalar') ? ['--scalar-block-layout'] : []), out], { stdio: 'pipe' });
        ok++;
      } catch (e: any) {
        bad++;
        console.log('FAIL', name, String(e.stderr ?? e.message).slice(0, 400));
      }
    }
  }
}
console.log('ok', ok, 'bad', bad);
