/**
 * The report's handlebars templates (reports/*.hbs, compiled once per process) and the assets
 * copied beside every report so it works from file:// with no network.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

export interface ReportWriter {
  write(name: string, data: string | Uint8Array): void;
}

export const TEMPLATE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'reports');

export interface Templates {
  layout: HandlebarsTemplateDelegate;
  index: HandlebarsTemplateDelegate;
  analysis: HandlebarsTemplateDelegate;
  source: HandlebarsTemplateDelegate;
}

let templates: Templates | undefined;

export function loadTemplates(): Templates {
  if (templates) return templates;
  const hb = Handlebars.create();
  const compile = (name: string) => hb.compile(readFileSync(join(TEMPLATE_DIR, `${name}.hbs`), 'utf8'));
  templates = { layout: compile('layout'), index: compile('index'), analysis: compile('analysis'), source: compile('source') };
  return templates;
}

export function chartJsBundle(): string {
  const require = createRequire(import.meta.url);
  return readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
}

/** CSS and chart.js into assets/. */
export function writeAssets(w: ReportWriter): void {
  w.write('assets/report.css', readFileSync(join(TEMPLATE_DIR, 'report.css')));
  w.write('assets/chart.umd.min.js', chartJsBundle());
}
