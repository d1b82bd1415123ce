// Run options reach the manifest only through "${spp}"-style placeholders: one given that nothing
// uses is a warning, and the documented placeholders in a uniform buffer's `value` work.
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { prepareRun } from '../../../src/driver/run-workload.js';

const APP = resolve(import.meta.dirname, '../../../examples/apps/sascha-raytracingreflections');

/** The example app's manifest with binding 2 replaced, written with absolute paths to a temp dir. */
function variant(ubo: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vv-runparam-'));
  const json = JSON.parse(readFileSync(join(APP, 'workload.json'), 'utf8')) as Record<string, unknown>;
  const descriptors = (json.descriptors as Record<string, unknown>[]).map((d) => (d.binding === 2 ? { set: 0, binding: 2, kind: 'uniformBuffer', ...ubo } : d));
  const text = JSON.stringify({ ...json, descriptors, $schema: undefined })
    .replace(/"([^"]+\.(?:rgen|rchit|rmiss|obj))"/g, (_, f: string) => JSON.stringify(resolve(APP, f)));
  writeFileSync(join(dir, 'workload.json'), text);
  return join(dir, 'workload.json');
}

const identity = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];

test('--spp that no placeholder uses is a warning naming the option', async (t) => {
  const warnings: string[] = [];
  await prepareRun(join(APP, 'workload.json'), { width: 8, height: 8, spp: 2, seed: 3, onWarning: (w) => warnings.push(w) });
  t.is(warnings.length, 2, warnings.join('\n'));
  t.regex(warnings[0]!, /--spp 2 is not used: no push constant or uniform member of the manifest holds "\$\{spp\}"/);
  t.regex(warnings[1]!, /--seed 3 is not used/);
});

test('"${spp}" in a uniform buffer\'s value is substituted (the interface check and the host)', async (t) => {
  const warnings: string[] = [];
  const path = variant({ value: { viewInverse: identity, projInverse: identity, lightPos: [0, 1, 0, 0], vertexSize: '${spp}' } });
  const p = await prepareRun(path, { width: 8, height: 8, spp: 5, onWarning: (w) => warnings.push(w) });
  t.deepEqual(warnings, []);
  const ubo = p.host.resources.buffers!.find((b) => b.binding === 2)!;
  t.is(new DataView(ubo.data.buffer, ubo.data.byteOffset).getInt32(144, true), 5);
});
