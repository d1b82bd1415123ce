/**
 * Per-test-file CPU of an ava run (issue 25.5): an ava worker preloads this module and, at exit,
 * appends `<own CPU s> <children CPU s> <wall s> <test file>` to $CPU_LOG (default
 * /tmp/vvision-test-cpu.log). Children are the processes the file waited for (CLI runs, glslang,
 * spirv-val): the machine is shared, so CPU is the figure to compare, wall time is not.
 *
 *   CPU_LOG=$PWD/cpu.log npx ava --no-worker-threads --node-arguments=--import=$PWD/bench/test-file-cpu.mjs
 *
 * (each file in its own process: Node has no per-thread CPU figure, so under ava's default worker
 * threads process.cpuUsage() would be every file's at once; ava.config.js's nodeArguments load tsx)
 *
 *   sort -k1,1 -g -r cpu.log | head        # by own CPU; add the first two columns for the total
 */
import { appendFileSync, readFileSync } from 'node:fs';

let file = '?';
const t0 = performance.now();
process.on('message', (m) => {
  if (m?.ava?.type === 'options') file = m.ava.options.file;
});
process.on('exit', () => {
  const own = process.cpuUsage();
  // utime, stime, cutime, cstime are fields 14-17 of /proc/self/stat (clock ticks, 100 per second on Linux).
  let children = 0;
  try {
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    children = (Number(f[13]) + Number(f[14])) / 100;
  } catch {
    // not Linux: children unknown
  }
  const name = file.replace(`file://${process.cwd()}/`, '').replace(`${process.cwd()}/`, '');
  appendFileSync(process.env.CPU_LOG ?? '/tmp/vvision-test-cpu.log', `${((own.user + own.system) / 1e6).toFixed(2)} ${children.toFixed(2)} ${((performance.now() - t0) / 1000).toFixed(1)} ${name}\n`);
});
