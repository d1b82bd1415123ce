import { compileWorkload } from '../src/driver/compile-workload.js';
import { loadManifest, resolveWorkload } from '../src/sim/workload/load-manifest.js';
import { writeSpirv, spirvBytes } from '../src/backend/spirv/write-spirv.js';
import { readSpirv, SpirvReadError } from '../src/frontend/spirv/read-module.js';
const mods = compileWorkload(loadManifest(resolveWorkload('ao'))).modules.map((m) => writeSpirv(m));
let seed = 1; const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const kinds = new Map<string, number>(); let okc = 0;
for (let i = 0; i < 3000; i++) {
  const w = Uint32Array.from(mods[i % mods.length]!);
  const n = 1 + Math.floor(rnd() * 3);
  for (let k = 0; k < n; k++) { const at = 5 + Math.floor(rnd() * (w.length - 5)); const r = rnd(); w[at] = r < 0.3 ? w[at]! ^ (1 << Math.floor(rnd() * 32)) : r < 0.6 ? Math.floor(rnd() * 300) : w[Math.floor(rnd() * w.length)]!; }
  try { readSpirv('f.spv', spirvBytes(w)); okc++; } catch (e) {
    if (!(e instanceof SpirvReadError)) { console.log('CRASH', i, (e as Error).stack?.split('\n').slice(0, 3).join(' | ')); continue; }
    const key = e.message.replace(/\d+/g, 'N').slice(0, 90); kinds.set(key, (kinds.get(key) ?? 0) + 1);
  }
}
console.log('accepted', okc); console.log([...kinds].sort((a, b) => b[1] - a[1]).slice(0, 12));
