/** Types of build-stamp.mjs (the build scripts are plain JavaScript: they run before any TypeScript is compiled). */
export function buildStampPath(root: string): string;
export function buildIsFresh(root: string): boolean;
