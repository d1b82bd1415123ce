/**
 * Writes workloads/workload.schema.json, the JSON Schema of the workload manifest, from its one
 * description (src/sim/workload/manifest-schema.ts). Editors use it through a manifest's
 * `"$schema"` key (VS Code also through `json.schemas`). test/sim/workload/manifest-schema.test.ts
 * checks the committed file against this generator.
 *
 * Run: npx tsx workloads/tools/make-schema.ts
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { manifestJsonSchema } from '../../src/sim/workload/manifest-schema.js';

export const SCHEMA_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'workload.schema.json');

export function schemaText(): string {
  return `${JSON.stringify(manifestJsonSchema(), null, 1)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(SCHEMA_FILE, schemaText());
