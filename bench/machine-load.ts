/**
 * What a benchmark prints beside a wall-clock figure so that one taken on a busy machine shows as
 * such (issue 25.6): the CPU time spent, and the machine's load average against its core count.
 * On a shared machine CPU time is the steadier figure; wall time is only comparable at equal load.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** `load 3.1/2.8/2.5 on 2 cores` (1, 5 and 15 minute averages). */
export function loadNote(): string {
  return `load ${os.loadavg().map((x) => x.toFixed(1)).join('/')} on ${os.cpus().length} cores`;
}

/** `wall 1.23 s, CPU 1.10 s, load 3.1/2.8/2.5 on 2 cores`. */
export function wallCpuNote(wallSeconds: number, cpuSeconds: number, digits = 2): string {
  return `wall ${wallSeconds.toFixed(digits)} s, CPU ${cpuSeconds.toFixed(digits)} s, ${loadNote()}`;
}

/** Runs `fn` and measures it: wall and CPU seconds of this process. */
export async function measured<T>(fn: () => T | Promise<T>): Promise<{ value: T; wallSeconds: number; cpuSeconds: number; note: string }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const wallSeconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const cpuSeconds = (c.user + c.system) / 1e6;
  return { value, wallSeconds, cpuSeconds, note: wallCpuNote(wallSeconds, cpuSeconds) };
}

/**
 * CPU seconds (user + system) of this process's children that have been waited for (Linux
 * /proc/self/stat cutime + cstime, in clock ticks of 1/100 s); undefined where there is no /proc.
 * The difference around a spawnSync is that child's CPU time, its own children included.
 */
export function childrenCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields after the command name start at field 3 (state): cutime is field 16, cstime 17.
    return (Number(fields[16 - 3]) + Number(fields[17 - 3])) / 100;
  } catch {
    return undefined;
  }
}
