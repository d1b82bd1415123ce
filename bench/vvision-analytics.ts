/**
 * V-Vision figures (issue 3, "npm run bench"): analytics time per million dump entries on
 * synthetic dumps, and on real workloads run by the functional core: instrumentation overhead
 * (simulated warp instructions with / without), dump size, simulation time vs analytics time.
 * Prints numbers only; nothing here asserts.
 *
 *   npx tsx bench/vvision-analytics.ts [workload...]     (default workloads: tri)
 */
import * as A from '../src/analytics/index.js';
import {
  ENTRY_HEADER_FIELDS, ENTRY_HEADER_WORDS, FIRST_ENTRY_WORD, WARP_ID_COUNT_WORD, WORDS_WRITTEN_WORD,
  emptyMetadata, type InstrumentationMetadata, type InstrumentationMode, type SiteKind,
} from '../src/primitives/buffer-layout.js';
import { runWorkload } from '../src/driver/run-workload.js';

function time<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const r = f();
  return [r, performance.now() - t0];
}

/** Deterministic xorshift so every run benchmarks the same dump. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

function site(meta: InstrumentationMetadata, kind: SiteKind, shader: number, insts: number, traceRay?: number): number {
  const id = meta.sites.length;
  const payload = kind === 'blockTrace' ? [] : kind === 'warpId' ? ['warp_id'] : ['active_mask'];
  meta.sites.push({
    id, kind, primitive: kind === 'blockTrace' ? 'ThreadUpdate' : kind === 'warpId' ? 'CreateWarpId' : 'WarpUpdate',
    entryWords: ENTRY_HEADER_WORDS + payload.length, fields: [...ENTRY_HEADER_FIELDS, ...payload], shader, function: 'main',
    block: id, blockInstCount: insts, blockLines: [id + 1], loc: { file: '', line: id + 1, column: 1 },
    ...(traceRay !== undefined ? { traceRay } : {}),
  });
  meta.shaders[shader]!.cfg[0]!.blocks.push({ id, successors: [], opcodes: Array.from({ length: insts }, (_, k) => `op${k % 7}`), lines: Array.from({ length: insts }, () => id + 1) });
  return id;
}

/** A synthetic path-tracer-like dump: `warps` warps bouncing up to 8 times, block ballots, traceRay points, exits. */
function syntheticDump(warps: number): { meta: InstrumentationMetadata; words: Uint32Array } {
  const meta = emptyMetadata();
  for (const [i, stage] of (['raygen', 'closestHit', 'miss'] as const).entries()) {
    meta.shaders.push({ index: i, name: stage, stage, sourcePath: '', sourceText: '', entryFunction: 'main', cfg: [{ name: 'main', blocks: [] }] });
  }
  const s = {
    wid: site(meta, 'warpId', 0, 1), entry: site(meta, 'shaderEntry', 0, 20), pipeEntry: site(meta, 'pipelineEntry', 0, 1),
    loop: site(meta, 'block', 0, 12), pre: site(meta, 'preTraceRay', 0, 1, 0), post: site(meta, 'postTraceRay', 0, 1, 0),
    ch: site(meta, 'shaderEntry', 1, 40), chBody: site(meta, 'block', 1, 25), ms: site(meta, 'shaderEntry', 2, 6),
    sync: site(meta, 'syncPoint', 0, 1, 0), early: site(meta, 'earlyReturn', 0, 1), exit: site(meta, 'pipelineExit', 0, 4),
    trace: site(meta, 'blockTrace', 0, 10),
  };
  const words = new Uint32Array(FIRST_ENTRY_WORD + warps * 32 * 60 * 3);
  let at = FIRST_ENTRY_WORD;
  const put = (twi: number, id: number, payload?: number) => {
    words[at++] = twi;
    words[at++] = id;
    if (payload !== undefined) words[at++] = payload >>> 0;
  };
  const rand = rng(7);
  for (let w = 0; w < warps; w++) {
    const base = w * 32;
    for (let l = 0; l < 32; l++) put(base + l, s.wid, w);
    put(base, s.entry, 0xffffffff);
    put(base, s.pipeEntry, 0xffffffff);
    const trips = Array.from({ length: 32 }, () => Math.floor(rand() * 9));
    for (let i = 0; i < 8; i++) {
      let m = 0;
      for (let l = 0; l < 32; l++) if (trips[l]! > i) m |= 1 << l;
      if (m === 0) break;
      const lo = 31 - Math.clz32(m & -m);
      put(base + lo, s.loop, m);
      put(base + lo, s.pre, m);
      const hit = (m & (rand() * 4294967296)) >>> 0;
      const miss = (m & ~hit) >>> 0;
      if (hit) { put(base + 31 - Math.clz32(hit & -hit), s.ch, hit); put(base + 31 - Math.clz32(hit & -hit), s.chBody, hit); }
      if (miss) put(base + 31 - Math.clz32(miss & -miss), s.ms, miss);
      put(base + lo, s.post, m);
      for (let l = 0; l < 32; l++) if ((m >>> l) & 1) put(base + l, s.trace);
    }
    put(base, s.sync, 0xffffffff);
    put(base, s.exit, 0xffffffff);
  }
  words[WARP_ID_COUNT_WORD] = warps;
  words[WORDS_WRITTEN_WORD] = at - FIRST_ENTRY_WORD;
  return { meta, words: words.subarray(0, at) };
}

function synthetic(): void {
  const warps = 16384;
  const { meta, words } = syntheticDump(warps);
  const bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
  A.readDump(bytes, meta); // warm up
  const [dump, readMs] = time(() => A.readDump(bytes, meta));
  const perM = (ms: number) => (ms / dump.entryCount) * 1e6;
  console.log(`synthetic dump: ${warps} warps, ${dump.entryCount} entries, ${(words.byteLength / 1048576).toFixed(1)} MiB`);
  // Each timing gets a fresh Dump: analyses memoise shared passes (warp identity, traceRay
  // executions) per Dump object, which would hide their cost on a second call.
  const analyses: [string, (d: A.Dump) => unknown][] = [
    ['readDump', () => A.readDump(bytes, meta)],
    ['simtEfficiency', (d) => A.simtEfficiency(d, meta)],
    ['hotspots', (d) => A.hotspots(d, meta)],
    ['opcodeCounts', (d) => A.opcodeCounts(d, meta)],
    ['divergenceCharacterization', (d) => A.divergenceCharacterization(d, meta)],
    ['threadCompaction', (d) => A.threadCompaction(d, meta)],
    ['threadPaths', (d) => A.threadPaths(d, meta)],
    ['lifetimes', (d) => A.lifetimes(d, meta)],
    ['itsEvidence', (d) => A.itsEvidence(d, meta)],
    ['workHeatmap', (d) => A.workHeatmap(d, meta, { width: 512, height: 1024 })],
  ];
  void readMs;
  for (const [name, f] of analyses) {
    f(A.readDump(bytes, meta));
    const fresh = A.readDump(bytes, meta);
    const [, ms] = time(() => f(fresh));
    console.log(`  ${name.padEnd(28)} ${ms.toFixed(1).padStart(8)} ms   ${perM(ms).toFixed(1).padStart(8)} ms per million entries`);
  }
}

async function onWorkload(workload: string): Promise<void> {
  const plain = await runWorkload(workload, {});
  console.log(`\nworkload ${workload}: uninstrumented ${plain.counters.warpInsts} warp insts, simulate ${plain.timings.simulate.toFixed(0)} ms`);
  const analyse: Record<InstrumentationMode, (d: A.Dump, m: InstrumentationMetadata) => unknown> = {
    simt: (d, m) => [A.simtEfficiency(d, m), A.hotspots(d, m), A.opcodeCounts(d, m)],
    divergence: (d, m) => A.divergenceCharacterization(d, m),
    paths: (d, m) => [A.threadCompaction(d, m), A.threadPaths(d, m)],
    trace: (d, m) => A.lifetimes(d, m),
    its: (d, m) => A.itsEvidence(d, m),
  };
  let simTotal = 0;
  let anaTotal = 0;
  for (const mode of ['simt', 'divergence', 'paths', 'trace', 'its'] as const) {
    const r = await runWorkload(workload, { instrument: [mode], bufferWords: 1 << 24 });
    const meta = r.metadata!;
    const [, ms] = time(() => {
      const d = A.readDump(r.dump!, meta);
      analyse[mode](d, meta);
      return d;
    });
    const d = A.readDump(r.dump!, meta);
    simTotal += r.timings.simulate;
    anaTotal += ms;
    console.log(
      `  ${mode.padEnd(10)} warp insts x${(r.counters.warpInsts / plain.counters.warpInsts).toFixed(2)}` +
        `  entries ${String(d.entryCount).padStart(8)}  dump ${((d.requiredWords * 4) / 1024).toFixed(0).padStart(6)} KiB` +
        `  simulate ${r.timings.simulate.toFixed(0).padStart(6)} ms  analytics ${ms.toFixed(1).padStart(7)} ms`,
    );
  }
  console.log(`  all modes: analytics ${anaTotal.toFixed(0)} ms = ${((anaTotal / simTotal) * 100).toFixed(1)}% of simulation ${simTotal.toFixed(0)} ms`);
}

synthetic();
for (const w of process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['tri']) await onWorkload(w);
