/**
 * The Chrome trace-event JSON of a warp timeline recorded by timeline.ts: metadata events naming
 * the processes (SMs, GPU) and threads (warp slots, RT-unit entries), then the recorded slices,
 * instants and counters. The layout is described in timeline.ts.
 */
import { C_IPC, C_L1, C_L2, CTA_LAUNCH, IN_RT, ISSUE, MEM, RT_FULL, TRAVERSAL, WARP, threadIdBase, type TimelineRecorder } from './timeline.js';

/** Run facts written beside the events in the file's `otherData`. */
export interface TimelineMeta {
  workload?: string;
  config?: string;
  [key: string]: unknown;
}

const COUNTER_NAMES: Record<number, [string, string]> = {
  [C_IPC]: ['IPC', 'thread insts/cycle'],
  [C_L1]: ['L1D misses', 'per 1K cycles'],
  [C_L2]: ['L2 misses', 'per 1K cycles'],
};

function num(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e4) / 1e4);
}

/**
 * The Chrome trace-event JSON of a finished recording, in pieces of about `chunkChars`
 * characters (the caller writes them to a file as they come, so a large trace is never one
 * string). Events are ordered by process, thread, start, then longest first, so slices that
 * start together nest in the order every viewer expects.
 */
export function* timelineJson(rec: TimelineRecorder, meta: TimelineMeta = {}, chunkChars = 1 << 16): Generator<string> {
  const ev = rec.events;
  const { numSms, maxWarpsPerSm: n } = rec.layout;
  const s = rec.summary();
  const otherData = {
    ...meta,
    timeUnit: '1 us = 1 core cycle',
    cycles: s.cycles,
    window: { start: s.start, end: s.end },
    truncatedAt: s.truncatedAt,
    maxEvents: s.maxEvents,
    counterIntervalCycles: rec.counterInterval,
    sms: rec.recorded.every((r) => r === 1) ? 'all' : [...rec.recorded.keys()].filter((i) => rec.recorded[i] === 1),
    ids: `pid = SM + 1 (GPU-wide counters: ${numSms + 1}); warp slot s of SM i: tid = ${threadIdBase(rec.layout, 0) - 1} x (i + 1) + 1 + s; RT-unit entry e: tid = ${threadIdBase(rec.layout, 0) - 1} x (i + 1) + 1 + ${n} + e`,
  };
  let buf = `{"otherData":${JSON.stringify(otherData)},\n"traceEvents":[\n`;
  let first = true;
  const put = (line: string): string | null => {
    buf += (first ? '' : ',\n') + line;
    first = false;
    if (buf.length < chunkChars) return null;
    const out = buf;
    buf = '';
    return out;
  };

  // Metadata: name every process, and every thread that has an event.
  const gpuPid = numSms + 1;
  const used = new Map<number, number>();
  for (let i = 0; i < ev.length; i++) if (ev.kind[i]! < C_IPC) used.set(ev.tid[i]!, ev.pid[i]!);
  const meta1: string[] = [
    `{"name":"process_name","ph":"M","ts":0,"pid":${gpuPid},"tid":${gpuPid},"args":{"name":"GPU"}}`,
    `{"name":"process_sort_index","ph":"M","ts":0,"pid":${gpuPid},"tid":${gpuPid},"args":{"sort_index":-1}}`,
  ];
  for (let sm = 0; sm < numSms; sm++) {
    if (rec.recorded[sm] !== 1) continue;
    meta1.push(`{"name":"process_name","ph":"M","ts":0,"pid":${sm + 1},"tid":${sm + 1},"args":{"name":"SM ${sm}"}}`);
    meta1.push(`{"name":"process_sort_index","ph":"M","ts":0,"pid":${sm + 1},"tid":${sm + 1},"args":{"sort_index":${sm}}}`);
  }
  for (const [tid, pid] of [...used].sort((a, b) => a[0] - b[0])) {
    const local = tid - threadIdBase(rec.layout, pid - 1);
    const name = local < n ? `warp slot ${local}` : `RT unit entry ${local - n}`;
    meta1.push(`{"name":"thread_name","ph":"M","ts":0,"pid":${pid},"tid":${tid},"args":{"name":"${name}"}}`);
    meta1.push(`{"name":"thread_sort_index","ph":"M","ts":0,"pid":${pid},"tid":${tid},"args":{"sort_index":${tid}}}`);
  }
  for (const m of meta1) {
    const out = put(m);
    if (out !== null) yield out;
  }

  const order = new Uint32Array(ev.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) =>
    ev.pid[a]! - ev.pid[b]! || ev.tid[a]! - ev.tid[b]! || ev.ts[a]! - ev.ts[b]! || ev.dur[b]! - ev.dur[a]! || ev.kind[a]! - ev.kind[b]!);
  for (const i of order) {
    const k = ev.kind[i]!;
    const head = `"pid":${ev.pid[i]},"tid":${ev.tid[i]},"ts":${ev.ts[i]}`;
    let line: string;
    switch (k) {
      case WARP:
        line = `{"name":"warp ${ev.a0[i]}","cat":"warp","ph":"X",${head},"dur":${ev.dur[i]},"args":{"warp":${ev.a0[i]},"cta":${ev.a1[i]},"slot":${ev.a2[i]}}}`;
        break;
      case ISSUE:
        line = `{"name":"issue","cat":"warp","ph":"X",${head},"dur":${ev.dur[i]},"args":{"warpInsts":${ev.a0[i]},"threadInsts":${ev.a1[i]}}}`;
        break;
      case MEM:
        line = `{"name":"wait: memory","cat":"warp","ph":"X",${head},"dur":${ev.dur[i]}}`;
        break;
      case RT_FULL:
        line = `{"name":"wait: RT unit full","cat":"warp","ph":"X",${head},"dur":${ev.dur[i]}}`;
        break;
      case IN_RT:
        line = `{"name":"in RT unit","cat":"warp","ph":"X",${head},"dur":${ev.dur[i]}}`;
        break;
      case TRAVERSAL:
        line = `{"name":"warp ${ev.a0[i]}","cat":"rt","ph":"X",${head},"dur":${ev.dur[i]},"args":{"warp":${ev.a0[i]},"smSlot":${ev.a1[i]},"rays":${ev.a2[i]}}}`;
        break;
      case CTA_LAUNCH:
        line = `{"name":"CTA ${ev.a0[i]} launch","cat":"cta","ph":"i","s":"p",${head},"args":{"cta":${ev.a0[i]}}}`;
        break;
      default: {
        const [name, series] = COUNTER_NAMES[k]!;
        line = `{"name":"${name}","cat":"counter","ph":"C",${head},"args":{"${series}":${num(ev.a0[i]!)}}}`;
      }
    }
    const out = put(line);
    if (out !== null) yield out;
  }
  yield `${buf}\n]}\n`;
}
