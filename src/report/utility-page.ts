/**
 * What a utility's analysis hands the report: headline figures, tables (rows), chart.js chart
 * specifications and images (PNG bytes, e.g. a per-pixel heatmap). The report renders one page
 * per utility from this alone; user utilities produce it in their `analyse`, so a new utility
 * gets a report page without touching src/report.
 */
import type { ChartSpec } from './chart-specs.js';

export interface ReportHeadline {
  label: string;
  value: string;
  note?: string;
}

export interface ReportTable {
  title: string;
  caption?: string;
  header: string[];
  rows: (string | number)[][];
}

export interface ReportImage {
  /** File-name-safe id: the image is written as `images/<utility>-<id>.png`. */
  id: string;
  title: string;
  caption?: string;
  /** PNG bytes. */
  png: Uint8Array;
}

/** The report-facing part of an analysis. */
export interface ReportSection {
  summary?: ReportHeadline[];
  tables?: ReportTable[];
  charts?: ChartSpec[];
  images?: ReportImage[];
}

/** One user utility's page. */
export interface ReportUtilityPage extends ReportSection {
  name: string;
  description: string;
  /** The analysis's JSON-able data, written as `<name>.json` beside the page. */
  data?: unknown;
}

/** Ids of charts and images must be usable as file names. */
export const REPORT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
