/**
 * Which run parameters (`--spp`, `--bounces`, `--seed`, ...) a manifest lets reach the shaders:
 * only through "${spp}"-style placeholders in push constants and in uniform buffers' `value` and
 * `members` (validate-manifest.ts reports them anywhere else). A run option that no placeholder
 * uses changes nothing, so the run says so instead of rendering the manifest's literal values.
 * Invariant: pure; reads the loaded manifest only.
 */
import type { JsonValue, WorkloadManifest } from './manifest.js';

/** The parameters `--width` / `--height` always reach (they are the launch size). */
const LAUNCH_PARAMETERS = new Set(['width', 'height']);

/** Placeholder names ("spp" for "${spp}") used anywhere a run parameter is substituted. */
export function usedRunParameters(manifest: WorkloadManifest): Set<string> {
  const used = new Set<string>();
  const visit = (v: JsonValue | undefined): void => {
    if (typeof v === 'string') {
      const m = /^\$\{(\w+)\}$/.exec(v);
      if (m) used.add(m[1]!);
    } else if (Array.isArray(v)) {
      v.forEach(visit);
    } else if (v !== null && typeof v === 'object') {
      Object.values(v).forEach(visit);
    }
  };
  visit(manifest.pushConstants);
  for (const d of manifest.descriptors) {
    if (d.kind !== 'uniformBuffer') continue;
    visit(d.value);
    visit(d.members);
  }
  return used;
}

/** One warning per given run option, different from the manifest's own value, that nothing in the manifest uses. */
export function unusedRunOptionWarnings(manifest: WorkloadManifest, given: Partial<Record<'spp' | 'bounces' | 'seed' | 'width' | 'height', number>>): string[] {
  const used = usedRunParameters(manifest);
  const out: string[] = [];
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined || LAUNCH_PARAMETERS.has(name) || used.has(name)) continue;
    // The manifest's own value changes nothing either way.
    const own = name === 'spp' ? manifest.spp : name === 'bounces' ? manifest.bounces : name === 'seed' ? manifest.seed : undefined;
    if (value === own) continue;
    out.push(
      `${manifest.path}: --${name} ${value} is not used: no push constant or uniform member of the manifest holds "\${${name}}", `
      + `so the shaders see the manifest's own values (put "\${${name}}" where the application keeps it, e.g. "members": {"Camera.${name === 'spp' ? 'NumberOfSamples' : name}": "\${${name}}"})`,
    );
  }
  return out;
}
