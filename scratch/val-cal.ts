import { writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { loadManifest, resolveWorkload, listCalibrationWorkloads } from '../src/sim/workload/load-manifest.js';
import { compileWorkload, cloneCompiled } from '../src/driver/compile-workload.js';
import { instrumentPipeline } from '../src/passes/instrument/instrument-module.js';
import { INSTRUMENTATION_MODES } from '../src/primitives/buffer-layout.js';
import { writeSpirv, spirvBytes } from '../src/backend/spirv/write-spirv.js';
import { readSpirv } from '../src/frontend/spirv/read-module.js';
import { verifyModule } from '../src/ir/verify.js';
let ok = 0, bad = 0;
for (const w of listCalibrationWorkloads()) {
  const base = compileWorkload(loadManifest(resolveWorkload(w.name)));
  for (const mode of ['none', ...INSTRUMENTATION_MODES] as const) {
    const c = cloneCompiled(base);
    if (mode !== 'none') instrumentPipeline(c.modules, mode);
    for (const m of c.modules) {
      const out = `/tmp/g11/cal.spv`;
      try {
        const b = spirvBytes(writeSpirv(m));
        writeFileSync(out, b);
        execFileSync('spirv-val', ['--target-env', 'vulkan1.2', '--scalar-block-layout', out], { stdio: 'pipe' });
        const again = readSpirv('x', b); const e = verifyModule(again); if (e.length) throw new Error('verify ' + e[0]);
        ok++;
      } catch (e: any) { bad++; console.log('FAIL', w.name, mode, m.sources[0]!.path, String(e.stderr ?? e.message).slice(0, 300)); }
    }
  }
}
console.log('ok', ok, 'bad', bad);
