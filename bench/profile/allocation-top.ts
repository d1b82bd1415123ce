/**
 * Where a simulation allocates: runs one `simulateWorkload` call under V8's sampling heap profiler
 * with collected objects kept (so garbage counts, not only what survives) and prints the
 * allocation sites by sampled bytes, self (the allocating function; a built-in such as `push` is
 * named with its caller) and by source file.
 *
 *   npx tsx bench/profile/allocation-top.ts WORKLOAD W H SPP [config] [entries=25]
 */
import { Session } from 'node:inspector/promises';
import { simulateWorkload } from '../../src/driver/simulate-workload.js';

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

const [workload = 'lumibench-wknd', w = '64', h = '64', spp = '1', config = 'rtx2060', entriesArg = '25'] = process.argv.slice(2);
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true,
});
await simulateWorkload(workload, { config, width: Number(w), height: Number(h), spp: Number(spp) });
const { profile } = await session.post('HeapProfiler.stopSampling') as { profile: { head: SamplingNode } };

const bySite = new Map<string, number>();
const byFile = new Map<string, number>();
let total = 0;
const nameOf = (n: SamplingNode): string => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/src\//, 'src/')}`;
const walk = (n: SamplingNode, parent: SamplingNode | null): void => {
  if (n.selfSize > 0) {
    const builtin = n.callFrame.url === '' && parent !== null;
    const file = (builtin ? parent : n).callFrame.url.replace(/^.*\/src\//, 'src/');
    const site = builtin ? `${n.callFrame.functionName} <- ${nameOf(parent)}` : nameOf(n);
    bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize);
    byFile.set(file, (byFile.get(file) ?? 0) + n.selfSize);
    total += n.selfSize;
  }
  for (const c of n.children) walk(c, n);
};
walk(profile.head, null);
const mb = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MB`;
process.stdout.write(`${mb(total)} sampled allocation\n\n| site | bytes |\n|---|---|\n`);
for (const [k, v] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(entriesArg))) {
  process.stdout.write(`| ${k} | ${mb(v)} (${((100 * v) / total).toFixed(1)}%) |\n`);
}
process.stdout.write(`\nBy file: ${[...byFile].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([f, v]) => `${f} ${((100 * v) / total).toFixed(1)}%`).join(', ')}\n`);
