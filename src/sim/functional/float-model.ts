/**
 * How the functional core evaluates the float operations a GPU compiler lowers, declared per run:
 * - `ieee`: each GLSL operation exactly rounded to f32 (x / y, normalize(v) = v / length(v),
 *   pow(x, y) from the exact power) -- what the GLSL specification allows at best precision;
 * - `gpu`: as GPU compilers lower them (Mesa's NIR, which Vulkan-Sim runs, and NVIDIA's own):
 *   x / y = x * rcp(y), normalize(v) = v * rsq(dot(v, v)), inversesqrt = rcp(sqrt), and
 *   pow(x, y) = exp2(y * log2(x)), each step rounded to f32 (GPGPU-Sim evaluates rcp / rsq / lg2 /
 *   ex2 as single-precision C library calls). A path tracer's paths depend on the last bit of
 *   these, so a frame only matches a GPU's or Vulkan-Sim's pixel for pixel under this model.
 */
export type FloatModel = 'ieee' | 'gpu';

export const FLOAT_MODELS: readonly FloatModel[] = ['ieee', 'gpu'];
