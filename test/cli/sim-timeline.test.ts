import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTimelineOptions, type RawTimelineOptions } from '../../src/cli/timeline-output.js';
import { CliUsageError } from '../../src/cli/user-errors.js';
import { VVISION } from './vvision-command.js';

const ROOT = join(import.meta.dirname, '..', '..');

function vvision(args: string[]) {
  const r = spawnSync(process.execPath, [...VVISION, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  cat?: string;
  args?: Record<string, number | string>;
}
type Trace = { traceEvents: TraceEvent[]; otherData: Record<string, unknown> & { cycles: number; window: { start: number; end: number } } };

const SIM = ['sim', 'tri', '--config', 'mobile', '--width', '32', '--height', '32'];

test('sim --timeline writes Chrome trace-event JSON whose events agree with stats.json', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-timeline-'));
  const out = join(dir, 'run');
  const file = join(dir, 'traces', 'tri.json');
  const r = vvision([...SIM, '--out', out, '--timeline', file]);
  t.is(r.status, 0, r.stderr);
  t.regex(r.stdout, new RegExp(`timeline: ${file} \\([\\d,]+ events, [\\d.]+ MB, cycles 0\\.\\.[\\d,]+ of [\\d,]+; open it in https://ui\\.perfetto\\.dev or chrome://tracing\\)`));
  t.is(r.stderr, '');
  t.deepEqual(readdirSync(join(dir, 'traces')), ['tri.json'], 'no staging file left behind');
  const stats = JSON.parse(readFileSync(join(out, 'stats.json'), 'utf8')) as { values: Record<string, number> };
  const trace = JSON.parse(readFileSync(file, 'utf8')) as Trace;
  const v = stats.values;

  // The trace-event format: every event well formed.
  t.true(Array.isArray(trace.traceEvents));
  for (const e of trace.traceEvents) {
    t.true(['X', 'i', 'C', 'M'].includes(e.ph) && typeof e.name === 'string' && Number.isInteger(e.pid) && Number.isInteger(e.tid), JSON.stringify(e));
    if (e.ph !== 'M') t.true(Number.isInteger(e.ts) && e.ts >= 0, JSON.stringify(e));
    if (e.ph === 'X') t.true(Number.isInteger(e.dur) && e.dur! >= 0, JSON.stringify(e));
  }
  const meta = (name: string) => trace.traceEvents.filter((e) => e.ph === 'M' && e.name === name).map((e) => e.args!.name);
  t.deepEqual(meta('process_name').sort(), ['GPU', ...Array.from({ length: 8 }, (_, i) => `SM ${i}`)].sort());
  t.true(meta('thread_name').some((n) => /^warp slot \d+$/.test(String(n))));
  t.true(meta('thread_name').some((n) => /^RT unit entry \d+$/.test(String(n))));

  // Agreement with the stats: instructions, cycles, warps, RT-unit warps.
  const x = trace.traceEvents.filter((e) => e.ph === 'X');
  const issue = x.filter((e) => e.name === 'issue');
  t.is(issue.reduce((n, e) => n + (e.args!.warpInsts as number), 0), v.gpu_warp_insn);
  t.is(issue.reduce((n, e) => n + (e.args!.threadInsts as number), 0), v.gpu_sim_insn);
  t.is(trace.otherData.cycles, v.gpu_sim_cycle);
  t.deepEqual(trace.otherData.window, { start: 0, end: v.gpu_sim_cycle });
  t.true(x.every((e) => e.ts + e.dur! <= v.gpu_sim_cycle!));
  t.is(x.filter((e) => e.cat === 'warp' && /^warp \d+$/.test(e.name)).length, 32, 'one slice per warp of the 32x32 launch');
  t.is(x.filter((e) => e.cat === 'rt').length, v.rt_total_warps);
  t.is(trace.traceEvents.filter((e) => e.ph === 'i' && /^CTA \d+ launch$/.test(e.name)).length, 32);
  t.true(x.some((e) => e.name === 'wait: memory') && x.some((e) => e.name === 'in RT unit'));
  for (const name of ['IPC', 'L1D misses', 'L2 misses']) t.true(trace.traceEvents.some((e) => e.ph === 'C' && e.name === name), name);
});

test('sim --timeline-window keeps only the window; a timeline inside the run directory is one of its files', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-timeline-'));
  const out = join(dir, 'run');
  const r = vvision([...SIM, '--out', out, '--timeline', join(out, 'timeline.json'), '--timeline-window', '1000:3000']);
  t.is(r.status, 0, r.stderr);
  t.deepEqual(readdirSync(dir), ['run']);
  const trace = JSON.parse(readFileSync(join(out, 'timeline.json'), 'utf8')) as Trace;
  t.deepEqual(trace.otherData.window, { start: 1000, end: 3000 });
  const events = trace.traceEvents.filter((e) => e.ph !== 'M');
  t.true(events.some((e) => e.name === 'issue'));
  for (const e of events) t.true(e.ts >= 1000 && e.ts + (e.dur ?? 0) <= 3000, JSON.stringify(e));
});

test('hitting the event cap is a clear warning; the file is still a whole trace of a shorter window', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-timeline-'));
  const file = join(dir, 't.json');
  const r = vvision([...SIM, '--out', join(dir, 'run'), '--timeline', file, '--timeline-max-events', '200']);
  t.is(r.status, 0, r.stderr);
  const m = /vvision: warning: --timeline: the cap of 200 events was reached at cycle ([\d,]+), so .*t\.json covers cycles 0\.\.([\d,]+) of the run's ([\d,]+); choose the cycles with --timeline-window a:b or raise --timeline-max-events/.exec(r.stderr);
  t.truthy(m, r.stderr);
  const trace = JSON.parse(readFileSync(file, 'utf8')) as Trace;
  const end = Number(m![2]!.replace(/,/g, ''));
  t.is(trace.otherData.truncatedAt, Number(m![1]!.replace(/,/g, '')));
  t.true(end < Number(m![3]!.replace(/,/g, '')));
  for (const e of trace.traceEvents.filter((x) => x.ph !== 'M')) t.true(e.ts + (e.dur ?? 0) <= end);
});

test('a run stopped by a timing deadlock still writes its timeline up to the stop, and says so', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-timeline-'));
  const file = join(dir, 'stuck.json');
  const r = vvision([...SIM, '--out', join(dir, 'run'), '--timeline', file, '--set', 'dram_latency=1000000000', '--set', 'gpgpu_deadlock_window=5000']);
  t.is(r.status, 1);
  t.regex(r.stderr, /timeline up to the deadlock \(cycle [\d,]+\): .*stuck\.json \([\d,]+ events, [\d.]+ MB\)\nvvision: error: timing model deadlock/);
  t.deepEqual(readdirSync(dir), ['stuck.json'], 'no run directory');
  const trace = JSON.parse(readFileSync(file, 'utf8')) as Trace;
  t.is(trace.otherData.stoppedBy, 'timing deadlock');
  t.true(trace.traceEvents.some((e) => e.name === 'wait: memory' && e.ts + e.dur! === trace.otherData.cycles));
});

test('bad --timeline values are one error naming the option, exit 1, nothing written', (t) => {
  // Through the real command: a value the option parser refuses, and an SM number only the GPU config can refuse.
  const dir = mkdtempSync(join(tmpdir(), 'vvision-timeline-'));
  const cases: [string[], RegExp][] = [
    [['--timeline', join(dir, 't.json'), '--timeline-window', '5000:3000'], /--timeline-window: expected a:b, whole cycles with a < b .*got '5000:3000'/],
    [['--timeline', join(dir, 't.json'), '--timeline-sms', '2,8'], /--timeline-sms: there is no SM 8: this GPU has 8 SMs \(0-7\)/],
  ];
  for (const [args, message] of cases) {
    const r = vvision([...SIM, '--out', join(dir, 'run'), ...args]);
    t.is(r.status, 1, args.join(' '));
    t.regex(r.stderr, new RegExp(`^vvision: error: ${message.source}`));
  }
  t.deepEqual(readdirSync(dir), []);
  t.false(existsSync(join(dir, 't.json')));
});

test('the other bad --timeline values are usage errors naming the option (the parser sim runs, in process)', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vvision-timeline-'));
  const file = join(dir, 't.json');
  const cases: [RawTimelineOptions, RegExp][] = [
    [{ timeline: file, timelineWindow: 'soon' }, /^--timeline-window: expected a:b.*got 'soon'/],
    [{ timeline: file, timelineMaxEvents: '0' }, /^--timeline-max-events: expected an integer in \[1, 50000000\], got '0'/],
    [{ timelineWindow: '0:100' }, /^--timeline-window needs --timeline <file>/],
    [{ timeline: tmpdir() }, /^--timeline: .* is a directory; expected a file name such as .*\/timeline\.json/],
    [{ timeline: file, timelineSms: 'first' }, /^--timeline-sms: expected SM numbers and ranges such as 0,2,4-7, got 'first'/],
  ];
  for (const [raw, message] of cases) {
    const e = t.throws(() => parseTimelineOptions(raw), { instanceOf: CliUsageError }, JSON.stringify(raw));
    t.regex(e?.message ?? '', message);
  }
  t.deepEqual(readdirSync(dir), []);
});
