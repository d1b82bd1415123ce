/** Types of test-tree.mjs (the scripts are plain JavaScript: they run before any TypeScript is compiled). */
export const OUT: string;
export const LINKED_WHOLE: readonly string[];
export function layOutTestTree(root: string, out: string): void;
