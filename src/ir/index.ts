/**
 * The public IR API: definitions, construction, text form, verification and analyses. Other
 * folders import from here (or from the defining file); this file only re-exports.
 */
export * from './types.js';
export * from './inst.js';
export * from './module.js';
export * from './builder.js';
export * from './printer.js';
export * from './verify.js';
export * from './cfg.js';
export * from './dominators.js';
export * from './text-parser.js';
export * from './clone.js';
export * from './remap.js';
