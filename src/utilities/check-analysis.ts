/**
 * Checks what a user utility's `analyse` returned before the report uses it, so a mistake in a
 * user's file is a message naming the utility and the offending key (`tables[0].rows[3]: ...`),
 * not a crash while writing HTML or drawing a chart.
 */
import { REPORT_ID_PATTERN } from '../report/utility-page.js';
import { UtilityError } from './utility-error.js';
import type { UtilityAnalysis } from './utility.js';

type Json = Record<string, unknown>;

export function checkUtilityAnalysis(name: string, a: unknown): UtilityAnalysis {
  const fail = (key: string, problem: string): never => {
    throw new UtilityError(`utility '${name}': analyse returned ${key}: ${problem}`);
  };
  const isObj = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
  const arr = (x: unknown, key: string): unknown[] => (Array.isArray(x) ? x : fail(key, 'expected an array'));
  const str = (x: unknown, key: string): string => (typeof x === 'string' ? x : fail(key, `expected a string, got ${JSON.stringify(x)}`));
  const id = (x: unknown, key: string): string => {
    const s = str(x, key);
    return REPORT_ID_PATTERN.test(s) ? s : fail(key, `'${s}' is not usable as a file name (${REPORT_ID_PATTERN})`);
  };
  if (!isObj(a)) return fail('(result)', 'expected an object { summary?, tables?, charts?, images?, data? }');
  if (a.summary !== undefined) {
    arr(a.summary, 'summary').forEach((h, i) => {
      if (!isObj(h)) return fail(`summary[${i}]`, 'expected { label, value, note? }');
      str(h.label, `summary[${i}].label`);
      str(h.value, `summary[${i}].value`);
    });
  }
  if (a.tables !== undefined) {
    arr(a.tables, 'tables').forEach((t, i) => {
      const k = `tables[${i}]`;
      if (!isObj(t)) return fail(k, 'expected { title, header, rows }');
      str(t.title, `${k}.title`);
      const header = arr(t.header, `${k}.header`);
      header.forEach((h, j) => str(h, `${k}.header[${j}]`));
      arr(t.rows, `${k}.rows`).forEach((row, j) => {
        const cells = arr(row, `${k}.rows[${j}]`);
        if (cells.length !== header.length) fail(`${k}.rows[${j}]`, `${cells.length} cells for ${header.length} columns`);
        cells.forEach((c, n) => typeof c === 'string' || (typeof c === 'number' && !Number.isNaN(c)) || fail(`${k}.rows[${j}][${n}]`, `expected a string or number, got ${JSON.stringify(c)}`));
      });
    });
  }
  if (a.charts !== undefined) {
    const seen = new Set<string>();
    arr(a.charts, 'charts').forEach((c, i) => {
      const k = `charts[${i}]`;
      if (!isObj(c)) return fail(k, 'expected a chart spec { id, title, caption, config }');
      const cid = id(c.id, `${k}.id`);
      if (seen.has(cid)) fail(`${k}.id`, `'${cid}' is used by another chart`);
      seen.add(cid);
      str(c.title, `${k}.title`);
      str(c.caption, `${k}.caption`);
      if (!isObj(c.config)) return fail(`${k}.config`, 'expected { type, data, options }');
      if (c.config.type !== 'bar' && c.config.type !== 'line') fail(`${k}.config.type`, `expected 'bar' or 'line', got ${JSON.stringify(c.config.type)}`);
      const data = c.config.data;
      if (!isObj(data)) return fail(`${k}.config.data`, 'expected { labels, datasets }');
      const labels = arr(data.labels, `${k}.config.data.labels`);
      arr(data.datasets, `${k}.config.data.datasets`).forEach((d, j) => {
        const dk = `${k}.config.data.datasets[${j}]`;
        if (!isObj(d)) return fail(dk, 'expected { label, data }');
        str(d.label, `${dk}.label`);
        const values = arr(d.data, `${dk}.data`);
        if (values.length !== labels.length) fail(`${dk}.data`, `${values.length} values for ${labels.length} labels`);
        values.forEach((v, n) => (typeof v === 'number' && Number.isFinite(v)) || fail(`${dk}.data[${n}]`, `expected a finite number, got ${JSON.stringify(v)}`));
      });
      if (c.config.options === undefined) c.config.options = {};
      else if (!isObj(c.config.options)) fail(`${k}.config.options`, 'expected an object');
    });
  }
  if (a.images !== undefined) {
    arr(a.images, 'images').forEach((im, i) => {
      const k = `images[${i}]`;
      if (!isObj(im)) return fail(k, 'expected { id, title, png }');
      id(im.id, `${k}.id`);
      str(im.title, `${k}.title`);
      const png = im.png;
      const sig = [0x89, 0x50, 0x4e, 0x47];
      if (!(png instanceof Uint8Array) || !sig.every((b, n) => png[n] === b)) fail(`${k}.png`, 'expected PNG bytes (a Uint8Array, e.g. from gridHeatmapPng)');
    });
  }
  if (a.data !== undefined) {
    try {
      JSON.stringify(a.data);
    } catch (e) {
      fail('data', `not JSON-serialisable: ${(e as Error).message}`);
    }
  }
  return a as UtilityAnalysis;
}
