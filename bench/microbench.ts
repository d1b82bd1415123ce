/**
 * `npm run bench -- microbench [--config X] [--set key=value ...] [--only rt,latency,...] [--json]`: the mechanism
 * microbenchmarks (bench/microbench/suite.ts) on a config (default: Vulkan-Sim's SM75_RTX2060
 * file from ../shared/calibration when present, else the rtx2060 preset), each achieved figure
 * beside the one the config implies. Prints a markdown table (or JSON with --json).
 */
import { defaultCalibrationConfig, MICROBENCH_GROUPS, type MicrobenchGroup, microbenchTable, runMicrobenchmarks } from './microbench/suite.js';

const args = process.argv.slice(2);
let config = defaultCalibrationConfig();
const overrides: string[] = [];
let json = false;
let only: MicrobenchGroup[] = [...MICROBENCH_GROUPS];
for (let i = 0; i < args.length; i++) {
  const a = args[i]!;
  if (a === '--config') config = args[++i]!;
  else if (a === '--set') overrides.push(args[++i]!);
  else if (a === '--json') json = true;
  else if (a === '--only') {
    only = args[++i]!.split(',') as MicrobenchGroup[];
    const bad = only.filter((g) => !(MICROBENCH_GROUPS as readonly string[]).includes(g));
    if (bad.length > 0) throw new Error(`microbench: unknown group ${bad.join(', ')} (groups: ${MICROBENCH_GROUPS.join(', ')})`);
  }
  else throw new Error(`microbench: unknown argument ${a} (expected --config X, --set key=value, --only groups, --json)`);
}
const t0 = performance.now();
const r = await runMicrobenchmarks(config, overrides, json ? undefined : (s) => process.stderr.write(`${s}\n`), only);
if (json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
else process.stdout.write(`Microbenchmarks on ${r.config} (${((performance.now() - t0) / 1000).toFixed(0)} s)\n\n${microbenchTable(r)}\n`);
