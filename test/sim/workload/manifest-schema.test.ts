// The manifest described once (src/sim/workload/manifest-schema.ts): the shipped JSON Schema is
// generated from it, every manifest vvision ships parses under it, and the validator accepts
// exactly the keys it declares.
import test from 'ava';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { manifestSchema } from '../../../src/sim/workload/manifest-schema.js';
import { validateManifest } from '../../../src/sim/workload/validate-manifest.js';
import { loadManifest } from '../../../src/sim/workload/load-manifest.js';
import { SCHEMA_FILE, schemaText } from '../../../workloads/tools/make-schema.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const shipped = [
  ...readdirSync(join(ROOT, 'workloads')).map((d) => join(ROOT, 'workloads', d, 'workload.json')),
  ...readdirSync(join(ROOT, 'examples/apps')).map((d) => join(ROOT, 'examples/apps', d, 'workload.json')),
].filter((f) => existsSync(f));

test('workloads/workload.schema.json is what workloads/tools/make-schema.ts generates', (t) => {
  t.is(readFileSync(SCHEMA_FILE, 'utf8'), schemaText(), 'regenerate: npx tsx workloads/tools/make-schema.ts');
  const schema = JSON.parse(schemaText()) as { $schema: string; properties: Record<string, unknown>; required: string[] };
  t.is(schema.$schema, 'http://json-schema.org/draft-07/schema#');
  t.true('descriptors' in schema.properties && 'accelerationStructures' in schema.properties);
  t.deepEqual(schema.required.sort(), ['launch', 'miss', 'name', 'shaders']);
});

test('every shipped manifest parses under the schema and loads', (t) => {
  t.true(shipped.length >= 13);
  for (const file of shipped) {
    const r = manifestSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    t.true(r.success, `${file}: ${r.success ? '' : JSON.stringify(r.error.issues.slice(0, 2))}`);
    t.notThrows(() => loadManifest(file), file);
  }
});

test('manifests that need data vvision does not ship (workload.original-scene.json) still parse under the schema', (t) => {
  const extra = readdirSync(join(ROOT, 'examples/apps')).flatMap((d) => readdirSync(join(ROOT, 'examples/apps', d))
    .filter((f) => /^workload\..+\.json$/.test(f)).map((f) => join(ROOT, 'examples/apps', d, f)));
  t.true(extra.length >= 1);
  for (const file of extra) {
    const r = manifestSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    t.true(r.success, `${file}: ${r.success ? '' : JSON.stringify(r.error.issues.slice(0, 2))}`);
  }
});

test('a key or value the schema refuses, the validator refuses too, with the key path', (t) => {
  const base = JSON.parse(readFileSync(join(ROOT, 'workloads/tri/workload.json'), 'utf8')) as Record<string, unknown>;
  const descriptors = base.descriptors as Record<string, unknown>[];
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ ...base, lauch: {} }, /lauch: unknown key/],
    [{ ...base, descriptors: [{ ...descriptors[0], bindng: 1 }, ...descriptors.slice(1)] }, /descriptors\[0\]\.bindng: unknown key/],
    [{ ...base, launch: { width: 8, height: 8, dpeth: 1 } }, /launch\.dpeth: unknown key/],
    [{ ...base, scene: { ...(base.scene as object), conversions: ['flipZ'] } }, /scene\.conversions\[0\]: expected one of "preTransformVertices"/],
  ];
  for (const [json, message] of cases) {
    t.false(manifestSchema.safeParse(json).success, String(message));
    const { problems } = validateManifest(json, 'tri.json', join(ROOT, 'workloads/tri/workload.json'), join(ROOT, 'workloads/tri'));
    t.true(problems.some((p) => message.test(p)), `${message} among ${problems.join('\n')}`);
  }
});

test('schema messages name the deepest key: a union is explained by the branch the value is meant for', (t) => {
  const base = JSON.parse(readFileSync(join(ROOT, 'workloads/tri/workload.json'), 'utf8')) as Record<string, unknown>;
  const json = {
    ...base,
    shaders: { ...(base.shaders as object), miss: [{ file: 3 }] },
    miss: [{ shader: 'miss.rmiss', extra: 1 }],
    launch: { width: 8 },
    scene: { ...(base.scene as object), instances: [{ transform: [1, 2, 3], mask: 300 }] },
    pushConstants: { where: { addressOf: 5 } },
  };
  const { problems } = validateManifest(json, 'tri.json', join(ROOT, 'workloads/tri/workload.json'), join(ROOT, 'workloads/tri'));
  t.deepEqual(problems.filter((p) => !p.includes('is not listed')), [
    'tri.json: shaders.miss[0].file: expected a non-empty string, found 3',
    'tri.json: miss[0].extra: unknown key (expected one of shader, shaderRecord)',
    'tri.json: scene.instances[0].transform: expected a 3x4 row-major matrix (12 numbers, or 3 rows of 4), found an array of 3',
    'tri.json: scene.instances[0].mask: expected an 8-bit mask (0..255), found 300',
    'tri.json: launch.height: missing (expected a positive integer)',
    'tri.json: pushConstants.where.addressOf: expected a non-empty string, found 5',
  ]);
});

test('validateManifest never throws: every key of a shipped manifest replaced by values of other JSON types', (t) => {
  const file = join(ROOT, 'examples/apps/sascha-raytracingreflections/workload.json');
  const base = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const paths: (string | number)[][] = [];
  const walk = (v: unknown, p: (string | number)[]): void => {
    if (p.length > 0) paths.push(p);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...p, i]));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...p, k]);
  };
  walk(base, []);
  let cases = 0;
  for (const p of paths) {
    for (const odd of [null, -1, 'x', [], {}, { addressOf: 1 }]) {
      const m = structuredClone(base) as Record<string | number, unknown>;
      const parent = p.slice(0, -1).reduce<Record<string | number, unknown>>((o, k) => o[k] as Record<string | number, unknown>, m);
      parent[p.at(-1)!] = odd;
      t.notThrows(() => validateManifest(m, 'w.json', file, join(file, '..')), p.join('.'));
      cases++;
    }
  }
  t.true(cases > 300);
});
