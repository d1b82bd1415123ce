import test from 'ava';
import { loadConfig, type GpuConfig } from '../../../src/sim/config/gpu-config.js';
import { simulate } from '../../../src/sim/timing/gpu.js';
import { TimelineRecorder, threadIdBase, type TimelineOptions } from '../../../src/sim/timing/timeline.js';
import { timelineJson } from '../../../src/sim/timing/timeline-json.js';
import type { TimingWarp } from '../../../src/sim/timing/sm.js';
import { TimingDeadlockError } from '../../../src/sim/timing/watchdog.js';
import { ScriptedWarp, aluStep, chaseStep, loadStep, traversalWorkload } from './synthetic-warp.js';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  cat?: string;
  s?: string;
  args?: Record<string, number | string>;
}
interface Trace {
  traceEvents: TraceEvent[];
  otherData: { cycles: number; window: { start: number; end: number }; truncatedAt: number | null; counterIntervalCycles: number };
}

const ONE_SM = ['gpgpu_n_clusters=1'];

function record(warps: () => TimingWarp[], cfg: GpuConfig, opts: TimelineOptions = {}) {
  const rec = new TimelineRecorder({ numSms: cfg.numSms, maxWarpsPerSm: cfg.maxWarpsPerSm, rtMaxWarps: cfg.rt.maxWarps, warpSize: cfg.warpSize, ctaSize: 1 }, opts);
  const stats = simulate(warps(), cfg, { timeline: rec });
  const chunks = [...timelineJson(rec, {}, 4096)];
  const trace = JSON.parse(chunks.join('')) as Trace;
  return { rec, stats, trace, chunks };
}

const slices = (tr: Trace, name?: string | RegExp) =>
  tr.traceEvents.filter((e) => e.ph === 'X' && (name === undefined || (typeof name === 'string' ? e.name === name : name.test(e.name))));
const sum = (es: TraceEvent[], f: (e: TraceEvent) => number) => es.reduce((n, e) => n + f(e), 0);
const warpInsts = (tr: Trace) => sum(slices(tr, 'issue'), (e) => e.args!.warpInsts as number);

/** Slices on one thread must nest (Perfetto and chrome://tracing draw them as a stack). */
function assertNested(t: { true(c: boolean, m?: string): void }, tr: Trace): void {
  const byTrack = new Map<string, TraceEvent[]>();
  for (const e of slices(tr)) {
    const k = `${e.pid}/${e.tid}`;
    if (!byTrack.has(k)) byTrack.set(k, []);
    byTrack.get(k)!.push(e);
  }
  let bad = 0;
  for (const es of byTrack.values()) {
    const stack: TraceEvent[] = [];
    for (const e of es) {
      while (stack.length > 0 && e.ts >= stack.at(-1)!.ts + stack.at(-1)!.dur!) stack.pop();
      const top = stack.at(-1);
      if (top && e.ts + e.dur! > top.ts + top.dur!) bad++;
      stack.push(e);
    }
  }
  t.true(bad === 0, `${bad} slices overlap a slice they do not nest in`);
}

test('a pointer chase shows as issue and memory-wait slices inside the warp slice, agreeing with the stats', (t) => {
  const cfg = loadConfig('mobile', ONE_SM);
  const hops = 12;
  const { stats, trace } = record(() => [new ScriptedWarp(Array.from({ length: hops }, (_, i) => chaseStep(0x100000 + i * 40960)))], cfg);
  const cycles = stats.values.gpu_sim_cycle!;
  t.is(trace.otherData.cycles, cycles);
  t.is(warpInsts(trace), stats.values.gpu_warp_insn);
  t.is(sum(slices(trace, 'issue'), (e) => e.args!.threadInsts as number), stats.values.gpu_sim_insn);
  const warp = slices(trace, /^warp /);
  t.is(warp.length, 1);
  t.true(warp[0]!.ts + warp[0]!.dur! <= cycles);
  // Each hop: one issue cycle, then a wait as long as a DRAM round trip; the last hop's wait ends the warp.
  const waits = slices(trace, 'wait: memory');
  t.is(waits.length, hops);
  for (const w of waits) t.true(w.dur! > 200 && w.dur! < 2000, `wait of ${w.dur} cycles`);
  t.is(waits.at(-1)!.ts + waits.at(-1)!.dur!, warp[0]!.ts + warp[0]!.dur!);
  t.is(trace.traceEvents.filter((e) => e.ph === 'i' && e.name === 'CTA 0 launch').length, 1);
  // Metadata names the SM and the warp slot.
  t.true(trace.traceEvents.some((e) => e.ph === 'M' && e.name === 'process_name' && e.args!.name === 'SM 0' && e.pid === 1));
  t.true(trace.traceEvents.some((e) => e.ph === 'M' && e.name === 'thread_name' && e.args!.name === 'warp slot 0' && e.pid === 1 && e.tid === 101));
  assertNested(t, trace);
});

test('recording a timeline does not change the simulation', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=2']);
  const plain = simulate(traversalWorkload(12, 2, 8, 1 << 18, 5), cfg);
  const { stats } = record(() => traversalWorkload(12, 2, 8, 1 << 18, 5), cfg);
  const strip = (v: Record<string, number>) => Object.fromEntries(Object.entries(v).filter(([k]) => !/rate|wall/.test(k)));
  t.deepEqual(strip(stats.values), strip(plain.values));
});

test('RT-unit slices match the RT stats and the warps\' time in the RT unit', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=2']);
  const { rec, stats, trace } = record(() => traversalWorkload(12, 2, 8, 1 << 18, 5), cfg);
  const n = cfg.maxWarpsPerSm;
  const local = (e: TraceEvent) => e.tid - threadIdBase(rec.layout, e.pid - 1);
  const rt = slices(trace).filter((e) => e.cat === 'rt');
  t.is(rt.length, stats.values.rt_total_warps);
  t.true(rt.every((e) => local(e) >= n && local(e) < n + cfg.rt.maxWarps && e.name === `warp ${e.args!.warp}`));
  t.true(Math.abs(sum(rt, (e) => e.dur!) - stats.values.rt_avg_warp_latency! * stats.values.rt_total_warps!) < 1e-6);
  t.is(sum(rt, (e) => e.args!.rays as number), stats.values.rt_total_rays);
  // The warp's own track shows the same interval as "in RT unit" (from the cycle after the
  // traceRay's issue cycle when it entered the RT unit as it issued).
  const inRt = new Map(slices(trace, 'in RT unit').map((e) => [`${e.pid}/${local(e)}/${e.ts + e.dur!}`, e.ts]));
  t.is(inRt.size, rt.length);
  for (const e of rt) {
    const start = inRt.get(`${e.pid}/${e.args!.smSlot}/${e.ts + e.dur!}`);
    t.true(start === e.ts || start === e.ts + 1, `traversal of warp ${e.args!.warp} at ${e.ts}: in RT unit from ${start}`);
  }
  t.is(warpInsts(trace), stats.values.gpu_warp_insn);
  t.is(slices(trace, /^warp /).filter((e) => e.cat === 'warp').length, 12);
  assertNested(t, trace);
});

test('counter tracks add up to the run\'s instructions and L1D / L2 misses', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=2']);
  const { stats, trace } = record(() => traversalWorkload(12, 2, 8, 1 << 18, 5), cfg, { counterInterval: 500 });
  const cycles = stats.values.gpu_sim_cycle!;
  const gpuPid = cfg.numSms + 1;
  const series = (name: string, pid: number) => trace.traceEvents.filter((e) => e.ph === 'C' && e.name === name && e.pid === pid);
  // Each sample covers [ts, next sample) and the last one runs to the end of the run.
  const total = (es: TraceEvent[], scale: number) =>
    es.reduce((acc, e, i) => acc + (Object.values(e.args!)[0] as number) * ((i + 1 < es.length ? es[i + 1]!.ts : cycles) - e.ts) / scale, 0);
  const ipc = series('IPC', gpuPid);
  t.is(ipc.length, Math.ceil(cycles / 500));
  t.true(Math.abs(total(ipc, 1) - stats.values.gpu_sim_insn!) < 1, `IPC x cycles ${total(ipc, 1)} vs ${stats.values.gpu_sim_insn}`);
  t.true(Math.abs(total(series('L1D misses', gpuPid), 1000) - stats.values.L1D_total_cache_misses!) < 1);
  t.true(Math.abs(total(series('L2 misses', gpuPid), 1000) - stats.values.L2_total_cache_misses!) < 1);
  t.true(stats.values.L2_total_cache_misses! > 0);
  const perSm = total(series('IPC', 1), 1) + total(series('IPC', 2), 1);
  t.true(Math.abs(perSm - stats.values.gpu_sim_insn!) < 1);
});

test('a cycle window keeps only its cycles; three windows add up to the whole run', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=2']);
  const work = () => traversalWorkload(12, 2, 8, 1 << 18, 5);
  const whole = record(work, cfg);
  const cycles = whole.stats.values.gpu_sim_cycle!;
  const a = Math.floor(cycles / 3);
  const b = Math.floor((2 * cycles) / 3);
  const parts = [record(work, cfg, { window: { start: 0, end: a } }), record(work, cfg, { window: { start: a, end: b } }), record(work, cfg, { window: { start: b, end: Infinity } })];
  t.is(parts.reduce((n, p) => n + warpInsts(p.trace), 0), whole.stats.values.gpu_warp_insn);
  const mid = parts[1]!.trace;
  t.deepEqual(mid.otherData.window, { start: a, end: b });
  t.true(warpInsts(mid) > 0);
  for (const e of mid.traceEvents.filter((x) => x.ph !== 'M')) t.true(e.ts >= a && e.ts + (e.dur ?? 0) <= b, `${e.name} at ${e.ts}+${e.dur}`);
  // Warps resident across the window's edges are cut at them, not dropped.
  t.true(slices(mid, /^warp /).some((e) => e.ts === a));
  assertNested(t, mid);
});

test('the event cap ends the window where it is hit and the file stays a consistent picture of it', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=2']);
  const work = () => traversalWorkload(12, 2, 8, 1 << 18, 5);
  const capped = record(work, cfg, { maxEvents: 60 });
  const end = capped.rec.end;
  t.not(capped.rec.truncatedAt, null);
  t.is(end, capped.rec.truncatedAt! + 1);
  t.deepEqual(capped.trace.otherData.window, { start: 0, end });
  t.is(capped.trace.otherData.truncatedAt, capped.rec.truncatedAt);
  const events = capped.trace.traceEvents.filter((e) => e.ph !== 'M');
  // Past the cap only what was open is closed: at most one slice per warp slot and RT entry more.
  t.true(events.length >= 60 && events.length <= 60 + 2 * (cfg.maxWarpsPerSm + cfg.rt.maxWarps) * cfg.numSms, `${events.length} events`);
  for (const e of events) t.true(e.ts + (e.dur ?? 0) <= end);
  // The same cycles recorded as a window, without a cap, give the same instructions.
  const windowed = record(work, cfg, { window: { start: 0, end } });
  t.is(warpInsts(capped.trace), warpInsts(windowed.trace));
  assertNested(t, capped.trace);
});

test('--timeline-sms records the chosen SMs only; the SMs\' timelines add up to the whole run', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=2']);
  const work = () => traversalWorkload(12, 2, 8, 1 << 18, 5);
  const [sm0, sm1] = [record(work, cfg, { sms: [0] }), record(work, cfg, { sms: [1] })];
  t.is(warpInsts(sm0.trace) + warpInsts(sm1.trace), sm0.stats.values.gpu_warp_insn);
  t.true(warpInsts(sm1.trace) > 0);
  const pids = new Set(sm1.trace.traceEvents.filter((e) => e.ph === 'X' || e.ph === 'i').map((e) => e.pid));
  t.deepEqual([...pids], [2]);
  const names = sm1.trace.traceEvents.filter((e) => e.name === 'process_name').map((e) => e.args!.name);
  t.deepEqual(names.sort(), ['GPU', 'SM 1']);
  // GPU-wide counters still cover every SM; per-SM counters only the recorded one.
  t.true(sm1.trace.traceEvents.some((e) => e.ph === 'C' && e.pid === cfg.numSms + 1));
  t.false(sm1.trace.traceEvents.some((e) => e.ph === 'C' && e.pid === 1));
  const err = t.throws(() => record(work, cfg, { sms: [2] }));
  t.is(err?.message, '--timeline-sms: there is no SM 2: this GPU has 2 SMs (0-1)');
});

test('thread ids are unique across SMs and the thread names say which slot or RT entry they are', (t) => {
  const cfg = loadConfig('mobile', ['gpgpu_n_clusters=2']);
  const { rec, trace } = record(() => traversalWorkload(12, 2, 8, 1 << 18, 5), cfg);
  const names = new Map(trace.traceEvents.filter((e) => e.name === 'thread_name').map((e) => [e.tid, { pid: e.pid, name: e.args!.name }]));
  for (const e of slices(trace)) {
    const th = names.get(e.tid);
    t.is(th?.pid, e.pid, `tid ${e.tid} belongs to one process`);
    t.regex(String(th?.name), e.cat === 'rt' ? /^RT unit entry \d+$/ : /^warp slot \d+$/);
  }
  t.deepEqual(names.get(threadIdBase(rec.layout, 1) + 3), { pid: 2, name: 'warp slot 3' });
});

test('after a timing deadlock the timeline closes at the cycle the run reached and shows the stuck warp waiting', (t) => {
  const cfg = loadConfig('mobile', [...ONE_SM, 'dram_latency=1000000000', 'gpgpu_deadlock_window=5000']);
  const rec = new TimelineRecorder({ numSms: 1, maxWarpsPerSm: cfg.maxWarpsPerSm, rtMaxWarps: cfg.rt.maxWarps, warpSize: cfg.warpSize, ctaSize: 1 });
  t.throws(() => simulate([new ScriptedWarp([aluStep(4), chaseStep(0x100000), aluStep(2)])], cfg, { timeline: rec }), { instanceOf: TimingDeadlockError });
  rec.finishAfterError();
  const trace = JSON.parse([...timelineJson(rec)].join('')) as Trace;
  t.true(rec.cycles > 10, `stopped at ${rec.cycles}`);
  const wait = slices(trace, 'wait: memory');
  t.is(wait.length, 1);
  t.is(wait[0]!.ts + wait[0]!.dur!, rec.cycles, 'the load is still outstanding when the run stops');
  t.is(warpInsts(trace), 5);
  assertNested(t, trace);
});

test('a traceRay waiting for RT warp-buffer room shows as "wait: RT unit full", ending when the warp gets in', (t) => {
  const cfg = loadConfig('mobile', [...ONE_SM, 'gpgpu_rt_max_warps=1']);
  const { stats, trace } = record(() => traversalWorkload(6, 2, 8, 1 << 18, 5), cfg);
  const full = slices(trace, 'wait: RT unit full');
  t.true(full.length > 0);
  for (const f of full) {
    // The next slice on the track starts where the wait ends: the traceRay issuing, or the warp in the RT unit.
    const next = slices(trace).filter((e) => e.tid === f.tid && e.ts === f.ts + f.dur! && (e.name === 'issue' || e.name === 'in RT unit'));
    t.true(next.length > 0, `wait at ${f.ts}+${f.dur}`);
  }
  // One warp in the RT unit at a time: the traversals never overlap.
  const rt = slices(trace).filter((e) => e.cat === 'rt').sort((a, b) => a.ts - b.ts);
  for (let i = 1; i < rt.length; i++) t.true(rt[i]!.ts >= rt[i - 1]!.ts + rt[i - 1]!.dur!);
  t.is(warpInsts(trace), stats.values.gpu_warp_insn);
  // With room for every warp nobody waits.
  const roomy = record(() => traversalWorkload(6, 2, 8, 1 << 18, 5), loadConfig('mobile', [...ONE_SM, 'gpgpu_rt_max_warps=8']));
  t.is(slices(roomy.trace, 'wait: RT unit full').length, 0);
  assertNested(t, trace);
});

test('the JSON comes in bounded pieces', (t) => {
  const cfg = loadConfig('mobile', ONE_SM);
  const steps = Array.from({ length: 40 }, (_, i) => loadStep(0x20000 + i * 128, 3));
  const { chunks } = record(() => [new ScriptedWarp(steps, 0), new ScriptedWarp(steps, 1)], cfg);
  t.true(chunks.length > 1);
  for (const c of chunks.slice(0, -1)) t.true(c.length < 4096 + 1000);
});
