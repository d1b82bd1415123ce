/**
 * The measured effect on cycles of the config options this model ignores (issue 26 part 3), for
 * config-ignored.txt: `npm run bench -- sensitivity` (bench/sensitivity.ts) writes
 * presets/ignored-effects.json beside the presets (copied with them into build/), and
 * `vvision sim` prints each ignored option with its figure, or "not measured" where the study has
 * none (an option it found inert or could not express) -- never a reason in place of a figure.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const IGNORED_EFFECTS_FILE = 'ignored-effects.json';

export interface IgnoredEffects {
  generator: string;
  /** The code commit the runs were made at. */
  commit: string;
  /** The config file the study ran on (base name). */
  config: string;
  /** Workload and samples per pixel, e.g. "lumibench-wknd 2 spp". */
  frame: string;
  /** Option -> the modelled alternative it was measured through and the effect per frame size ("64x64" -> "+0.3%"). */
  effects: Record<string, { alternative: string; sizes: Record<string, string> }>;
}

let cached: IgnoredEffects | null | undefined;

/** The generated figures, or undefined when the file is absent (the study has not been run). */
export function loadIgnoredEffects(): IgnoredEffects | undefined {
  if (cached === undefined) {
    const file = join(dirname(fileURLToPath(import.meta.url)), 'presets', IGNORED_EFFECTS_FILE);
    cached = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as IgnoredEffects) : null;
  }
  return cached ?? undefined;
}

/** "effect on cycles 64x64 -0.5%, 128x128 +0.2% (through --set ...)" or "effect on cycles not measured". */
export function effectText(key: string, effects: IgnoredEffects | undefined): string {
  const e = effects?.effects[key];
  if (e === undefined) return 'effect on cycles not measured';
  const sizes = Object.entries(e.sizes).map(([s, d]) => `${s} ${d}`).join(', ');
  return `effect on cycles ${sizes} (measured through ${e.alternative})`;
}

/**
 * config-ignored.txt: one line per ignored option as the loader lists it (`file:line: key: reason`),
 * the measured effect first, the reason after it.
 */
export function formatConfigIgnored(configName: string, ignored: readonly string[], effects: IgnoredEffects | undefined): string {
  const head = effects
    ? `# options of ${configName} this model does not have: the effect on cycles measured by \`${effects.generator}\` (${effects.frame} on ${effects.config}, commit ${effects.commit}; docs/generated/config-sensitivity.md) or "not measured", then why it is ignored`
    : `# options of ${configName} this model does not have: effects not measured (no ${IGNORED_EFFECTS_FILE}; run \`npm run bench -- sensitivity\`), then why each is ignored`;
  const lines = ignored.map((l) => {
    const m = /^(.+?):(\d+): (\S+): (.*)$/.exec(l);
    if (!m) return l;
    // The config file by name (the header names the config): not the writing machine's absolute path.
    const file = m[1]!.split(/[\\/]/).pop() || m[1]!;
    return `${file}:${m[2]}: ${m[3]}: ${effectText(m[3]!, effects)}; ignored: ${m[4]}`;
  });
  return `${head}\n${lines.join('\n')}\n`;
}
