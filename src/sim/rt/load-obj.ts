/**
 * Wavefront OBJ + MTL loader producing a Scene with one triangle mesh and one identity instance.
 * Exact about what it reads: polygons are fan-triangulated (v0, vi, vi+1), negative indices count
 * back from the last element defined so far, `v`, `v/vt`, `v//vn` and `v/vt/vn` corners are
 * accepted, `usemtl` selects the material of following faces, `mtllib` loads materials relative to
 * the OBJ file, `#` starts a comment anywhere. Group, object, smoothing and line/point statements
 * are ignored. `v x y z r g b` (per-vertex colour, a common extension) gives `colors`.
 *
 * Invariants of the result: corners are deduplicated by their (v, vt, vn) triple, so vertex i
 * has one position and (when present) one normal and uv; `normals` / `uvs` exist when at least one
 * corner has them, corners without get zeros; faces before any `usemtl` or naming an unknown
 * material get a default material of that name.
 * Malformed input throws `ObjParseError` naming file:line:column.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { defaultInstances, defaultMaterial, type Material, type MaterialType, type Scene, type Texture, type Vec3 } from './scene.js';

export class ObjParseError extends Error {
  constructor(readonly file: string, readonly line: number, readonly column: number, detail: string) {
    super(`${file}:${line}:${column}: ${detail}`);
    this.name = 'ObjParseError';
  }
}

interface Token { text: string; column: number }

function tokenize(line: string): Token[] {
  const hash = line.indexOf('#');
  const body = hash >= 0 ? line.slice(0, hash) : line;
  const out: Token[] = [];
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body)) !== null) out.push({ text: m[0], column: m.index + 1 });
  return out;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new ObjParseError(path, 0, 0, `cannot read file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

class LineReader {
  constructor(readonly file: string, readonly line: number) {}

  number(tok: Token | undefined, what: string, fallback?: number): number {
    if (!tok) {
      if (fallback !== undefined) return fallback;
      throw new ObjParseError(this.file, this.line, 1, `missing ${what}`);
    }
    const v = Number(tok.text);
    if (!Number.isFinite(v)) throw new ObjParseError(this.file, this.line, tok.column, `expected a number for ${what}, got '${tok.text}'`);
    return v;
  }

  vec3(toks: Token[], what: string): Vec3 {
    const x = this.number(toks[1], `${what} x`);
    // MTL allows a single value for all three channels.
    return [x, this.number(toks[2], `${what} y`, x), this.number(toks[3], `${what} z`, x)];
  }
}

function classify(m: Material): MaterialType {
  if (m.ke[0] > 0 || m.ke[1] > 0 || m.ke[2] > 0) return 'diffuseLight';
  if (m.illum === 5 || m.illum === 7 || (m.opacity < 1 && m.ior > 1)) return 'dielectric';
  if (m.illum === 3) return 'metal';
  return 'lambertian';
}

/** Parse an MTL file, appending to `materials` / `textures`. */
export function loadMtl(path: string, materials: Material[], textures: Texture[]): void {
  const lines = readText(path).split(/\r?\n/);
  const dir = dirname(path);
  let current: Material | undefined;
  const finish = (): void => { if (current) current.type = classify(current); };
  lines.forEach((raw, i) => {
    const toks = tokenize(raw);
    if (toks.length === 0) return;
    const r = new LineReader(path, i + 1);
    const key = toks[0]!.text;
    if (key === 'newmtl') {
      finish();
      if (!toks[1]) throw new ObjParseError(path, i + 1, toks[0]!.column, 'newmtl needs a name');
      current = defaultMaterial(toks.slice(1).map((t) => t.text).join(' '));
      current.roughness = 1;
      materials.push(current);
      return;
    }
    if (!current) {
      throw new ObjParseError(path, i + 1, toks[0]!.column, `'${key}' before any newmtl`);
    }
    switch (key) {
      case 'Kd': current.kd = r.vec3(toks, 'Kd'); break;
      case 'Ks': current.ks = r.vec3(toks, 'Ks'); break;
      case 'Ke': current.ke = r.vec3(toks, 'Ke'); break;
      case 'Ka': current.ka = r.vec3(toks, 'Ka'); break;
      case 'Ns': current.shininess = r.number(toks[1], 'Ns'); current.roughness = Math.sqrt(2 / (current.shininess + 2)); break;
      case 'Ni': current.ior = r.number(toks[1], 'Ni'); break;
      case 'd': current.opacity = r.number(toks[1], 'd'); break;
      case 'Tr': current.opacity = 1 - r.number(toks[1], 'Tr'); break;
      case 'illum': current.illum = r.number(toks[1], 'illum'); break;
      case 'map_Kd': {
        // Options (-bm 1, -s u v w, ...) precede the file name, which is the last token.
        const name = toks[toks.length - 1];
        if (!name || toks.length < 2) throw new ObjParseError(path, i + 1, toks[0]!.column, 'map_Kd needs a file name');
        const texPath = resolve(dir, name.text);
        let idx = textures.findIndex((t) => t.path === texPath);
        if (idx < 0) { idx = textures.length; textures.push({ path: texPath }); }
        current.textureIndex = idx;
        break;
      }
      default: break; // other maps and vendor extensions carry nothing the simulator uses
    }
  });
  finish();
}

/** Load an OBJ file (and the MTL files it names) as a Scene. */
export function loadObjScene(path: string): Scene {
  const file = resolve(path);
  const text = readText(file);
  const dir = dirname(file);
  const pos: number[] = [], nrm: number[] = [], tex: number[] = [], col: number[] = [];
  const materials: Material[] = [];
  const textures: Texture[] = [];
  const materialByName = new Map<string, number>();
  let currentMaterial = -1;
  const outPos: number[] = [], outNrm: number[] = [], outUv: number[] = [], outCol: number[] = [];
  let anyNormal = false, anyUv = false;
  const indices: number[] = [];
  const faceMaterials: number[] = [];
  const vertexOfKey = new Map<string, number>();
  const vertexOfPosition = new Map<number, number>();

  const materialId = (name: string): number => {
    let id = materialByName.get(name);
    if (id === undefined) {
      id = materials.length;
      materials.push(defaultMaterial(name));
      materialByName.set(name, id);
    }
    return id;
  };

  const lines = text.split(/\r?\n/);
  const corner: number[] = [];
  for (let li = 0; li < lines.length; li++) {
    const raw = lines[li]!;
    if (raw.length === 0) continue;
    const c0 = raw.charCodeAt(0);
    if (c0 === 35 /* # */) continue;
    const toks = tokenize(raw);
    if (toks.length === 0) continue;
    const r = new LineReader(file, li + 1);
    const key = toks[0]!.text;
    switch (key) {
      case 'v':
        pos.push(r.number(toks[1], 'x'), r.number(toks[2], 'y'), r.number(toks[3], 'z'));
        // The common `v x y z r g b` extension: per-vertex colours.
        if (toks.length >= 7) {
          while (col.length < pos.length - 3) col.push(1);
          col.push(r.number(toks[4], 'r'), r.number(toks[5], 'g'), r.number(toks[6], 'b'));
        }
        break;
      case 'vn':
        nrm.push(r.number(toks[1], 'x'), r.number(toks[2], 'y'), r.number(toks[3], 'z'));
        break;
      case 'vt':
        tex.push(r.number(toks[1], 'u'), r.number(toks[2], 'v', 0));
        break;
      case 'f': {
        if (toks.length < 4) throw new ObjParseError(file, li + 1, toks[0]!.column, `face needs at least 3 vertices, got ${toks.length - 1}`);
        if (currentMaterial < 0) currentMaterial = materialId('default');
        corner.length = 0;
        for (let k = 1; k < toks.length; k++) corner.push(readCorner(toks[k]!, r));
        for (let k = 2; k < corner.length; k++) {
          indices.push(corner[0]!, corner[k - 1]!, corner[k]!);
          faceMaterials.push(currentMaterial);
        }
        break;
      }
      case 'usemtl':
        if (!toks[1]) throw new ObjParseError(file, li + 1, toks[0]!.column, 'usemtl needs a material name');
        currentMaterial = materialId(toks.slice(1).map((t) => t.text).join(' '));
        break;
      case 'mtllib':
        for (const t of toks.slice(1)) {
          const before = materials.length;
          const mtlPath = resolve(dir, t.text);
          if (!existsSync(mtlPath)) throw new ObjParseError(file, li + 1, t.column, `mtllib '${t.text}' not found (looked for ${mtlPath})`);
          loadMtl(mtlPath, materials, textures);
          for (let m = before; m < materials.length; m++) {
            if (!materialByName.has(materials[m]!.name)) materialByName.set(materials[m]!.name, m);
          }
        }
        break;
      default:
        break; // o, g, s, l, p, and unknown statements
    }
  }

  function resolveIndex(text: string, count: number, tok: Token, r: LineReader, what: string): number {
    const v = Number(text);
    if (!Number.isInteger(v) || v === 0) throw new ObjParseError(r.file, r.line, tok.column, `bad ${what} index '${text}' in '${tok.text}'`);
    const idx = v > 0 ? v - 1 : count + v;
    if (idx < 0 || idx >= count) throw new ObjParseError(r.file, r.line, tok.column, `${what} index ${v} out of range (${count} defined so far)`);
    return idx;
  }

  function readCorner(tok: Token, r: LineReader): number {
    const parts = tok.text.split('/');
    if (parts.length > 3) throw new ObjParseError(r.file, r.line, tok.column, `malformed face vertex '${tok.text}'`);
    const vi = resolveIndex(parts[0]!, pos.length / 3, tok, r, 'vertex');
    const ti = parts.length > 1 && parts[1] !== '' ? resolveIndex(parts[1]!, tex.length / 2, tok, r, 'texture coordinate') : -1;
    const ni = parts.length > 2 && parts[2] !== '' ? resolveIndex(parts[2]!, nrm.length / 3, tok, r, 'normal') : -1;
    let out: number | undefined;
    let key = '';
    if (ti < 0 && ni < 0) {
      out = vertexOfPosition.get(vi);
    } else {
      key = `${vi}/${ti}/${ni}`;
      out = vertexOfKey.get(key);
    }
    if (out !== undefined) return out;
    out = outPos.length / 3;
    outPos.push(pos[3 * vi]!, pos[3 * vi + 1]!, pos[3 * vi + 2]!);
    outCol.push(col[3 * vi] ?? 1, col[3 * vi + 1] ?? 1, col[3 * vi + 2] ?? 1);
    if (ni >= 0) { anyNormal = true; outNrm.push(nrm[3 * ni]!, nrm[3 * ni + 1]!, nrm[3 * ni + 2]!); } else outNrm.push(0, 0, 0);
    if (ti >= 0) { anyUv = true; outUv.push(tex[2 * ti]!, tex[2 * ti + 1]!); } else outUv.push(0, 0);
    if (key === '') vertexOfPosition.set(vi, out);
    else vertexOfKey.set(key, out);
    return out;
  }

  const name = file.slice(dir.length + 1).replace(/\.obj$/i, '');
  const mesh = {
    name,
    positions: new Float32Array(outPos),
    indices: new Uint32Array(indices),
    materialIds: new Uint32Array(faceMaterials),
    opaque: true,
    ...(anyNormal ? { normals: new Float32Array(outNrm) } : {}),
    ...(anyUv ? { uvs: new Float32Array(outUv) } : {}),
    ...(col.length > 0 ? { colors: new Float32Array(outCol) } : {}),
  };
  if (materials.length === 0) materials.push(defaultMaterial('default'));
  return { name, meshes: [mesh], procedurals: [], materials, textures, instances: defaultInstances(1, 0) };
}
