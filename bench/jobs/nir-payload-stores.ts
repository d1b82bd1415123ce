/**
 * A diagnostic copy of the LumiBench WKND frame whose closest-hit shaders write their payload as
 * lavapipe's NIR pipeline leaves it for Vulkan-Sim (issue 26, the 32x32 L2 miss rate).
 *
 * Each closest hit ends `Ray = Scatter(..., Ray.RandomSeed);` (the sphere's adds `Ray.SurfaceNormal
 * = normal;`). Our IR keeps every store GLSL writes: the copy-out of the inout seed, the whole
 * struct (seed included), and the sphere's second normal, 16 words. After inlining, NIR's
 * `nir_opt_copy_prop_vars` (in lavapipe's `optimize` loop) removes a store of the value the
 * variable is known to hold, so the struct's seed (the value just copied out) and the second
 * normal (the value the struct stored) are not stored again: 12 words. This copy rewrites the
 * source to store exactly what that leaves, `uint seed_ = Ray.RandomSeed; RayPayload p_ =
 * Scatter(..., seed_); Ray = p_;`, which computes the same frame. The timing model does not do
 * this removal itself; the runs on this copy show what it would change.
 *
 * The folder is laid out as ../shared/calibration (host data and Vulkan-Sim's runs linked, the
 * shaders copied), for VVISION_CALIBRATION_DIR.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `Ray = Scatter(<args>, Ray.RandomSeed);` on a line of its own. */
const SCATTER_INTO_PAYLOAD = /^(\s*)Ray = Scatter\((.*), Ray\.RandomSeed\);[ \t]*$/m;
/** The sphere's store of the normal the struct already holds (`Scatter(..., normal, ...)`). */
const SECOND_NORMAL = /^[ \t]*Ray\.SurfaceNormal = normal;[ \t]*\n/m;

/** One closest-hit shader's source with its payload stores as NIR leaves them; undefined when it has none of the pattern. */
export function payloadStoresAsNir(source: string): string | undefined {
  const m = SCATTER_INTO_PAYLOAD.exec(source);
  if (m === null) return undefined;
  const indent = m[1]!;
  const args = m[2]!;
  let out = `${source.slice(0, m.index)}${indent}uint seed_ = Ray.RandomSeed;\n${indent}RayPayload p_ = Scatter(${args}, seed_);\n${indent}Ray = p_;${source.slice(m.index + m[0].length)}`;
  // Only where the struct stored that same normal: Scatter's third argument is `normal`.
  if (/^\s*[^,]+,\s*[^,]+,\s*normal\s*,/.test(args)) out = out.replace(SECOND_NORMAL, '');
  return out;
}

/**
 * Lays out `target` as a calibration folder whose lumibench-wknd folder (replaced if there) holds
 * `from`'s with every closest hit rewritten; returns the shaders rewritten. Throws when none is.
 */
export function layOutNirPayloadStores(from: string, target: string): string[] {
  const src = join(from, 'lumibench-wknd');
  const dst = join(target, 'lumibench-wknd');
  // Only the folder this function writes: links and shader copies, never the data they point to.
  rmSync(dst, { recursive: true, force: true });
  mkdirSync(dst, { recursive: true });
  for (const linked of ['host-data', 'vulkan-sim']) if (existsSync(join(src, linked))) symlinkSync(join(src, linked), join(dst, linked));
  cpSync(join(src, 'shaders'), join(dst, 'shaders'), { recursive: true });
  const rewritten: string[] = [];
  for (const f of readdirSync(join(dst, 'shaders')).filter((x) => x.endsWith('.rchit'))) {
    const path = join(dst, 'shaders', f);
    const out = payloadStoresAsNir(readFileSync(path, 'utf8'));
    if (out === undefined) continue;
    writeFileSync(path, out);
    rewritten.push(f);
  }
  if (rewritten.length === 0) throw new Error(`nir-payload-stores: no closest-hit shader in ${join(src, 'shaders')} stores Scatter's result into its payload`);
  return rewritten;
}
