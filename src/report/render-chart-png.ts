/**
 * Draws a chart specification to PNG in Node: chart.js on an @napi-rs/canvas canvas, with no
 * animation, no responsiveness and a white background (a transparent PNG is unreadable in dark
 * viewers).
 */
import { createCanvas } from '@napi-rs/canvas';
import { Chart, registerables, type ChartConfiguration, type Plugin } from 'chart.js';
import type { ChartSpec } from './chart-specs.js';

Chart.register(...registerables);

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
