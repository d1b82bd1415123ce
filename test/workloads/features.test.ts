// The built-in shaders are the front end's acceptance suite (issue 2 section 5), so together they
// must use every language feature issue 2 section 3 lists. This test reads every stage file with
// its includes and names each feature no shader uses; a shader edit that drops the last use of a
// feature fails here instead of silently shrinking the suite.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { builtinWorkloadsDir } from '../../src/sim/workload/load-manifest.js';

const STAGES = ['.rgen', '.rchit', '.rmiss', '.rahit', '.rint', '.rcall'];

function stageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? stageFiles(p) : STAGES.includes(extname(e.name)) ? [p] : [];
  });
}

/** A stage file's text followed by every file it includes (searched beside it, then in common/). */
function withIncludes(file: string, seen = new Set<string>()): string {
  if (seen.has(file)) return '';
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  let out = text;
  for (const m of text.matchAll(/#include\s+"([^"]+)"/g)) {
    const local = resolve(dirname(file), m[1]!);
    const common = resolve(builtinWorkloadsDir(), 'common', m[1]!);
    let included: string;
    try {
      included = withIncludes(local, seen);
    } catch {
      included = withIncludes(common, seen);
    }
    out += '\n' + included;
  }
  return out;
}

/** Per stage file: its own text (for stage-specific features) and the text with includes. */
const files = stageFiles(builtinWorkloadsDir()).map((f) => ({ file: f, own: readFileSync(f, 'utf8'), all: withIncludes(f) }));
const corpus = files.map((f) => f.all).join('\n');

const CALL = (name: string): RegExp => new RegExp(`\\b${name}\\s*\\(`);

const FEATURES: Record<string, RegExp> = {
  '#include': /#include\s+"/,
  'include guard': /#ifndef\s+(\w+)\s*\n#define\s+\1\b/,
  '#pragma once': /#pragma once/,
  'function-like macro with ##': /#define\s+\w+\([^)]*\)[^\n]*##/,
  'function-like macro with #': /#define\s+\w+\(\w+\)\s+#\w/,
  'multi-line macro': /#define\s+\w+\([^)]*\)[^\n]*\\\n/,
  '#if with defined() and &&/||': /#if\s+[^\n]*defined\s*\([^)]*\)[^\n]*(&&|\|\|)|#if\s+[^\n]*(&&|\|\|)[^\n]*defined/,
  '#if with a comparison': /#if\s+[^\n]*\w+\s*(>=|<=|!=|==|>|<)\s*\w+/,
  '#else / #endif': /#else[\s\S]*?#endif/,
  '#error': /#error\s/,
  '__VERSION__ and __LINE__': /__VERSION__[\s\S]*__LINE__|__LINE__[\s\S]*__VERSION__/,
  'const array with initializer': /const\s+\w+\s+\w+\[\d*\]\s*=\s*\w+\[\d*\]\s*\(/,
  'block with instance name': /(uniform|buffer)\s+\w+\s*\{[^{}]*\}\s*\w+\s*;/,
  'block without instance name': /(uniform|buffer)\s+\w+\s*\{[^{}]*\}\s*;/,
  'runtime-sized array member': /\w+\s+\w+\[\];/,
  'buffer_reference with buffer_reference_align': /layout\([^)]*buffer_reference\b[^)]*buffer_reference_align\s*=\s*\d+/,
  'uint64_t address arithmetic': /\w+Address\s*\+\s*uint64_t\(/,
  'sampler array indexed with nonuniformEXT': /uniform\s+sampler2D\s+\w+\[\][\s\S]*nonuniformEXT\(/,
  'storage image rgba8': /layout\([^)]*rgba8\)\s*uniform\s+(writeonly\s+)?image2D/,
  'storage image rgba32f': /layout\([^)]*rgba32f\)\s*uniform\s+image2D/,
  'specialization constant': /layout\(constant_id\s*=\s*\d+\)\s*const/,
  'push constant block': /layout\(push_constant\)\s*uniform/,
  'shaderRecordEXT block': /layout\(shaderRecordEXT/,
  'std140 / std430 / scalar blocks': /std140[\s\S]*std430|std430[\s\S]*std140/,
  'scalar layout': /layout\([^)]*\bscalar\b/,
  'coherent / volatile / restrict': /\bcoherent\b[\s\S]*\bvolatile\b|\bvolatile\b[\s\S]*\bcoherent\b/,
  restrict: /\brestrict\b/,
  'precision qualifiers': /precision\s+highp\s+float\s*;[\s\S]*\bmediump\b|\bmediump\b[\s\S]*precision\s+highp/,
  'multi-component swizzle write': /\.\b[xyzw]{2,4}\s*=[^=]/,
  'readonly / writeonly': /\breadonly\b[\s\S]*\bwriteonly\b|\bwriteonly\b[\s\S]*\breadonly\b/,
  int64_t: /\bint64_t\b/,
  uint64_t: /\buint64_t\b/,
  'if / else': /\belse\b/,
  'for with a declarator list': /for\s*\(\s*\w+\s+\w+\s*=[^;,]+,\s*\w+\s*=[^;]+;/,
  'comma operator': /for\s*\(\s*[\w.]+\s*=[^;,]*,\s*[\w.]+\s*=[^;]*;/,
  while: /\n\s*while\s*\(/,
  'do-while': /\bdo\s*\n?\s*\{[\s\S]*?\}\s*while\s*\(/,
  'switch with default': /switch\s*\([\s\S]*?default\s*:/,
  'switch fall-through': /case[^:\n]*:[\s\S]{0,400}?\/\/\s*fall ?through\s*\n\s*case/,
  break: /\bbreak\s*;/,
  continue: /\bcontinue\s*;/,
  'early return in main': /void\s+main\s*\(\)[\s\S]*?\breturn\s*;/,
  ternary: /\?[^:;\n]+:/,
  'compound assignment': /\w\s*(\+=|-=|\*=|\/=|\|=)/,
  'increment': /\+\+\w|\w\+\+/,
  'in parameter': /\(\s*in\s+\w+\s+\w+/,
  'out parameter': /\bout\s+\w+\s+\w+\s*[,)]/,
  'inout parameter': /\binout\s+\w+\s+\w+/,
  'const parameter': /\(\s*const\s+\w+\s+\w+/,
  'function prototype': /^\w+\s+\w+\s*\([^)]*\)\s*;\s*$/m,
  '[[unroll]]': /\[\[unroll\]\]/,
  '[[dont_unroll]]': /\[\[dont_unroll\]\]/,
  '.length() of a runtime array': /\.\w+\.length\(\)|\w+\.length\(\)/,
  'atomicAdd': CALL('atomicAdd'),
  'imageLoad / imageStore': /imageLoad\s*\([\s\S]*imageStore\s*\(|imageStore\s*\([\s\S]*imageLoad\s*\(/,
  imageSize: CALL('imageSize'),
  textureLod: CALL('textureLod'),
  texelFetch: CALL('texelFetch'),
  textureSize: CALL('textureSize'),
  clockARB: CALL('clockARB'),
  debugPrintfEXT: CALL('debugPrintfEXT'),
  'mat4x3 * vec4 (gl_ObjectToWorldEXT)': /gl_ObjectToWorldEXT\s*\*\s*vec4/,
  'vector * mat4x3 (gl_WorldToObjectEXT)': /\*\s*gl_WorldToObjectEXT/,
  traceRayEXT: CALL('traceRayEXT'),
  reportIntersectionEXT: CALL('reportIntersectionEXT'),
  ignoreIntersectionEXT: /\bignoreIntersectionEXT\s*;/,
  terminateRayEXT: /\bterminateRayEXT\s*;/,
  executeCallableEXT: CALL('executeCallableEXT'),
  rayPayloadEXT: /\brayPayloadEXT\b/,
  rayPayloadInEXT: /\brayPayloadInEXT\b/,
  hitAttributeEXT: /\bhitAttributeEXT\b/,
  callableDataEXT: /\bcallableDataEXT\b/,
  callableDataInEXT: /\bcallableDataInEXT\b/,
  accelerationStructureEXT: /\baccelerationStructureEXT\b/,
};

const BUILTIN_FUNCTIONS = [
  'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'radians', 'degrees', 'exp', 'log', 'exp2', 'log2', 'pow', 'sqrt',
  'inversesqrt', 'abs', 'sign', 'floor', 'ceil', 'round', 'trunc', 'fract', 'mod', 'modf', 'min', 'max', 'clamp', 'mix',
  'step', 'smoothstep', 'fma', 'length', 'distance', 'dot', 'cross', 'normalize', 'reflect', 'refract', 'faceforward',
  'matrixCompMult', 'transpose', 'determinant', 'inverse', 'outerProduct', 'floatBitsToInt', 'floatBitsToUint',
  'intBitsToFloat', 'uintBitsToFloat', 'packUnorm4x8', 'unpackUnorm4x8', 'packHalf2x16', 'unpackHalf2x16', 'isnan',
  'isinf', 'any', 'all', 'not', 'lessThan', 'lessThanEqual', 'greaterThan', 'greaterThanEqual', 'equal', 'notEqual',
  'bitfieldExtract', 'bitfieldInsert', 'bitfieldReverse', 'findLSB', 'findMSB', 'bitCount',
  'subgroupElect', 'subgroupBallot', 'subgroupBallotBitCount', 'subgroupBroadcastFirst', 'subgroupAll', 'subgroupAny',
  'subgroupAdd', 'subgroupMax',
];

const RT_VARIABLES = [
  'gl_LaunchIDEXT', 'gl_LaunchSizeEXT', 'gl_PrimitiveID', 'gl_InstanceID', 'gl_InstanceCustomIndexEXT',
  'gl_GeometryIndexEXT', 'gl_WorldRayOriginEXT', 'gl_WorldRayDirectionEXT', 'gl_ObjectRayOriginEXT',
  'gl_ObjectRayDirectionEXT', 'gl_RayTminEXT', 'gl_RayTmaxEXT', 'gl_IncomingRayFlagsEXT', 'gl_HitTEXT', 'gl_HitKindEXT',
  'gl_ObjectToWorldEXT', 'gl_WorldToObjectEXT', 'gl_ObjectToWorld3x4EXT', 'gl_WorldToObject3x4EXT', 'gl_CullMaskEXT',
];

const RT_CONSTANTS = [
  'gl_RayFlagsNoneEXT', 'gl_RayFlagsOpaqueEXT', 'gl_RayFlagsNoOpaqueEXT', 'gl_RayFlagsTerminateOnFirstHitEXT',
  'gl_RayFlagsSkipClosestHitShaderEXT', 'gl_RayFlagsCullBackFacingTrianglesEXT', 'gl_RayFlagsCullFrontFacingTrianglesEXT',
  'gl_RayFlagsCullOpaqueEXT', 'gl_RayFlagsCullNoOpaqueEXT', 'gl_HitKindFrontFacingTriangleEXT', 'gl_HitKindBackFacingTriangleEXT',
];

test('the built-in shaders use every language feature of issue 2 section 3', (t) => {
  const missing = Object.entries(FEATURES).filter(([, re]) => !re.test(corpus)).map(([name]) => name);
  t.deepEqual(missing, []);
});

test('the built-in shaders call the GLSL.std.450, bit, pack and subgroup built-ins', (t) => {
  t.deepEqual(BUILTIN_FUNCTIONS.filter((f) => !CALL(f).test(corpus)), []);
});

test('every ray tracing built-in variable and flag constant is used', (t) => {
  const used = (name: string) => new RegExp(`\\b${name}\\b`).test(corpus);
  t.deepEqual([...RT_VARIABLES, ...RT_CONSTANTS].filter((n) => !used(n)), []);
});

test('structs: nested, arrays of structs, and struct members that are arrays', (t) => {
  const structs = new Map<string, string>();
  for (const m of corpus.matchAll(/struct\s+(\w+)\s*\{([^}]*)\}/g)) structs.set(m[1]!, m[2]!);
  const names = [...structs.keys()];
  const nested = [...structs].filter(([, body]) => names.some((n) => new RegExp(`^\\s*${n}\\s+\\w+\\s*;`, 'm').test(body)));
  t.true(nested.length > 0, 'a struct with a struct member');
  t.true(names.some((n) => new RegExp(`\\b${n}\\s+\\w+\\s*\\[\\s*\\w+\\s*\\]\\s*;`).test(corpus)), 'a fixed-size array of structs');
  t.true([...structs.values()].some((body) => /\w+\s+\w+\s*\[\s*\w+\s*\]\s*;/.test(body)), 'a struct with an array member');
});

test('user overloads: some function name is defined with two parameter lists', (t) => {
  const defs = new Map<string, Set<string>>();
  for (const m of corpus.matchAll(/^\w+\s+(\w+)\s*\(([^)]*)\)\s*\n\s*\{/gm)) {
    const params = m[2]!.replace(/\s+/g, ' ').trim();
    if (!defs.has(m[1]!)) defs.set(m[1]!, new Set());
    defs.get(m[1]!)!.add(params);
  }
  t.true([...defs.values()].some((p) => p.size >= 2));
});

test('each of the six stages is represented by several files', (t) => {
  for (const ext of STAGES) t.true(files.filter((f) => f.file.endsWith(ext)).length >= 2, ext);
});
