import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, basename } from 'node:path';
import { readSpirvFile } from '../src/frontend/spirv/read-file.js';
import { readSpirv } from '../src/frontend/spirv/read-module.js';
import { writeSpirv, spirvBytes } from '../src/backend/spirv/write-spirv.js';
import { loadManifest, listBuiltinWorkloads } from '../src/sim/workload/load-manifest.js';
import { verifyModule } from '../src/ir/verify.js';
const work = mkdtempSync(join(tmpdir(), 'vv-rt-'));
const val = (b: Uint8Array, name: string) => { const p = join(work, name); writeFileSync(p, b); const r = spawnSync('spirv-val', ['--target-env', 'vulkan1.2', '--scalar-block-layout', p], { encoding: 'utf8' }); return r.status === 0 ? '' : r.stdout + r.stderr; };
let ok = 0, bad = 0;
for (const w of listBuiltinWorkloads()) {
  const man = loadManifest(w.manifest);
  for (const src of Object.values(man.shaders).flat()) {
    const out = join(work, `${w.name}-${basename(src.file)}.spv`);
    const r = spawnSync('glslangValidator', ['-V', '-g', '--target-env', 'vulkan1.2', ...src.includeDirs.map((d) => `-I${d}`), ...Object.entries(src.defines).map(([k, v]) => `-D${k}=${v}`), src.file, '-o', out], { encoding: 'utf8' });
    if (r.status !== 0) { console.log('glslang fail', src.file); continue; }
    try {
      const m = readSpirvFile(out);
      const errs = verifyModule(m);
      if (errs.length) console.log('VERIFY', w.name, basename(src.file), JSON.stringify(errs).slice(0, 300));
      const b = spirvBytes(writeSpirv(m));
      const v = val(b, `${w.name}-${basename(src.file)}.rt.spv`);
      const m2 = readSpirv('x', b);
      if (v) { bad++; console.log('FAIL', w.name, basename(src.file), v.slice(0, 300)); } else ok++;
      void m2;
    } catch (e) { bad++; console.log('ERR', w.name, basename(src.file), (e as Error).message.slice(0, 300)); }
  }
}
console.log('ok', ok, 'bad', bad);
