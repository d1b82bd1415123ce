/**
 * `--timeline FILE [--timeline-window a:b] [--timeline-max-events N]` of `vvision sim`: parsing the
 * options and writing the recorded warp timeline (src/sim/timing/timeline.ts) as Chrome
 * trace-event JSON. The file is written with the run: inside the run directory it is one of its
 * files; elsewhere it is staged beside its destination and renamed into place after the run
 * directory is committed, so a failed run leaves neither.
 */
import { existsSync, statSync } from 'node:fs';
import { relative, resolve, isAbsolute } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_TIMELINE_MAX_EVENTS, type TimelineOptions, type TimelineRecorder } from '../sim/timing/timeline.js';
import { timelineJson, type TimelineMeta } from '../sim/timing/timeline-json.js';
import type { OutputDir } from './output-dir.js';
import { OutputFile } from './output-file.js';
import { CliUsageError } from './user-errors.js';

export interface RawTimelineOptions {
  timeline?: string;
  timelineWindow?: string;
  timelineMaxEvents?: string;
  timelineSms?: string;
}

export function addTimelineOptions(cmd: Command): Command {
  return cmd
    .option('--timeline <file>', 'write the warp timeline as Chrome trace-event JSON (Perfetto, chrome://tracing): one track per SM warp slot and RT-unit entry, 1 us = 1 cycle')
    .option('--timeline-window <a:b>', 'with --timeline: record only cycles a (inclusive) to b (exclusive); either side may be left out')
    .option('--timeline-sms <list>', 'with --timeline: record these SMs only, e.g. 0 or 0,2,4-7 (GPU-wide counters still cover every SM)')
    .option('--timeline-max-events <n>', `with --timeline: stop recording after this many events (default ${DEFAULT_TIMELINE_MAX_EVENTS.toLocaleString('en-US')}, at most about 60 MB)`);
}

const MAX_EVENTS_LIMIT = 50_000_000;

/** The recorder's options, or undefined without --timeline; bad values are a CliUsageError naming the option. */
export function parseTimelineOptions(raw: RawTimelineOptions): TimelineOptions | undefined {
  if (raw.timeline === undefined) {
    if (raw.timelineWindow !== undefined) throw new CliUsageError('--timeline-window needs --timeline <file>');
    if (raw.timelineMaxEvents !== undefined) throw new CliUsageError('--timeline-max-events needs --timeline <file>');
    if (raw.timelineSms !== undefined) throw new CliUsageError('--timeline-sms needs --timeline <file>');
    return undefined;
  }
  if (raw.timeline.trim() === '') throw new CliUsageError('--timeline: expected a file name');
  if (existsSync(raw.timeline) && statSync(raw.timeline).isDirectory()) throw new CliUsageError(`--timeline: ${raw.timeline} is a directory; expected a file name such as ${raw.timeline.replace(/\/+$/, '')}/timeline.json`);
  const opts: TimelineOptions = {};
  if (raw.timelineWindow !== undefined) {
    const m = /^(\d*):(\d*)$/.exec(raw.timelineWindow.trim());
    const start = m && m[1] !== '' ? Number(m[1]) : 0;
    const end = m && m[2] !== '' ? Number(m[2]) : Infinity;
    if (!m || (m[1] === '' && m[2] === '') || !(Number.isSafeInteger(start) && (end === Infinity || Number.isSafeInteger(end))) || end <= start) {
      throw new CliUsageError(`--timeline-window: expected a:b, whole cycles with a < b (a or b may be left out: 5000: or :20000), got '${raw.timelineWindow}'`);
    }
    opts.window = { start, end };
  }
  if (raw.timelineMaxEvents !== undefined) {
    const n = Number(raw.timelineMaxEvents);
    if (!Number.isInteger(n) || n < 1 || n > MAX_EVENTS_LIMIT) {
      throw new CliUsageError(`--timeline-max-events: expected an integer in [1, ${MAX_EVENTS_LIMIT}], got '${raw.timelineMaxEvents}'`);
    }
    opts.maxEvents = n;
  }
  if (raw.timelineSms !== undefined) {
    const sms = new Set<number>();
    for (const part of raw.timelineSms.split(',')) {
      const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
      const a = m ? Number(m[1]) : NaN;
      const b = m && m[2] !== undefined ? Number(m[2]) : a;
      if (!m || b < a || b > 65535) throw new CliUsageError(`--timeline-sms: expected SM numbers and ranges such as 0,2,4-7, got '${raw.timelineSms}'`);
      for (let i = a; i <= b; i++) sms.add(i);
    }
    opts.sms = [...sms].sort((x, y) => x - y);
  }
  return opts;
}

/** A timeline waiting for its run directory to be committed. */
export interface PendingTimeline {
  /** Renames the staged file into place (no-op when it is a file of the run directory); returns its path. */
  commit(): string;
  abandon(): void;
  /** What to tell the user: where the file is, its size and window, and a warning if the cap was hit. */
  report(path: string): { stdout: string; stderr: string };
}

/**
 * A run stopped by a timing deadlock: writes the timeline up to that cycle on its own (there is no
 * run directory) and returns the line telling the user where it is.
 */
export function writeTimelineOfFailedRun(path: string, rec: TimelineRecorder, meta: TimelineMeta): string {
  const file = new OutputFile(path);
  try {
    const bytes = file.writeAll(timelineJson(rec, { ...meta, stoppedBy: 'timing deadlock' }));
    const where = file.commit();
    return `timeline up to the deadlock (cycle ${rec.cycles.toLocaleString('en-US')}): ${where} (${rec.events.length.toLocaleString('en-US')} events, ${(bytes / 1e6).toFixed(1)} MB)\n`;
  } catch (e) {
    file.abandon();
    throw e;
  }
}

export function writeTimeline(path: string, rec: TimelineRecorder, meta: TimelineMeta, out: OutputDir): PendingTimeline {
  const target = resolve(path);
  const inRun = relative(out.finalPath, target);
  if (inRun === '') throw new CliUsageError(`--timeline: ${path} is the run directory itself; name a file in it, such as ${path}/timeline.json`);
  const pieces = timelineJson(rec, meta);
  let bytes: number;
  let file: OutputFile | null = null;
  if (inRun !== '' && !inRun.startsWith('..') && !isAbsolute(inRun)) {
    const text = [...pieces].join('');
    out.write(inRun, text);
    bytes = Buffer.byteLength(text);
  } else {
    file = new OutputFile(target);
    try {
      bytes = file.writeAll(pieces);
    } catch (e) {
      file.abandon();
      throw e;
    }
  }
  const s = rec.summary();
  return {
    commit: () => (file !== null ? file.commit() : target),
    abandon: () => file?.abandon(),
    report: (where) => {
      const n = (v: number): string => v.toLocaleString('en-US');
      const stdout = `timeline: ${where} (${n(s.events)} events, ${(bytes / 1e6).toFixed(1)} MB, cycles ${n(s.start)}..${n(s.end)} of ${n(s.cycles)}; open it in https://ui.perfetto.dev or chrome://tracing)\n`;
      let stderr = '';
      if (s.truncatedAt !== null) {
        stderr += `vvision: warning: --timeline: the cap of ${n(s.maxEvents)} events was reached at cycle ${n(s.truncatedAt)}, so ${where} covers cycles ` +
          `${n(s.start)}..${n(s.end)} of the run's ${n(s.cycles)}; choose the cycles with --timeline-window a:b or raise --timeline-max-events\n`;
      } else if (s.start >= s.cycles) {
        stderr += `vvision: warning: --timeline-window starts at cycle ${n(s.start)}, after the run ended (${n(s.cycles)} cycles): ${where} holds no warp events\n`;
      }
      return { stdout, stderr };
    },
  };
}
