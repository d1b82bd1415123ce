import { loadManifest, listBuiltinWorkloads } from '../src/sim/workload/load-manifest.js';
import { compileWorkload } from '../src/driver/compile-workload.js';
const ops = new Map<string, number>(); const types = new Set<string>(); const sc = new Set<string>(); const bi = new Set<string>();
let n = 0;
for (const w of listBuiltinWorkloads()) {
  const c = compileWorkload(loadManifest(w.manifest));
  for (const m of c.modules) {
    n++;
    for (const t of m.types.types) types.add(t.kind + (t.kind==='int'||t.kind==='float' ? t.width : '') + (t.kind==='image'? t.dim+t.format+t.sampled:''));
    for (const g of m.globals) { sc.add(g.storage); if (g.builtin) bi.add(g.builtin); }
    for (const f of m.functions) for (const b of f.blocks) for (const i of b.insts) {
      const k = i.op + ('kind' in i ? '.' + (i as any).kind : '') + ('fn' in i ? '.' + (i as any).fn : '');
      ops.set(k, (ops.get(k) ?? 0) + 1);
    }
  }
}
console.log(n, 'modules');
console.log([...ops.keys()].sort().join(' '));
console.log([...types].join(' '));
console.log([...sc].join(' '));
console.log([...bi].join(' '));
