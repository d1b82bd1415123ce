/**
 * Mutation agreement with glslang: seeded single-token edits of the valid compile fixtures (a type
 * changed, a qualifier dropped, an argument removed, a swizzle widened, ...) must be accepted by
 * vvision exactly when glslangValidator accepts them, and rejected on the same line when it does
 * not. Skipped without glslang. The seed is fixed so a failure names a reproducible edit.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileGlsl } from '../../../src/frontend/glsl/compile.js';

const FIXTURES = 'test/frontend/glsl/compile-fixtures';
const INCLUDE = join(FIXTURES, 'include');
const hasGlslang = spawnSync('glslangValidator', ['--version']).status === 0;
const work = mkdtempSync(join(tmpdir(), 'vv-mut-'));

/** Edits that keep the text lexically valid but often break typing or stage rules. */
const MUTATIONS: [RegExp, string][] = [
  [/\bvec3\b/g, 'vec2'], [/\bfloat\b/g, 'int'], [/\buint\b/g, 'int'], [/\bint\b/g, 'uint'], [/\b1\.0\b/g, 'true'],
  [/\+=/g, '='], [/\breturn [^;]+;/g, 'return;'], [/\bconst\b/g, ''], [/\.xyz\b/g, '.xy'], [/\bdot\(/g, 'cross('],
  [/\bin\b/g, 'out'], [/\.x\b/g, '.w'], [/\bmax\(/g, 'pow('], [/\bbreak;/g, ''], [/\bvec4\(/g, 'vec3('],
  [/([0-9])u\b/g, '$1'], [/\.rgb\b/g, '.rgba'], [/rayPayloadInEXT/g, 'rayPayloadEXT'], [/hitAttributeEXT/g, 'callableDataEXT'],
  [/==/g, '='], [/\bprd\b/g, 'prdX'], [/, [a-zA-Z_]+\)/g, ')'], [/\bout\b/g, 'in'], [/\bmat4\b/g, 'mat3'],
  [/\blocation = 0\b/g, 'location = 5'], [/\bbool\b/g, 'int'], [/\b0\.0\b/g, '0'],
];

interface Mutation { file: string; line: number; from: string; to: string; text: string }

function mutations(count: number, seed: number): Mutation[] {
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff), s / 0x7fffffff);
  const dir = join(FIXTURES, 'valid');
  const files = readdirSync(dir).filter((f) => /\.r[a-z]+$/.test(f)).sort();
  const out: Mutation[] = [];
  while (out.length < count) {
    const file = files[Math.floor(rnd() * files.length)]!;
    const text = readFileSync(join(dir, file), 'utf8');
    const [re, rep] = MUTATIONS[Math.floor(rnd() * MUTATIONS.length)]!;
    const found = [...text.matchAll(re)];
    if (!found.length) continue;
    const m = found[Math.floor(rnd() * found.length)]!;
    const to = m[0].replace(new RegExp(re.source), rep);
    if (to === m[0]) continue;
    out.push({ file, line: text.slice(0, m.index).split('\n').length, from: m[0], to, text: text.slice(0, m.index) + to + text.slice(m.index! + m[0].length) });
  }
  return out;
}

(hasGlslang ? test : test.skip)('vvision accepts/rejects 60 seeded fixture mutations as glslang does, errors on the same line', (t) => {
  const disagreements: string[] = [];
  let rejected = 0;
  for (const [i, mu] of mutations(60, 20261122).entries()) {
    const path = join(work, `${i}-${mu.file}`);
    writeFileSync(path, mu.text);
    const g = spawnSync('glslangValidator', ['--target-env', 'vulkan1.2', '-V', `-I${INCLUDE}`, path, '-o', join(work, 'o.spv')], { encoding: 'utf8' });
    const gLine = /ERROR: [^:]+:(\d+):/.exec(g.stdout)?.[1];
    const r = compileGlsl(path, mu.text, { includeDirs: [INCLUDE] });
    const ours = r.diagnostics.find((d) => d.severity === 'error');
    const what = `${mu.file}:${mu.line} '${mu.from}' -> '${mu.to}'`;
    if (g.status !== 0) rejected++;
    if ((g.status === 0) !== (r.module !== undefined)) {
      disagreements.push(`${what}: glslang ${g.status === 0 ? 'accepts' : 'rejects'}, vvision ${r.module ? 'accepts' : `rejects (${ours?.message.split('\n')[0]})`}`);
    } else if (ours && gLine && ours.file === path && ours.line !== Number(gLine)) {
      disagreements.push(`${what}: glslang line ${gLine}, vvision line ${ours.line} (${ours.message.split('\n')[0]})`);
    }
  }
  t.deepEqual(disagreements, []);
  t.log(`${rejected} of 60 mutations are invalid GLSL`);
  t.true(rejected >= 15, 'the mutations must exercise the diagnostics, not only valid edits');
});
