import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instrumentWorkload } from '../../src/driver/instrument-workload.js';
import { loadRunDir, namingDir, runDataFiles, saveInstrumentRun } from '../../src/driver/run-dir.js';
import type { InstrumentationMetadata } from '../../src/primitives/buffer-layout.js';
import { writeHtmlReport } from '../../src/report/write-report.js';
import { OutputDir } from '../../src/cli/output-dir.js';
import { dumpEntries, gridHeatmapPng, perPixel } from '../../src/analytics/index.js';
import { BUILTIN_UTILITIES } from '../../src/utilities/builtin.js';
import type { Utility } from '../../src/utilities/utility.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(import.meta.dirname, '.actual');

/** A user utility beside the built-ins: its page (chart, table, image) must load like theirs. */
const closestHits: Utility = {
  name: 'closest-hits',
  description: 'closest-hit invocations per pixel',
  place(ctx) {
    for (const sh of ctx.shaders) if (sh.entry.stage === 'closestHit') ctx.probe({ ...ctx.blockEntries(sh.root)[0]!, kind: 'chEntry', record: 'count' });
  },
  analyse({ dump, metadata, launch }) {
    const per = perPixel(dumpEntries(dump, metadata, (s) => s.kind === 'chEntry'), launch);
    const counts = [0, 1, 2, 3].map((n) => per.filter((v) => v === n).length);
    return {
      summary: [{ label: 'closest-hit invocations', value: String(per.reduce((a, b) => a + b, 0)) }],
      tables: [{ title: 'Pixels by closest-hit invocations', header: ['invocations', 'pixels'], rows: counts.map((c, n) => [n, c]) }],
      charts: [{ id: 'histogram', title: 'Pixels by closest-hit invocations', caption: 'test chart', config: { type: 'bar', data: { labels: [0, 1, 2, 3], datasets: [{ label: 'pixels', data: counts }] }, options: {} } }],
      images: [{ id: 'per-pixel', title: 'Closest-hit invocations per pixel', png: gridHeatmapPng(per, launch.width, launch.height) }],
    };
  },
};

async function makeReport(): Promise<string> {
  const r = await instrumentWorkload('ref', [...Object.values(BUILTIN_UTILITIES), closestHits], { width: 16, height: 16 });
  const out = new OutputDir(join(mkdtempSync(join(tmpdir(), 'vvision-report-')), 'ref'));
  const data = saveInstrumentRun(out, r);
  await writeHtmlReport(out, data);
  return out.commit();
}

const dirPromise = makeReport();

test('the report has an index, a page per analysis, chart PNGs and a source page per shader', async (t) => {
  const dir = await dirPromise;
  for (const f of ['index.html', 'simt.html', 'divergence.html', 'paths.html', 'hotspots.html', 'lifetimes.html', 'its.html',
    'utility-closest-hits.html', 'images/closest-hits-per-pixel.png', 'charts/closest-hits-histogram.png', 'closest-hits.json']) {
    t.true(existsSync(join(dir, f)), f);
  }
  const charts = readdirSync(join(dir, 'charts'));
  for (const c of ['simt-per-shader.png', 'divergence-characterization.png', 'thread-compaction.png', 'hotspots.png', 'thread-lifetimes.png', 'its-evidence.png']) {
    t.true(charts.includes(c), c);
  }
  const sources = readdirSync(join(dir, 'source')).sort();
  for (const s of ['closesthit.rchit.html', 'miss.rmiss.html', 'raygen.rgen.html', 'shadow.rmiss.html']) t.true(sources.includes(s), s);
  // #included files with code a shader ran get their own page, named after the shader and the file.
  t.true(sources.includes('closesthit.rchit_offset-ray.glsl.html'), sources.join(', '));
});

test('pages and data files name the workload\'s files relative to its manifest, never by this machine\'s paths', async (t) => {
  const dir = await dirPromise;
  const root = join(import.meta.dirname, '..', '..');
  for (const f of ['index.html', 'hotspots.html', 'hotspots.csv', 'source/closesthit.rchit.html']) {
    t.false(readFileSync(join(dir, f), 'utf8').includes(root), f);
  }
  t.regex(readFileSync(join(dir, 'hotspots.csv'), 'utf8'), /,closesthit\.rchit,/);
  t.regex(readFileSync(join(dir, 'index.html'), 'utf8'), /<code>ref\/workload\.json<\/code>/);
});

test('run.json and every metadata.json name files relative to the manifest; the run read back gives the same pages and data files', async (t) => {
  const dir = await dirPromise;
  const root = join(import.meta.dirname, '..', '..');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  for (const f of files) t.false(readFileSync(f).toString('latin1').includes(root), f);
  t.is(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).manifest, 'ref/workload.json');
  const meta = JSON.parse(readFileSync(join(dir, 'runs', 'simt', 'metadata.json'), 'utf8')) as InstrumentationMetadata;
  t.deepEqual(meta.shaders.map((s) => s.sourcePath), ['raygen.rgen', 'miss.rmiss', 'shadow.rmiss', 'closesthit.rchit']);
  t.true(meta.shaders[0]!.files!.some((f) => f.path === '../common/camera.glsl'));
  // `vvision report`'s path: the data files and the source pages come out byte for byte as first written.
  const again = loadRunDir(dir, () => closestHits);
  const pages = new Map<string, string | Uint8Array>();
  await writeHtmlReport({ write: (name, data) => pages.set(name, data) }, again);
  for (const [name, text] of Object.entries(runDataFiles(again.results, namingDir(again)))) t.is(text, readFileSync(join(dir, name), 'utf8'), name);
  for (const name of ['index.html', 'hotspots.html', 'source/closesthit.rchit.html', 'source/raygen.rgen_camera.glsl.html']) {
    t.is(pages.get(name), readFileSync(join(dir, name), 'utf8'), name);
  }
});

test('source pages: #include and layout lines of the closest-hit shader carry no data; its include page does', async (t) => {
  const dir = await dirPromise;
  const rowsWithData = (html: string) =>
    [...html.matchAll(/<tr id="L(\d+)"[^>]*style="background[^>]*>(?:<td[^>]*>[^<]*<\/td>){4}<td class="code"><pre>([^<]*)<\/pre>/g)].map((m) => m[2]!);
  const own = rowsWithData(readFileSync(join(dir, 'source', 'closesthit.rchit.html'), 'utf8'));
  t.true(own.length > 0);
  for (const text of own) t.false(/^\s*(#|layout)/.test(text), text);
  const inc = readFileSync(join(dir, 'source', 'closesthit.rchit_offset-ray.glsl.html'), 'utf8');
  t.true(rowsWithData(inc).length > 0);
  t.regex(inc, /#include<\/code>d by the closestHit shader <b>closesthit.rchit<\/b>/);
});

test('every page loads from file:// in Chromium with no console errors, and its charts draw', async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.log(`skipped: ${CHROMIUM} not installed (apt-get install -y chromium)`);
    t.pass();
    return;
  }
  const { chromium } = await import('playwright-core');
  const dir = await dirPromise;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    mkdirSync(SHOTS, { recursive: true });
    // Every page, the user utility's included.
    const pages = [...readdirSync(dir).filter((f) => f.endsWith('.html')), ...readdirSync(join(dir, 'source')).map((f) => `source/${f}`)];
    for (const p of pages) {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const errors: string[] = [];
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
      await page.goto(`file://${join(dir, p)}`);
      const canvases = await page.locator('canvas').count();
      const drawn = await page.locator('canvas[data-drawn="true"]').count();
      t.is(drawn, canvases, `${p}: every chart drew`);
      t.deepEqual(errors, [], p);
      if (p === 'index.html' || p === 'divergence.html' || p === 'source/closesthit.rchit_offset-ray.glsl.html') await page.screenshot({ path: join(SHOTS, p.replace('source/', 'source-').replace('.html', '.png')) });
      await page.close();
    }
  } finally {
    await browser.close();
  }
});
