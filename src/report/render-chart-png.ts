/**
 * Draws a chart specification to PNG in Node: chart.js on an @napi-rs/canvas canvas, with no
 * animation, no responsiveness and a white background (a transparent PNG is unreadable in dark
 * viewers).
 */
import { createRequire } from 'node:module';
import type * as Canvas from '@napi-rs/canvas';
import type * as ChartJs from 'chart.js';
import type { ChartConfiguration, Plugin } from 'chart.js';
import type { ChartSpec } from './chart-specs.js';

/**
 * chart.js and the canvas, loaded when the first chart is drawn (issue 25: a command that draws
 * none, or has not yet, starts without them).
 */
let drawing: { createCanvas: typeof Canvas.createCanvas; Chart: typeof ChartJs.Chart } | undefined;
function chartLibraries(): NonNullable<typeof drawing> {
  if (drawing === undefined) {
    const require = createRequire(import.meta.url);
    const { createCanvas } = require('@napi-rs/canvas') as typeof Canvas;
    const { Chart, registerables } = require('chart.js') as typeof ChartJs;
    Chart.register(...registerables);
    drawing = { createCanvas, Chart };
  }
  return drawing;
}

const whiteBackground: Plugin = {
  id: 'vvisionWhiteBackground',
  beforeDraw(chart) {
    const ctx = chart.ctx;
    ctx.save();
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

export function renderChartPng(spec: ChartSpec, width = 800, height = 420): Uint8Array {
  const { createCanvas, Chart } = chartLibraries();
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d') as unknown as CanvasRenderingContext2D;
  const config = {
    type: spec.config.type,
    data: spec.config.data,
    options: {
      ...spec.config.options,
      responsive: false,
      animation: false,
      devicePixelRatio: 1,
      plugins: { ...(spec.config.options.plugins as object), title: { display: true, text: spec.title } },
    },
    plugins: [whiteBackground],
  } as unknown as ChartConfiguration;
  const chart = new Chart(ctx, config);
  try {
    return canvas.toBuffer('image/png');
  } finally {
    chart.destroy();
  }
}
