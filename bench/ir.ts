/**
 * IR infrastructure throughput: print, parse, verify, clone, CFG + dominator + post-dominator
 * trees, on every built-in workload shader (compiled by the GLSL front end, not timed) and on a
 * synthetic function with many blocks (diamonds and loops) to show how they scale. Times are CPU
 * milliseconds per call (mean), with throughput in millions of instructions per second.
 * Run: npx tsx bench/ir.ts
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileGlsl } from '../src/frontend/glsl/compile.js';
import { Builder, addFunction } from '../src/ir/builder.js';
import { buildCfg } from '../src/ir/cfg.js';
import { cloneModule } from '../src/ir/clone.js';
import { dominatorTree, postDominatorTree } from '../src/ir/dominators.js';
import type { BlockId, ValueId } from '../src/ir/inst.js';
import { newModule, type Module } from '../src/ir/module.js';
import { printModule } from '../src/ir/printer.js';
import { parseModuleText } from '../src/ir/text-parser.js';
import { verifyModule } from '../src/ir/verify.js';

/**
 * Mean CPU time of `fn` in ms (process user+system time, so other processes on a shared machine
 * do not inflate it the way wall time would), over at least `minMs` of CPU.
 */
function time(fn: () => void, minMs = 200): number {
  fn();
  let n = 0;
  const start = process.cpuUsage();
  let el = 0;
  while (el < minMs) {
    fn();
    n++;
    const d = process.cpuUsage(start);
    el = (d.user + d.system) / 1000;
  }
  return el / n;
}

function instCount(m: Module): number {
  return m.functions.reduce((n, f) => n + f.blocks.reduce((k, b) => k + b.insts.length, 0), 0);
}

function analyses(m: Module): void {
  for (const f of m.functions) {
    const cfg = buildCfg(f);
    dominatorTree(cfg);
    postDominatorTree(cfg);
  }
}

function report(name: string, m: Module): void {
  const insts = instCount(m);
  const text = printModule(m);
  const row = {
    print: time(() => printModule(m)),
    parse: time(() => parseModuleText(text)),
    verify: time(() => verifyModule(m)),
    clone: time(() => cloneModule(m)),
    domTrees: time(() => analyses(m)),
  };
  const cells = Object.entries(row).map(([k, ms]) => `${k} ${ms.toFixed(2)} ms (${((insts / ms) * 1000 / 1e6).toFixed(2)} M inst/s)`);
  console.log(`${name.padEnd(28)} ${String(insts).padStart(6)} insts  ${cells.join('  ')}`);
}

/** `n` diamonds in sequence, every 8th wrapped in a loop; each block does a little arithmetic. */
function synthetic(n: number): Module {
  const m = newModule();
  const b0 = new Builder(m, { id: 0 as never, name: '', returnType: 0 as never, params: [], blocks: [], loc: { file: 0, line: 0, column: 0 } });
  const fn = addFunction(m, { name: 'big', returnType: b0.t.void, params: [{ type: b0.t.u32 }] });
  const b = new Builder(m, fn);
  const x = fn.params[0]!.id;
  let cur = b.createBlock('entry');
  b.setInsertPoint(cur);
  let acc: ValueId = b.emit('copyObject', { value: x }, b.t.u32);
  for (let i = 0; i < n; i++) {
    const loop = i % 8 === 0;
    let header: BlockId | undefined;
    let preheader = cur;
    if (loop) {
      header = b.createBlock();
      b.emitVoid('branch', { target: header });
      cur = header;
      b.setInsertPoint(header);
      preheader = cur;
    }
    const c = b.emit('compare', { kind: 'lt', a: acc, b: b.constU32(i) }, b.t.bool);
    const th = b.createBlock();
    const el = b.createBlock();
    const join = b.createBlock();
    b.emitVoid('condBranch', { cond: c, ifTrue: th, ifFalse: el });
    b.setInsertPoint(th);
    const a1 = b.emit('binary', { kind: 'add', a: acc, b: b.constU32(1) }, b.t.u32);
    b.emitVoid('branch', { target: join });
    b.setInsertPoint(el);
    const a2 = b.emit('binary', { kind: 'mul', a: acc, b: b.constU32(3) }, b.t.u32);
    b.emitVoid('branch', { target: join });
    b.setInsertPoint(join);
    acc = b.emit('phi', { incoming: [{ value: a1, block: th }, { value: a2, block: el }] }, b.t.u32);
    cur = join;
    if (loop && header !== undefined) {
      const exit = b.createBlock();
      const again = b.emit('compare', { kind: 'eq', a: acc, b: b.constU32(0) }, b.t.bool);
      b.emitVoid('condBranch', { cond: again, ifTrue: header, ifFalse: exit });
      b.setInsertPoint(exit);
      cur = exit;
      void preheader;
    }
  }
  b.emitVoid('return', {});
  return m;
}

const WORKLOADS = fileURLToPath(new URL('../workloads/', import.meta.url));
for (const w of readdirSync(WORKLOADS).sort()) {
  const dir = join(WORKLOADS, w);
  if (!statSync(dir).isDirectory()) continue;
  for (const f of readdirSync(dir).sort()) {
    if (!/\.(rgen|rchit|rmiss|rahit|rint|rcall)$/.test(f)) continue;
    const r = compileGlsl(join(dir, f), readFileSync(join(dir, f), 'utf8'), { includeDirs: [join(WORKLOADS, 'common')] });
    if (r.module && instCount(r.module) >= 150) report(`${w}/${f}`, r.module);
  }
}
for (const n of [1000, 10000]) {
  const m = synthetic(n);
  // The synthetic loops' phis are not needed for timing; check the module is valid once.
  const problems = verifyModule(m);
  report(`synthetic ${n} diamonds${problems.length ? ` (${problems.length} problems)` : ''}`, m);
}
