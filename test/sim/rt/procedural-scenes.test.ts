import test from 'ava';
import { proceduralScene, ProceduralSceneError, RTV6_OBJECT_COUNT } from '../../../src/sim/rt/procedural-scenes.js';

test('wknd follows the book: ground + 3 big spheres + grid spheres, seeded and deterministic', (t) => {
  const a = proceduralScene('wknd', 42), b = proceduralScene('wknd', 42), c = proceduralScene('wknd', 43);
  const g = a.procedurals[0]!;
  const n = g.materialIds.length;
  t.true(n > 400 && n <= 1 + 22 * 22 + 3);
  t.deepEqual(Array.from(g.params.subarray(0, 4)), [0, -1000, 0, 1000]);
  t.deepEqual(Array.from(g.params.subarray(4 * (n - 3))), [0, 1, 0, 1, -4, 1, 0, 1, 4, 1, 0, 1]);
  t.deepEqual(g.params, b.procedurals[0]!.params);
  t.notDeepEqual(g.params, c.procedurals[0]!.params);
  const small = Array.from({ length: n - 4 }, (_, i) => i + 1);
  for (const i of small) {
    t.is(g.params[4 * i + 1], Math.fround(0.2));
    t.is(g.params[4 * i + 3], Math.fround(0.2));
    // Spheres too close to (4, 0.2, 0) are skipped, as in the book.
    t.true(Math.hypot(g.params[4 * i]! - 4, g.params[4 * i + 2]!) > 0.9 - 1e-6);
    t.true(Math.abs(g.aabbs[6 * i]! - (g.params[4 * i]! - 0.2)) < 1e-6 && Math.abs(g.aabbs[6 * i + 4]! - 0.4) < 1e-6);
  }
  const types = small.map((i) => a.materials[g.materialIds[i]!]!.type);
  const share = (k: string): number => types.filter((x) => x === k).length / types.length;
  t.true(share('lambertian') > 0.7 && share('lambertian') < 0.9);
  t.true(share('metal') > 0.08 && share('metal') < 0.22);
  t.true(share('dielectric') > 0.01 && share('dielectric') < 0.1);
  t.deepEqual(a.camera?.lookFrom, [13, 2, 3]);
});

test('cornell, rtv6 and tri are well formed', (t) => {
  const cornell = proceduralScene('cornell', 0);
  t.is(cornell.meshes[0]!.indices.length / 3, 12);
  t.is(cornell.meshes[1]!.indices.length / 3, 12);
  t.is(cornell.instances.length, 3);
  t.true(cornell.materials.some((m) => m.type === 'diffuseLight'));
  const rtv6 = proceduralScene('rtv6', 9);
  t.deepEqual(rtv6.procedurals.map((p) => p.kind), ['sphere', 'box']);
  t.is(rtv6.procedurals[0]!.materialIds.length + rtv6.procedurals[1]!.materialIds.length, RTV6_OBJECT_COUNT);
  t.deepEqual(rtv6.instances.map((i) => i.sbtOffset), [0, 1]);
  t.is(proceduralScene('tri', 0).meshes[0]!.indices.length, 3);
  t.throws(() => proceduralScene('nope' as 'tri', 0), { instanceOf: ProceduralSceneError, message: /unknown procedural scene 'nope'/ });
});

test('cornell quads face the inside of the room', (t) => {
  const s = proceduralScene('cornell', 0);
  const m = s.meshes[0]!;
  for (let f = 0; f < m.indices.length / 3; f++) {
    const v = [0, 1, 2].map((k) => Array.from(m.positions.subarray(3 * m.indices[3 * f + k]!, 3 * m.indices[3 * f + k]! + 3)));
    const e1 = v[1]!.map((x, a) => x - v[0]![a]!), e2 = v[2]!.map((x, a) => x - v[0]![a]!);
    const n = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
    const toCentre = [277.5 - v[0]![0]!, 277.5 - v[0]![1]!, 277.5 - v[0]![2]!];
    t.true(n[0]! * toCentre[0]! + n[1]! * toCentre[1]! + n[2]! * toCentre[2]! > 0, `face ${f}`);
  }
});
