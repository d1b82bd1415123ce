/**
 * The predictor paper's workload at the paper's scene size (paper 002 Sec. 5.2, Table 1: interior
 * scenes of 75K to 1.4M triangles; 4 AO rays per pixel, rays 25-40% of the scene diagonal long),
 * built from the shared scene files: the Cornell box furnished with the Stanford bunny, the Newell
 * teapot and Spot (81,663 triangles, between the paper's Sibenik at 75K and Fireplace Room at
 * 143K), written as one OBJ so that the built-in `ao` shaders (one vertex and index buffer) trace
 * it unchanged. The manifest is `workloads/ao`'s with 4 AO rays (specialization constant 0) and a
 * radius of 30% of the box's diagonal; everything is written under .bench/ (ignored by git).
 *
 * Larger classic interiors (Sponza, San Miguel) are not in ../shared/scenes (docs/predictor.md).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { calibrationDir } from '../../src/sim/workload/load-manifest.js';
import { repoRoot } from '../jobs/wknd-runs.js';

/** A model placed on the box's floor: centre (x, z), height, and a turn about y (degrees). */
interface Placement { file: string; x: number; z: number; height: number; turn: number }

const FURNITURE: Placement[] = [
  { file: 'common-3d-test-models/stanford-bunny.obj', x: -0.35, z: -0.25, height: 0.9, turn: 20 },
  { file: 'common-3d-test-models/teapot.obj', x: 0.45, z: 0.35, height: 0.45, turn: -30 },
  { file: 'common-3d-test-models/spot.obj', x: 0.45, z: -0.5, height: 0.6, turn: 200 },
];
const BOX = 'mcguire-CornellBox-Original/CornellBox-Original.obj';
/** AO ray length: the paper's 25-40% of the scene bounding box's diagonal, here 30%. */
export const AO_RADIUS_FRACTION = 0.3;
/** Paper 002 Sec. 5.2: four AO rays per primary hit. */
export const PAPER_AO_RAYS = 4;

function scenesDir(): string {
  return resolve(calibrationDir(), '..', 'scenes');
}

/** Positions and triangles (fans of polygons) of an OBJ, indices resolved to 0-based. */
function readObj(path: string): { v: number[][]; f: number[][] } {
  const v: number[][] = [];
  const f: number[][] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const t = line.trim().split(/\s+/);
    if (t[0] === 'v') v.push([Number(t[1]), Number(t[2]), Number(t[3])]);
    else if (t[0] === 'f') {
      const idx = t.slice(1).map((s) => {
        const i = Number(s.split('/')[0]);
        return i < 0 ? v.length + i : i - 1;
      });
      for (let k = 1; k + 1 < idx.length; k++) f.push([idx[0]!, idx[k]!, idx[k + 1]!]);
    }
  }
  return { v, f };
}

export interface InteriorScene {
  manifest: string;
  triangles: number;
  radius: number;
}

/** Writes (once) the furnished box and its AO manifest; returns the manifest's path. */
export function aoInteriorWorkload(aoRays = PAPER_AO_RAYS): InteriorScene {
  const dir = join(repoRoot, '.bench', 'ao-interior');
  mkdirSync(dir, { recursive: true });
  const box = readObj(join(scenesDir(), BOX));
  const verts: number[][] = [...box.v];
  const tris: number[][] = [...box.f];
  for (const p of FURNITURE) {
    const m = readObj(join(scenesDir(), p.file));
    const lo = [0, 1, 2].map((a) => Math.min(...m.v.map((x) => x[a]!)));
    const hi = [0, 1, 2].map((a) => Math.max(...m.v.map((x) => x[a]!)));
    const s = p.height / (hi[1]! - lo[1]!);
    const c = [(lo[0]! + hi[0]!) / 2, lo[1]!, (lo[2]! + hi[2]!) / 2];
    const a = (p.turn * Math.PI) / 180;
    const base = verts.length;
    for (const x of m.v) {
      const dx = (x[0]! - c[0]!) * s;
      const dz = (x[2]! - c[2]!) * s;
      verts.push([p.x + dx * Math.cos(a) + dz * Math.sin(a), (x[1]! - c[1]!) * s, p.z - dx * Math.sin(a) + dz * Math.cos(a)]);
    }
    for (const t of m.f) tris.push(t.map((i) => i + base));
  }
  const obj = join(dir, 'furnished-box.obj');
  const text = `# Cornell box (McGuire, public domain) with the Stanford bunny, the Newell teapot and Spot (CC0), from ../shared/scenes; written by bench/case-studies/ao-interior.ts\n${
    verts.map((x) => `v ${x.map((n) => n.toFixed(5)).join(' ')}`).join('\n')}\n${tris.map((t) => `f ${t.map((i) => i + 1).join(' ')}`).join('\n')}\n`;
  if (!existsSync(obj) || readFileSync(obj, 'utf8') !== text) writeFileSync(obj, text);
  const lo = [0, 1, 2].map((a) => Math.min(...box.v.map((x) => x[a]!)));
  const hi = [0, 1, 2].map((a) => Math.max(...box.v.map((x) => x[a]!)));
  const radius = Number((AO_RADIUS_FRACTION * Math.hypot(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!)).toFixed(3));
  const aoDir = join(repoRoot, 'workloads', 'ao');
  const m = JSON.parse(readFileSync(join(aoDir, 'workload.json'), 'utf8')) as Record<string, unknown> & {
    shaders: Record<string, string[]>; hitGroups: { closestHit: string }[]; miss: string[]; includeDirs: string[];
  };
  const abs = (f: string) => join(aoDir, f);
  const manifest = {
    ...m,
    $schema: join(repoRoot, 'workloads', 'workload.schema.json'),
    name: 'ao-interior',
    description: `paper 002's AO at its scene size: ${aoRays} AO rays per pixel of radius ${radius} (30% of the diagonal) in a furnished Cornell box, ${tris.length} triangles`,
    includeDirs: m.includeDirs.map(abs),
    shaders: Object.fromEntries(Object.entries(m.shaders).map(([k, fs]) => [k, fs.map(abs)])),
    hitGroups: m.hitGroups.map((h) => ({ ...h, closestHit: abs(h.closestHit) })),
    miss: m.miss.map(abs),
    pushConstants: { ...(m.pushConstants as object), radius },
    specConstants: { 0: aoRays },
    scene: { obj },
  };
  const path = join(dir, `workload-${aoRays}.json`);
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest: path, triangles: tris.length, radius };
}
