// The case issue 16 came from: the nvpro tutorial's Medieval building (91 materials, JPEG and PNG
// textures through MTL map_Kd) as one model of two, drawn by the models workload's shaders with
// the sampler array taken from the scene. Uses the shared scene collection beside the project
// (skipped without it).
import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchOptionsOf, prepareRun } from '../../src/driver/run-workload.js';
import { runFunctional } from '../../src/sim/functional/launch.js';
import { imageChannelMeans } from '../../src/sim/host/image-png.js';
import { REPO_ROOT } from '../repo-root.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BUILDING = resolve(REPO_ROOT, '../shared/scenes/vk_raytracing_tutorial_KHR/Medieval_building/Medieval_building.obj');

(existsSync(BUILDING) ? test : test.skip)('the Medieval building with its JPEG textures renders through scene.models and "files": "scene"', async (t) => {
  const src = join(ROOT, 'workloads/models');
  const m = JSON.parse(readFileSync(join(src, 'workload.json'), 'utf8'));
  const abs = (p: string) => resolve(src, p);
  for (const stage of Object.keys(m.shaders)) m.shaders[stage] = m.shaders[stage].map(abs);
  m.hitGroups = m.hitGroups.map((g: { closestHit: string }) => ({ ...g, closestHit: abs(g.closestHit) }));
  m.miss = m.miss.map(abs);
  m.scene.models = [
    { name: 'floor', obj: abs('../scenes/floor.obj'), transform: [[1.5, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1.5, 0]] },
    { name: 'building', obj: BUILDING },
  ];
  for (const d of m.descriptors) {
    if (d.kind === 'sampledImages') d.files = 'scene';
    if (d.kind === 'uniformBuffer') d.camera = { lookFrom: [5.5, 3.5, 6.5], lookAt: [0, 1.8, 0], fovY: 45 };
  }
  m.pushConstants.pcRay.lightPosition = [6, 12, 8];
  m.pushConstants.pcRay.lightIntensity = 300;
  const dir = mkdtempSync(join(tmpdir(), 'vv-medieval-'));
  writeFileSync(join(dir, 'workload.json'), JSON.stringify(m));

  const p = await prepareRun(join(dir, 'workload.json'), { width: 24, height: 18 });
  const textures = p.host.resources.images!.filter((i) => i.set === 1 && i.binding === 2);
  t.is(textures.length, p.scene.textures.length);
  t.is(p.scene.models![1]!.firstTexture, 1, "the building's textures follow the floor's");
  t.true(p.scene.textures.filter((x) => /\.jpg$/i.test(x.path)).length >= 6, 'JPEG textures among them');
  runFunctional(p.program, p.host.resources, launchOptionsOf(p, undefined));
  const [r, g, b] = imageChannelMeans(p.host.output!);
  t.true(r! > 0.1 && r! > b! * 0.5 && g! > 0.1, `a lit, textured frame: ${[r, g, b].map((x) => x!.toFixed(2))}`);
});
