/**
 * vvision as a library: compile the `tri` workload, instrument it with the built-in `simt`
 * utility and a small inline utility (threads entering each shader), simulate a 32x8 launch,
 * analyse, and print a JSON summary. `npm start` after `npx tsc -p .` (or `npm test` in vvision,
 * which runs this project).
 */
import { analyse, compileWorkload, defineUtility, dumpEntries, instrument, simulate, type Utility } from 'vvision';

/** One ThreadUpdate() at the entry of every shader: entries per shader = thread invocations. */
const shaderEntries: Utility = defineUtility({
  name: 'shader-entries',
  description: 'threads entering each shader',
  place(ctx) {
    for (const sh of ctx.shaders) {
      ctx.probe({ ...ctx.blockEntries(sh.root)[0]!, kind: 'shaderEntryCount', record: 'count' });
    }
  },
  analyse({ dump, metadata }) {
    const perShader = new Map<string, number>();
    for (const e of dumpEntries(dump, metadata, (s) => s.kind === 'shaderEntryCount')) {
      const name = metadata.shaders[e.site.shader]!.name;
      perShader.set(name, (perShader.get(name) ?? 0) + 1);
    }
    const rows = [...perShader].map(([name, n]) => [name, n]);
    return { tables: [{ title: 'Thread invocations per shader', header: ['shader', 'threads'], rows }], data: Object.fromEntries(perShader) };
  },
});

const workload = await compileWorkload('tri');
const instrumented = instrument(workload, ['simt', shaderEntries]);
const run = await simulate(instrumented, { width: 32, height: 8 });
const analysis = analyse(run);

console.log(JSON.stringify({
  workload: run.workload,
  threads: run.counters.threads,
  rays: run.rt.rays,
  sites: instrumented.metadata.sites.length,
  dumpEntries: run.instrumentation!.dump.entryCount,
  simtEfficiency: analysis.results.simt!.overall.instructionEfficiency,
  shaderEntries: analysis.utilities['shader-entries']!.data,
}));
