/**
 * Writes a configuration back out in gpgpusim.config form (`-key value  # unit: description`),
 * every declared parameter once, in declaration order -- what a run records beside its stats so
 * it can be reproduced with `--config` (the output reads back to an identical configuration).
 */
import type { GpuConfig } from './gpu-config.js';
import { PARAMS } from './params.js';

export function formatConfig(cfg: GpuConfig): string {
  const lines = [`# vvision timing configuration (from ${cfg.source})`];
  const width = Math.max(...PARAMS.map((p) => p.name.length)) + 2;
  for (const p of PARAMS) {
    const v = cfg.raw[p.name] ?? p.default;
    const value = /\s|#/.test(v) ? `"${v}"` : v;
    const unit = p.unit ? `${p.unit}: ` : '';
    lines.push(`-${p.name.padEnd(width)}${value.padEnd(12)} # ${unit}${p.description}`);
  }
  return lines.join('\n') + '\n';
}
