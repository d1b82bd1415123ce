/**
 * `{"addressOf": "<buffer name>", "offset": n, "element": k}` values anywhere in a manifest: every
 * one must name a buffer the manifest declares (a `buffers` entry or a descriptor's `id`), so a
 * typo is reported with its key path when the manifest loads, not as a wrong address in a run.
 * `{model}` in a name stands for each model's index (object descriptions packed per model).
 * An `{"addressOf": ...}` inside free JSON (a uniform's value, push constants, shader records) is
 * parsed here with the schema's `addressOfSchema`; under `fields` the manifest parse already did.
 * Invariant: visits only parts the schema parse vouches for (`ok`); records problems, never throws.
 */
import { isObject, key, report, type JsonChecks } from './json-checks.js';
import { addressOfSchema } from './manifest-schema.js';
import { parseReporting, type Vouch } from './schema-issues.js';

/** The placeholder a name may hold in `fields` of per-model records. */
export const MODEL_PLACEHOLDER = '{model}';

/** Names a value may take the address of: `buffers[].name` and storage buffers' `id`, each once. */
export function declaredBufferNames(c: JsonChecks, root: Record<string, unknown>): Set<string> {
  const names = new Map<string, string>();
  const add = (name: unknown, path: string): void => {
    if (typeof name !== 'string') return;
    const first = names.get(name);
    if (first !== undefined) report(c, path, `buffer name "${name}" is already used by ${first}`);
    else names.set(name, path);
  };
  if (Array.isArray(root.buffers)) root.buffers.forEach((b, i) => isObject(b) && add(b.name, key(key('buffers', i), 'name')));
  if (Array.isArray(root.descriptors)) root.descriptors.forEach((d, i) => isObject(d) && add(d.id, key(key('descriptors', i), 'id')));
  return new Set(names.keys());
}

/** Checks every addressOf value under the manifest's value-holding keys. */
export function checkAddressReferences(
  c: JsonChecks, root: Record<string, unknown>, names: Set<string>, modelCount: number, vouch: Vouch,
): void {
  const visit = (v: unknown, path: string): void => {
    if (!vouch.ok(path)) return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => visit(x, key(path, i)));
      return;
    }
    if (!isObject(v)) return;
    if ('addressOf' in v) {
      const a = parseReporting(c, addressOfSchema, v, path).data;
      if (!a) return;
      const concrete = a.addressOf.includes(MODEL_PLACEHOLDER)
        ? Array.from({ length: Math.max(1, modelCount) }, (_, i) => a.addressOf.split(MODEL_PLACEHOLDER).join(String(i)))
        : [a.addressOf];
      const missing = concrete.filter((n) => !names.has(n));
      if (missing.length > 0) {
        const known = names.size > 0 ? [...names].join(', ') : 'none: add a "buffers" entry or an "id" to a storage buffer descriptor';
        report(c, key(path, 'addressOf'), `no buffer named "${missing[0]}" (buffers: ${known})`);
      }
      return;
    }
    for (const [k, x] of Object.entries(v)) visit(x, key(path, k));
  };
  if (Array.isArray(root.descriptors)) {
    root.descriptors.forEach((d, i) => {
      if (!isObject(d)) return;
      for (const k of ['value', 'members', 'fields']) visit(d[k], key(key('descriptors', i), k));
    });
  }
  if (Array.isArray(root.buffers)) {
    root.buffers.forEach((b, i) => {
      if (!isObject(b)) return;
      for (const k of ['value', 'fields']) visit(b[k], key(key('buffers', i), k));
    });
  }
  visit(root.pushConstants, 'pushConstants');
  visit(root.raygenShaderRecord, 'raygenShaderRecord');
  for (const k of ['hitGroups', 'miss', 'callables']) {
    if (!Array.isArray(root[k])) continue;
    (root[k] as unknown[]).forEach((e, i) => isObject(e) && visit(e.shaderRecord, key(key(k, i), 'shaderRecord')));
  }
}
