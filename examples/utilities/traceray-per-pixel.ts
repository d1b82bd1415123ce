/**
 * traceRay calls per pixel: a ThreadUpdate() (no payload: every entry is one call) right before
 * every traceRay of every shader (raygen and any closest-hit / miss that trace shadow or
 * secondary rays), counted per launch pixel from the entries' thread-work ids and drawn as a
 * heatmap; a table and a chart give the distribution of calls per pixel.
 *
 *   vvision instrument --utility examples/utilities/traceray-per-pixel.ts pt
 */
import { defineUtility, dumpEntries, gridHeatmapPng, perPixel } from 'vvision';

export default defineUtility({
  name: 'traceray-per-pixel',
  description: 'traceRay calls made on behalf of each pixel, from every shader',
  place(ctx) {
    for (const sh of ctx.shaders) {
      ctx.traceRays(sh).forEach(({ fn, inst }, k) => {
        ctx.probe({ fn, point: { at: 'before', inst }, kind: 'traceRayCall', record: 'count', traceRay: k });
      });
    }
  },
  analyse({ dump, metadata, launch }) {
    const entries = dumpEntries(dump, metadata, (s) => s.kind === 'traceRayCall');
    const calls = perPixel(entries, launch);
    const perShader = new Map<string, number>();
    for (const e of entries) {
      const name = metadata.shaders[e.site.shader]!.name;
      perShader.set(name, (perShader.get(name) ?? 0) + 1);
    }
    let max = 0;
    for (const c of calls) max = Math.max(max, c);
    const histogram = new Array<number>(max + 1).fill(0);
    for (const c of calls) histogram[c]!++;
    const mean = entries.length / calls.length;
    return {
      summary: [{ label: 'traceRay calls per pixel', value: mean.toFixed(2), note: `max ${max}, ${entries.length} calls in all` }],
      tables: [
        { title: 'Pixels by traceRay calls', header: ['calls', 'pixels'], rows: histogram.map((n, c) => [c, n]) },
        { title: 'traceRay calls by calling shader', header: ['shader', 'calls'], rows: [...perShader].map(([s, n]) => [s, n]) },
      ],
      charts: [{
        id: 'calls-histogram',
        title: 'Pixels by traceRay calls',
        caption: 'How many pixels made each number of traceRay calls (all shaders, all samples).',
        config: {
          type: 'bar',
          data: { labels: histogram.map((_, c) => c), datasets: [{ label: 'pixels', data: histogram }] },
          options: { scales: { x: { title: { display: true, text: 'traceRay calls' } }, y: { beginAtZero: true, title: { display: true, text: 'pixels' } } } },
        },
      }],
      images: [{ id: 'heatmap', title: 'traceRay calls per pixel', caption: `black = 0, white = ${max} calls`, png: gridHeatmapPng(calls, launch.width, launch.height) }],
      data: { width: launch.width, height: launch.height, calls: [...calls], perShader: Object.fromEntries(perShader) },
    };
  },
});
