/**
 * A sweep's grid: `--vary knob=v1,v2,...` dimensions (configuration knobs by their GPGPU-Sim
 * names, or a study pseudo-knob such as `limit` or `predictor`, see study-bundles.ts), crossed into points, each point the knob
 * overrides it adds to the base configuration. Knob names and values are checked here, so a typo
 * is an error naming the option before anything runs.
 */
import { ConfigError } from '../../sim/config/config-error.js';
import { findParam } from '../../sim/config/params.js';
import { loadConfig } from '../../sim/timing/index.js';
import { STUDY_BUNDLES, isStudyKnob } from './study-bundles.js';

export interface SweepDimension {
  knob: string;
  values: string[];
}

export interface SweepPoint {
  /** Value per dimension, in dimension order. */
  values: string[];
  overrides: string[];
}

export function parseVary(text: string): SweepDimension {
  const m = /^([^=\s]+)=(.+)$/.exec(text);
  if (!m) throw new ConfigError(`--vary: expected knob=v1,v2,..., got '${text}'`, text);
  const knob = m[1]!;
  const values = m[2]!.split(',').map((v) => v.trim());
  if (values.some((v) => v === '')) throw new ConfigError(`--vary ${knob}: empty value in '${m[2]}'`, knob);
  if (new Set(values).size !== values.length) throw new ConfigError(`--vary ${knob}: a value is listed twice in '${m[2]}'`, knob);
  if (isStudyKnob(knob)) {
    const bundles = STUDY_BUNDLES[knob]!;
    for (const v of values) {
      if (!Object.hasOwn(bundles, v)) throw new ConfigError(`--vary ${knob}: unknown ${knob} study '${v}' (known: ${Object.keys(bundles).join(', ')})`, knob);
    }
  } else if (!findParam(knob)) {
    throw new ConfigError(`--vary: unknown configuration knob '${knob}' (see docs/calibration.md and src/sim/config/params.ts for the declared knobs)`, knob);
  }
  return { knob, values };
}

function overridesOf(knob: string, value: string): string[] {
  return isStudyKnob(knob) ? STUDY_BUNDLES[knob]![value]!.overrides : [`${knob}=${value}`];
}

/** Every combination, the first dimension varying slowest. Each point's config is loaded once to check its values. */
export function sweepPoints(dims: SweepDimension[], config: string, baseOverrides: string[]): SweepPoint[] {
  const knobs = dims.map((d) => d.knob);
  const repeated = knobs.find((k, i) => knobs.indexOf(k) !== i);
  if (repeated) throw new ConfigError(`--vary ${repeated} is given twice`, repeated);
  let points: SweepPoint[] = [{ values: [], overrides: [] }];
  for (const d of dims) {
    points = points.flatMap((p) => d.values.map((v) => ({ values: [...p.values, v], overrides: [...p.overrides, ...overridesOf(d.knob, v)] })));
  }
  for (const p of points) loadConfig(config, [...baseOverrides, ...p.overrides]); // throws ConfigError naming the bad key / value
  return points;
}
