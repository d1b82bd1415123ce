/**
 * Finding and loading workload manifests: the built-in workloads under `workloads/<name>/` and
 * any user's `workload.json`. Invariant: every user-triggerable failure (missing file, bad JSON,
 * schema problems, unknown workload name) surfaces as a `ManifestError`, never a raw exception.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManifestError, type WorkloadManifest } from './manifest.js';
import { calibrationDataHint, hasLumibenchData, isLumibenchWorkload, LUMIBENCH_VARIANTS, lumibenchWkndManifest } from './lumibench-wknd.js';
import { validateManifest } from './validate-manifest.js';

/** Name of the manifest file inside a workload folder. */
export const MANIFEST_FILE = 'workload.json';

export { DEFAULT_WORKLOAD } from './default-workload.js';

/** Absolute path of `workloads/`: three levels above this file both in `src/sim/workload` and in `build/sim/workload`. */
export function builtinWorkloadsDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../../workloads');
}

/** Reads and validates a manifest; relative paths inside it resolve against its directory. */
export function loadManifest(path: string): WorkloadManifest {
  const abs = resolve(path);
  if (!existsSync(abs) || !statSync(abs).isFile()) throw new ManifestError([`${path}: manifest file not found`]);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(abs, 'utf8'));
  } catch (e) {
    throw new ManifestError([`${path}: not valid JSON: ${(e as Error).message}`]);
  }
  const { manifest, problems } = validateManifest(json, path, abs, dirname(abs));
  if (!manifest) throw new ManifestError(problems);
  return manifest;
}

/** Built-in workloads, sorted by name; a folder without a readable manifest is skipped. */
export function listBuiltinWorkloads(): { name: string; description: string; manifest: string }[] {
  const dir = builtinWorkloadsDir();
  const out: { name: string; description: string; manifest: string }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const manifest = join(dir, entry.name, MANIFEST_FILE);
    if (!existsSync(manifest)) continue;
    let description = '';
    try {
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as { description?: unknown };
      if (typeof json.description === 'string') description = json.description;
    } catch {
      // A broken manifest still lists; loading it reports the problem with its location.
    }
    out.push({ name: entry.name, description, manifest });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A built-in name (`pt`), a workload folder, or a manifest path -> the manifest's absolute path.
 * A path wins over a built-in name only when it exists, so `ao` means the built-in unless `./ao` is given.
 */
export function resolveWorkload(nameOrPath: string): string {
  const looksLikePath = nameOrPath.includes('/') || nameOrPath.includes('\\') || nameOrPath.endsWith('.json') || isAbsolute(nameOrPath);
  if (!looksLikePath) {
    const builtin = join(builtinWorkloadsDir(), nameOrPath, MANIFEST_FILE);
    if (existsSync(builtin)) return builtin;
    if (isLumibenchWorkload(nameOrPath)) return writeGeneratedManifest(nameOrPath, lumibenchWkndManifest(calibrationDir(), nameOrPath));
  }
  const abs = resolve(nameOrPath);
  if (existsSync(abs)) {
    if (statSync(abs).isFile()) return abs;
    const inside = join(abs, MANIFEST_FILE);
    if (existsSync(inside)) return inside;
    throw new ManifestError([`${nameOrPath}: folder has no ${MANIFEST_FILE}`]);
  }
  const names = listBuiltinWorkloads().map((w) => w.name);
  throw new ManifestError([`${nameOrPath}: unknown workload (built-in workloads: ${names.join(', ')}; or give a path to a ${MANIFEST_FILE})`]);
}

/**
 * Where the shared calibration workloads live: `VVISION_CALIBRATION_DIR`, else `../shared/calibration`
 * beside the project root (where CI and the development machines keep it).
 */
export function calibrationDir(): string {
  return process.env.VVISION_CALIBRATION_DIR ?? resolve(builtinWorkloadsDir(), '../../shared/calibration');
}

/** Workloads generated from the shared calibration data (real third-party applications), by name. */
export function listCalibrationWorkloads(): { name: string; description: string; installed: boolean }[] {
  const installed = hasLumibenchData(calibrationDir());
  return Object.entries(LUMIBENCH_VARIANTS).map(([name, v]) => ({
    name,
    description: `LumiBench WKND frame, ${v.what}: the real application, generated from ${join(calibrationDir(), 'lumibench-wknd')}`
      + (installed ? '' : ` (data not installed: ${calibrationDataHint(calibrationDir())})`),
    installed,
  }));
}

/**
 * Writes a generated manifest where the rest of the pipeline can load it like any other (all its
 * paths are absolute), whole or not at all, and returns its path. Rewritten only when it changed.
 */
function writeGeneratedManifest(name: string, json: unknown): string {
  const dir = join(tmpdir(), `vvision-workloads-${process.getuid?.() ?? 0}`, name);
  const file = join(dir, MANIFEST_FILE);
  const text = `${JSON.stringify(json, null, 1)}\n`;
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return file;
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, text);
  renameSync(partial, file);
  return file;
}
