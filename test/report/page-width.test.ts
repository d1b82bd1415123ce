// Report pages fit a 1400-pixel-wide window: a sweep's wide grid (predictor metrics, three
// varied knobs) and a source page with very long lines scroll inside the page, never widen it.
// Needs Debian's chromium (skipped without it, as the other browser test).
import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeSweepReport } from '../../src/report/write-sweep-report.js';
import { loadTemplates, writeAssets } from '../../src/report/templates.js';
import { STAT_META } from '../../src/sim/timing/index.js';

const CHROMIUM = '/usr/bin/chromium';

function writer(dir: string) {
  return {
    write(name: string, data: string | Uint8Array) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), data);
    },
  };
}

test('a wide sweep grid and long source lines do not make the page wider than 1400 px', async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.log(`skipped: ${CHROMIUM} not installed (apt-get install -y chromium)`);
    t.pass();
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'vv-width-'));
  const w = writer(dir);
  const metrics = {
    gpu_sim_cycle: 123456789, gpu_ipc: 1.23456, L1D_total_cache_miss_rate: 0.123456, L2_total_cache_miss_rate: 0.23456, dram_eff: 0.345678,
    bwutil: 0.456789, rt_avg_efficiency: 0.56789, rt_predictor_lookups: 1000, rt_predictor_predicted_rate: 0.1234, rt_predictor_verified_rate: 0.2345,
    rt_predictor_mispredicted_rate: 0.0123, rt_predictor_memory_savings: 0.3456, rt_predictor_node_fetch_savings: 0.4567, rt_predictor_nodes: 10, rt_predictor_baseline_nodes: 20,
  };
  const dims = [{ knob: 'gpgpu_rt_predictor_table_entries', values: ['1024', '4096'] }, { knob: 'gpgpu_rt_max_warps_per_unit_long_name', values: ['4', '8'] }, { knob: 'gpgpu_n_clusters', values: ['15', '30'] }];
  const rows = dims[0]!.values.flatMap((a) => dims[1]!.values.flatMap((b) => dims[2]!.values.map((c) => ({ values: [a, b, c], metrics, speedup: 1.234, wallSeconds: 12.3 }))));
  writeSweepReport(w, { workload: '/a/rather/long/path/to/some/user/application/folder/workload.json', config: 'mobile', params: { width: 64, height: 64, spp: 1 }, dims, rows, meta: STAT_META });
  // A source page as write-report renders it, with a 400-character line.
  const t2 = loadTemplates();
  writeAssets(w);
  const long = `vec3 x = ${'someFunctionCall(argument) + '.repeat(14)}1.0;`;
  const body = t2.source({ name: 'raygen.rgen', stage: 'raygen', path: 'raygen.rgen', annotatedFile: 'x', lines: [{ number: 1, executions: 1, simt: '100%', threadExecutions: 32, text: long, histogram: '32:1', title: '' }] });
  w.write('source.html', t2.layout({ title: 'source', root: '', body, workload: 'w', width: 1, height: 1, spp: 1, nav: [], charts: [], chartsJson: '[]' }));
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    for (const p of ['index.html', 'source.html']) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(`file://${join(dir, p)}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      t.true(width <= 1400, `${p}: page is ${width} px wide`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
});
