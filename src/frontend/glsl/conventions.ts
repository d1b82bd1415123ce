/**
 * The two command-line conventions real Vulkan projects compile GLSL with:
 *
 * - `glslangValidator` (vvision's default): the stage comes from the file extension (or an
 *   explicit stage); `#include` needs `#extension GL_GOOGLE_include_directive`.
 * - `glslc` (shaderc; what most CMake-built projects use): `#include` works without the
 *   extension (shaderc enables GL_GOOGLE_include_directive in a preamble); the stage comes from
 *   `-fshader-stage=`, else `#pragma shader_stage(<stage>)`, else the file extension; `-std=`
 *   forces the GLSL version over the shader's `#version`; `--target-env=` names the Vulkan
 *   environment (vvision records it; ray tracing needs vulkan1.2 or later).
 *
 * This file only parses and names those options; the preprocessor and `compileGlsl` apply them.
 */
import type { Stage } from '../../ir/module.js';

export type GlslConventions = 'glslangValidator' | 'glslc';

export const GLSL_CONVENTIONS: readonly GlslConventions[] = ['glslangValidator', 'glslc'];

/**
 * glslc's stage names (`-fshader-stage=` and `#pragma shader_stage()`): the file extension and
 * the long name both work, as in shaderc's stage table.
 */
const GLSLC_STAGES: Readonly<Record<string, Stage>> = {
  rgen: 'raygen', raygen: 'raygen',
  rchit: 'closestHit', closesthit: 'closestHit',
  rmiss: 'miss', miss: 'miss',
  rahit: 'anyHit', anyhit: 'anyHit',
  rint: 'intersection', intersection: 'intersection',
  rcall: 'callable', callable: 'callable',
  comp: 'compute', compute: 'compute',
};

export const GLSLC_STAGE_NAMES: readonly string[] = Object.keys(GLSLC_STAGES);

/** The stage a glslc stage name stands for, or undefined for a name glslc (or vvision) does not know. */
export function glslcStage(name: string): Stage | undefined {
  return Object.prototype.hasOwnProperty.call(GLSLC_STAGES, name) ? GLSLC_STAGES[name] : undefined;
}

/** glslc `--target-env=` values vvision accepts: Vulkan environments that have ray tracing. */
export const TARGET_ENVS = ['vulkan1.2', 'vulkan1.3', 'vulkan1.4'] as const;
export type TargetEnv = (typeof TARGET_ENVS)[number];

/** Checks a `--target-env=` value; returns a message for one vvision cannot honour. */
export function checkTargetEnv(value: string): { env?: TargetEnv; error?: string } {
  if ((TARGET_ENVS as readonly string[]).includes(value)) return { env: value as TargetEnv };
  if (value === 'vulkan' || value === 'vulkan1.0' || value === 'vulkan1.1') {
    return { error: `--target-env=${value}: ray tracing shaders need SPIR-V 1.4, i.e. vulkan1.2 or later (${TARGET_ENVS.join(', ')})` };
  }
  return { error: `--target-env=${value}: unknown or unsupported target environment (expected one of ${TARGET_ENVS.join(', ')})` };
}

/** A `-std=` value: version and optional profile (`460`, `460core`). */
export interface GlslStd {
  version: number;
  profile: 'core' | 'none';
}

/** Parses glslc's `-std=` (`<version>[core|compatibility|es]`); ray tracing needs 460 core. */
export function parseStd(value: string): { std?: GlslStd; error?: string } {
  const m = /^(\d{3})(core|es|compatibility)?$/.exec(value);
  if (!m) return { error: `-std=${value}: expected a GLSL version and optional profile, such as 460 or 460core` };
  const version = parseInt(m[1]!, 10);
  if (m[2] === 'es' || m[2] === 'compatibility') return { error: `-std=${value}: the ${m[2]} profile has no ray tracing; use 460 or 460core` };
  if (version !== 460) return { error: `-std=${value}: ray tracing shaders need GLSL 460 (the newest version glslang and vvision know)` };
  return { std: { version, profile: m[2] === 'core' ? 'core' : 'none' } };
}
