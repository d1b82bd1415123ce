/**
 * Generators of deep, machine-generated shader bodies (issue 14): nested `if` blocks, nested
 * parentheses, `else if` chains, nested `?:`, nested loops, unbraced nested `if`s, nested calls.
 * Each body reads a float `x` and leaves a value in `x` whose expected result is returned beside it,
 * so a test can check the simulated image and not only that the shader compiles.
 */

export interface DeepBody {
  /** Statements for the body of `main` (or any function); declares and sets `float x`. */
  body: string;
  /** The value `x` holds at the end when it starts at `start`. */
  expected: number;
}

/** `n` nested `if (x < i+1) {` blocks, each adding 1 before the next: x ends at n (from 0). */
export function nestedIfs(n: number): DeepBody {
  const open = Array.from({ length: n }, (_, i) => `if (x < ${i + 1}.0) {\nx += 1.0;\n`).join('');
  return { body: `float x = 0.0;\n${open}${'}\n'.repeat(n)}`, expected: n };
}

/** The same without braces: `if (c) if (c) ... x += 1.0;` */
export function unbracedIfs(n: number): DeepBody {
  return { body: `float x = 0.0;\n${'if (x < 1.0)\n'.repeat(n)}x += 1.0;\n`, expected: 1 };
}

/** `x = ((((1.0) + 1.0) + 1.0) ...)` with `n` nested parentheses: x ends at n. */
export function nestedParens(n: number): DeepBody {
  return { body: `float x = ${'('.repeat(n)}1.0)${' + 1.0)'.repeat(n - 1)};\n`, expected: n };
}

/** An `else if` chain of `n` branches; the branch taken is the one for x == k: x ends at k + 1000. */
export function elseIfChain(n: number, k = Math.floor(n / 2)): DeepBody {
  const branches = Array.from({ length: n }, (_, i) => `${i === 0 ? '' : 'else '}if (x == ${i}.0) x = ${i + 1000}.0;\n`).join('');
  return { body: `float x = ${k}.0;\n${branches}else x = -1.0;\n`, expected: k + 1000 };
}

/** `x = x == 0 ? 1000 : x == 1 ? 1001 : ...` with `n` nested `?:`: x ends at k + 1000. */
export function ternaryChain(n: number, k = Math.floor(n / 2)): DeepBody {
  const arms = Array.from({ length: n }, (_, i) => `x == ${i}.0 ? ${i + 1000}.0 : `).join('');
  return { body: `float x = ${k}.0;\nx = ${arms}-1.0;\n`, expected: k + 1000 };
}

/** `n` nested `for` loops of one iteration each, the innermost adding 1: x ends at 1. */
export function nestedLoops(n: number): DeepBody {
  const open = Array.from({ length: n }, (_, i) => `for (int i${i} = 0; i${i} < 1; i${i}++) {\n`).join('');
  return { body: `float x = 0.0;\n${open}x += 1.0;\n${'}\n'.repeat(n)}`, expected: 1 };
}

/** `x = max(max(max(... 1.0, 0.0), 0.0) ...)` nested `n` deep: x ends at 1. */
export function nestedCalls(n: number): DeepBody {
  return { body: `float x = ${'max('.repeat(n)}1.0${', 0.0)'.repeat(n)};\n`, expected: 1 };
}

export const DEEP_GENERATORS = { nestedIfs, unbracedIfs, nestedParens, elseIfChain, ternaryChain, nestedLoops, nestedCalls } as const;

/** A ray generation shader around `body` that writes `x` into the red channel of every pixel. */
export function deepRaygen(body: string): string {
  return `#version 460
#extension GL_EXT_ray_tracing : require
layout(set = 0, binding = 1, rgba32f) uniform image2D image;
void main() {
${body}
imageStore(image, ivec2(gl_LaunchIDEXT.xy), vec4(x, 0.0, 0.0, 1.0));
}
`;
}
