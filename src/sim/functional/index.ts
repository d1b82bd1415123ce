/**
 * Public surface of the functional SIMT core (issue 5 section 3): compile a module, bind
 * resources, run warps functionally or hand them to the timing model.
 */
export { compileProgram, functionSource, type Program } from './program.js';
export { createWarps, runFunctional, countersOf, warpLanes, type LaunchOptions } from './launch.js';
export type { Resources, BufferResource, ImageResource, SamplerResource, AccelResource, BoundResources } from './resources.js';
export type { RtRuntime, LaneAccess } from './rt-runtime.js';
export { Warp, type SimtEntry, type Frame } from './warp.js';
export { simtEfficiency, type Counters, type FunctionCounters } from './counters.js';
export { SimError, type SimErrorKind, type Site } from './errors.js';
export { createImage, type SimImage, type SamplerState, type TexelFormat, type WrapMode, type FilterMode } from './images.js';
export { countsAsInstruction } from './compile-to-js.js';
export type { PrintfRecord } from './debug-printf.js';
