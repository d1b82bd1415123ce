import { writeFileSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { loadManifest, listBuiltinWorkloads } from '../src/sim/workload/load-manifest.js';
import { compileWorkload } from '../src/driver/compile-workload.js';
import { writeSpirv, spirvBytes } from '../src/backend/spirv/write-spirv.js';
mkdirSync('/tmp/g11/spv', { recursive: true });
let ok = 0, bad = 0;
for (const w of listBuiltinWorkloads()) {
  const c = compileWorkload(loadManifest(w.manifest));
  for (const m of c.modules) {
    const name = `${w.name}-${m.sources[0]!.path.split('/').pop()}`;
    const out = `/tmp/g11/spv/${name}.spv`;
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
console.log('ok', ok, 'bad', bad);
