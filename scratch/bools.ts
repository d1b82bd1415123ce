import { readFileSync } from 'node:fs';
import { compileGlsl } from '../src/frontend/glsl/compile.js';
import { printModule } from '../src/ir/printer.js';
const src = readFileSync('test/backend/spirv/write-spirv.test.ts', 'utf8').split('const BOOL_UBO = `')[1]!.split('`;')[0]!;
const r = compileGlsl('bools.rmiss', src);
console.log(printModule(r.module!).split('\n').filter((l) => l.startsWith('type') || l.includes('"')).slice(0, 40).join('\n'));
