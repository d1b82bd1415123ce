import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, basename } from 'node:path';
import { prepareRun, sharedPreparation, launchOptionsOf } from '../src/driver/run-workload.js';
import { runFunctional } from '../src/sim/functional/launch.js';
import { readSpirvFile } from '../src/frontend/spirv/read-file.js';
import { imageToPng } from '../src/sim/host/image-png.js';
import type { Module } from '../src/ir/module.js';
import { listBuiltinWorkloads } from '../src/sim/workload/load-manifest.js';

const work = mkdtempSync(join(tmpdir(), 'vv-x-'));
const names = process.argv.slice(2).length ? process.argv.slice(2) : listBuiltinWorkloads().map((w) => w.name);
for (const name of names) {
  try {
    const shared = await sharedPreparation(name);
    const sources = Object.values(shared.manifest.shaders).flat();
    const map = new Map<Module, Module>();
    for (const m of shared.compiled.modules) {
      const src = sources.find((s) => s.file === m.sources[0]!.path)!;
      const out = join(work, `${name}-${basename(src.file)}.spv`);
      const r = spawnSync('glslangValidator', ['-V', '-g', '--target-env', 'vulkan1.2', ...src.includeDirs.map((d) => `-I${d}`), ...Object.entries(src.defines).map(([k, v]) => `-D${k}=${v}`), src.file, '-o', out], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stdout);
      map.set(m, readSpirvFile(out));
    }
    const s = shared.compiled.stages;
    const c = (m: Module) => map.get(m)!;
    const spirvShared = { ...shared, compiled: { modules: shared.compiled.modules.map(c), stages: { raygen: c(s.raygen), miss: s.miss.map(c), callables: s.callables.map(c), hitGroups: s.hitGroups.map((g) => ({ ...(g.closestHit ? { closestHit: c(g.closestHit) } : {}), ...(g.anyHit ? { anyHit: c(g.anyHit) } : {}), ...(g.intersection ? { intersection: c(g.intersection) } : {}) })) } } };
    const opts = { width: 32, height: 32 };
    const runOf = async (sh: typeof shared) => { const p = await prepareRun(name, opts, undefined, sh); const counters = runFunctional(p.program, p.host.resources, launchOptionsOf(p, undefined)); return { p, counters }; };
    const a = await runOf(shared);
    const b = await runOf(spirvShared);
    const same = Buffer.from(imageToPng(a.p.host.output!)).equals(Buffer.from(imageToPng(b.p.host.output!)));
    console.log(name, 'image', same ? 'SAME' : 'DIFF', 'threadInsts', a.counters.threadInsts, b.counters.threadInsts, 'rays', a.p.rt.counters.rays, b.p.rt.counters.rays);
  } catch (e) {
    console.log(name, 'ERROR', (e as Error).message.slice(0, 500));
  }
}
