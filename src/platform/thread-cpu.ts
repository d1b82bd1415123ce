/**
 * CPU seconds (user + system) spent so far by the calling thread: a worker thread's own time,
 * which `process.cpuUsage()` cannot give before Node 23.9 (it is the whole process's). Read from
 * Linux's /proc/thread-self/stat (utime + stime, in clock ticks of 1/100 s); elsewhere the
 * process's time, which equals the thread's only when one thread works at a time.
 */
import { readFileSync } from 'node:fs';

export function threadCpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields after the command name start at field 3 (state): utime is field 14, stime 15.
    return (Number(fields[14 - 3]) + Number(fields[15 - 3])) / 100;
  } catch {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  }
}

/** CPU seconds of the whole process (every thread, worker threads included). */
export function processCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}
