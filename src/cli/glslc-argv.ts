/**
 * glslc spells two options with one dash and `=` (`-fshader-stage=rgen`, `-std=460`), which a
 * commander short option cannot express; they are rewritten to their long forms before parsing.
 */
export function normalizeGlslcArgv(argv: string[]): string[] {
  return argv.map((a) => {
    if (a.startsWith('-fshader-stage=')) return '-' + a;
    if (a.startsWith('-std=')) return '-' + a;
    return a;
  });
}
