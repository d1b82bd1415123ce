/**
 * "What is this variable when the program reaches this line?", per thread: records a named GLSL
 * variable just before the first instruction of a source line, once per executing thread per
 * execution (ThreadUpdate(value), V-Vision Fig. 3). Set to the bounce counter `b` of the `pt`
 * path tracer at its traceRay call (workloads/pt/raygen.rgen line 95): each entry is one bounce
 * traced by one pixel's thread, so the dump holds every pixel's bounce count.
 *
 *   vvision instrument --utility examples/utilities/variable-at-line.ts pt
 *
 * Edit the three constants to watch another variable: a local, a parameter or a global of the
 * function that holds the line; scalars and vectors of bool/int/uint/float.
 */
import { defineUtility, dumpEntries, gridHeatmapPng, perPixel, type ChartSpec } from 'vvision';

const SHADER = 'raygen.rgen';
const LINE = 95;
const VARIABLE = 'b';

export default defineUtility({
  name: 'variable-at-line',
  description: `the value of '${VARIABLE}' each time a thread reaches ${SHADER}:${LINE}`,
  place(ctx) {
    for (const sh of ctx.shaders) {
      if (!sh.root.loc || ctx.module.sources[sh.root.loc.file]?.path.split('/').pop() !== SHADER) continue;
      const at = ctx.atLine(sh, LINE);
      if (!at) throw new Error(`${SHADER}:${LINE} holds no code`);
      if (!ctx.hasVariable(at.fn, VARIABLE)) throw new Error(`no variable '${VARIABLE}' is visible in ${at.fn.name} at ${SHADER}:${LINE}`);
      ctx.probe({
        fn: at.fn, point: { at: 'before', inst: at.inst.id }, kind: 'variableValue',
        record: { value: { variable: VARIABLE } }, label: `${VARIABLE} @ ${SHADER}:${LINE}`,
      });
    }
  },
  analyse({ dump, metadata, launch }) {
    const entries = dumpEntries(dump, metadata, (s) => s.kind === 'variableValue');
    // Values seen: how many thread executions saw each value.
    const byValue = new Map<number, number>();
    for (const e of entries) byValue.set(e.payload[0]!, (byValue.get(e.payload[0]!) ?? 0) + 1);
    const values = [...byValue.keys()].sort((a, b) => a - b);
    // Per pixel: the largest value its thread reached (for `b`: the bounces it traced, minus one).
    const pixels = launch.width * launch.height;
    const maxPerPixel = new Float64Array(pixels).fill(-1);
    for (const e of entries) {
      const p = e.threadWorkId % pixels;
      maxPerPixel[p] = Math.max(maxPerPixel[p]!, e.payload[0]!);
    }
    const reached = perPixel(entries, launch);
    const threadsReaching = reached.filter((n) => n > 0).length;
    const chart: ChartSpec = {
      id: 'values',
      title: `Value of ${VARIABLE} at ${SHADER}:${LINE}`,
      caption: `Thread executions of line ${LINE} by the value ${VARIABLE} had there.`,
      config: {
        type: 'bar',
        data: { labels: values, datasets: [{ label: 'thread executions', data: values.map((v) => byValue.get(v)!) }] },
        options: { scales: { x: { title: { display: true, text: VARIABLE } }, y: { beginAtZero: true, title: { display: true, text: 'thread executions' } } } },
      },
    };
    return {
      summary: [{ label: `executions of line ${LINE}`, value: String(entries.length), note: `${threadsReaching} of ${pixels} threads reached it` }],
      tables: [{
        title: `${VARIABLE} at ${SHADER}:${LINE}`,
        header: [VARIABLE, 'thread executions', 'share'],
        rows: values.map((v) => [v, byValue.get(v)!, `${((100 * byValue.get(v)!) / Math.max(1, entries.length)).toFixed(1)}%`]),
      }],
      charts: [chart],
      images: [{
        id: 'max-per-pixel', title: `Largest ${VARIABLE} per pixel`,
        caption: 'black = smallest (or never reached), white = largest', png: gridHeatmapPng(maxPerPixel.map((v) => v + 1), launch.width, launch.height),
      }],
      data: { variable: VARIABLE, shader: SHADER, line: LINE, executions: entries.length, histogram: Object.fromEntries(byValue), maxPerPixel: [...maxPerPixel] },
    };
  },
});
