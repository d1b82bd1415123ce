/**
 * Loads a user utility from a TypeScript file with no build step and no tsx for the user:
 *
 * 1. type-check: `ts.createProgram` over the file, with `vvision` mapped to this package's own
 *    types (src/index.ts when vvision runs from source, build/index.d.ts when it runs built), so
 *    the file is checked against exactly the API it will get; every error is reported as
 *    `file:line:col: error: message` (UtilityTypeError, exit 2 like a shader error);
 * 2. transpile in memory (`ts.transpileModule`), with a transformer that points `vvision` at the
 *    module this process already runs (same instances: built-ins, error classes), local .ts
 *    modules it imports at their own in-memory transpilation, and bare package names at their
 *    resolved files; source maps are kept so failures are reported at the user's lines;
 * 3. import the JavaScript from a data: URL and take its utilities: the default export, else every
 *    named export shaped as a utility (name, description, place, analyse).
 *
 * Invariant: a returned utility has a valid, non-built-in name and is remembered with its file
 * (utility-error.ts), so failures inside it are reported against that file.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as TS from 'typescript';
import { NAME_PATTERN } from '../primitives/buffer-layout.js';
import { BUILTIN_UTILITIES } from './builtin.js';
import type { Utility } from './utility.js';
import { locateInStack, registerUtilityModule, setUtilitySource, UtilityError, UtilityTypeError } from './utility-error.js';
import { sourceMapPositions, type PositionMapper } from './source-map-lines.js';

const here = fileURLToPath(import.meta.url);
const fromSource = extname(here) === '.ts';
/** The package root (this file is src/utilities/ or build/utilities/). */
const packageRoot = resolve(dirname(here), '..', '..');
const apiModuleUrl = pathToFileURL(join(dirname(here), '..', fromSource ? 'index.ts' : 'index.js')).href;

function newestMtime(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return t;
}

/**
 * The types `vvision` means to a user file: the API entry point of this very process. Built, that
 * is build/index.d.ts; run from source (tsx), src/index.ts, or build/index.d.ts when it is at
 * least as new as every source file (the same declarations, checked ~3x faster than the sources).
 */
function apiTypes(): string {
  const dts = join(packageRoot, 'build', 'index.d.ts');
  if (!fromSource) return dts;
  if (existsSync(dts) && statSync(dts).mtimeMs >= newestMtime(join(packageRoot, 'src'))) return dts;
  return join(packageRoot, 'src', 'index.ts');
}

const EXTENSIONS = ['.ts', '.mts'];

/**
 * The TypeScript compiler, loaded on first use (issue 25): only `--utility` needs it, and loading it
 * costs ~0.3 s of CPU. `require`, not an ES import: importing the 9 MB CommonJS file from ESM
 * first scans it for named exports (cjs-module-lexer), another ~0.4 s.
 */
let loadedTs: typeof TS | undefined;
function typescript(): typeof TS {
  return (loadedTs ??= createRequire(import.meta.url)('typescript') as typeof TS);
}

function compilerOptions(): TS.CompilerOptions {
  const ts = typescript();
  // Node's types when this installation has them (a development checkout); else the DOM library
  // gives a user file `console`, `TextEncoder`... without them.
  const typeRoots = [join(packageRoot, 'node_modules', '@types')].filter((p) => existsSync(join(p, 'node')));
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
    isolatedModules: true,
    lib: typeRoots.length > 0 ? ['lib.es2022.d.ts'] : ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: typeRoots.length > 0 ? ['node'] : [],
    ...(typeRoots.length > 0 ? { typeRoots } : {}),
    paths: { vvision: [apiTypes()] },
  };
}

function formatDiagnostic(d: TS.Diagnostic): string {
  const ts = typescript();
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
  if (!d.file || d.start === undefined) return `error: ${message}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${d.file.fileName}:${line + 1}:${character + 1}: error: ${message}`;
}

/** vvision's own sources and declarations (src/, build/): never a user's file. */
const ours = [join(packageRoot, 'src'), join(packageRoot, 'build')].map((d) => d + sep);
const isUserFile = (sf: TS.SourceFile) =>
  !sf.isDeclarationFile && !sf.fileName.includes(`${sep}node_modules${sep}`) && !ours.some((d) => resolve(sf.fileName).startsWith(d));

/**
 * Parsed files that are not the user's (the TypeScript and Node libraries, vvision's own types),
 * shared by every program of this process, as a language service's document registry shares them:
 * the compiler options are the same for all, and these files do not change while vvision runs.
 * (`oldProgram` reuses nothing here: TypeScript reuses a program's files only for the same root
 * names, and each utility file is its own root.) The user's files are read afresh each time.
 */
const sharedSourceFiles = new Map<string, TS.SourceFile>();

function compilerHost(options: TS.CompilerOptions): TS.CompilerHost {
  const host = typescript().createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const cached = sharedSourceFiles.get(fileName);
    if (cached) return cached;
    const sf = read(fileName, languageVersion, onError, shouldCreate);
    if (sf && !isUserFile(sf)) sharedSourceFiles.set(fileName, sf);
    return sf;
  };
  return host;
}

/** Type-checks `file` against vvision's own types; returns `file:line:col: error: ...` lines. */
export function typeCheckUtility(file: string): string[] {
  const ts = typescript();
  const options = compilerOptions();
  const program = ts.createProgram({ rootNames: [file], options, host: compilerHost(options) });
  if (!program.getSourceFile(file)) return [`${file}: error: cannot read the file`];
  // The user's files: the utility and the local modules it imports (not vvision's, not packages').
  const userFiles = program.getSourceFiles().filter(isUserFile);
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...userFiles.flatMap((sf) => [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]),
  ].filter((d) => d.category === ts.DiagnosticCategory.Error);
  return diagnostics.map(formatDiagnostic);
}

/** The TypeScript file a relative specifier names (`./helper.js` and `./helper` mean `./helper.ts`). */
function localModule(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(m?js)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.mts`]) {
    if (EXTENSIONS.includes(extname(candidate)) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * Rewrites module specifiers for loading from memory: `vvision` -> this process's API module,
 * a local .ts module (relative import) -> its own transpiled data: URL (`local`), bare packages ->
 * their resolved files, `node:` / built-ins unchanged. Unresolvable ones go to `problems`.
 */
function specifierRewriter(
  file: string, sf: TS.SourceFile, problems: string[], local: (path: string, at: string) => string,
): TS.TransformerFactory<TS.SourceFile> {
  const ts = typescript();
  const require = createRequire(file);
  const target = (spec: string, node: TS.Node): string => {
    if (spec === 'vvision') return apiModuleUrl;
    if (spec.startsWith('node:') || builtinModules.includes(spec)) return spec;
    const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    const at = `${file}:${line + 1}:${character + 1}`;
    if (spec.startsWith('.') || spec.startsWith('/')) {
      const path = localModule(file, spec);
      if (path) return local(path, at);
      const js = resolve(dirname(file), spec);
      if (/\.(m?js|json)$/.test(js) && existsSync(js)) return pathToFileURL(js).href;
      problems.push(`${at}: error: cannot find module '${spec}' (a utility may import 'vvision', node: built-ins, installed packages and .ts files beside it)`);
      return spec;
    }
    try {
      return pathToFileURL(require.resolve(spec)).href;
    } catch {
      problems.push(`${at}: error: cannot find package '${spec}' from ${dirname(file)}`);
      return spec;
    }
  };
  return (context) => {
    const f = context.factory;
    const visit = (node: TS.Node): TS.Node => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        return f.updateImportDeclaration(node, node.modifiers, node.importClause, f.createStringLiteral(target(node.moduleSpecifier.text, node.moduleSpecifier)), node.attributes);
      }
      if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        return f.updateExportDeclaration(
          node, node.modifiers, node.isTypeOnly, node.exportClause, f.createStringLiteral(target(node.moduleSpecifier.text, node.moduleSpecifier)), node.attributes,
        );
      }
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
        const arg = node.arguments[0];
        return f.updateCallExpression(node, node.expression, node.typeArguments, [f.createStringLiteral(target(arg.text, arg)), ...node.arguments.slice(1)]);
      }
      return ts.visitEachChild(node, visit, context);
    };
    return (root) => ts.visitNode(root, visit) as TS.SourceFile;
  };
}

/** Transpiles one file to an ES module in memory; returns the JavaScript and its source map. */
export function transpileUtility(
  file: string, text: string, local: (path: string, at: string) => string = (_p, at) => {
    throw new UtilityTypeError([`${at}: error: local imports need loadUtilities`]);
  },
): { js: string; map: PositionMapper } {
  const ts = typescript();
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const problems: string[] = [];
  const out = ts.transpileModule(text, {
    fileName: file,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, sourceMap: true, esModuleInterop: true,
    },
    transformers: { before: [specifierRewriter(file, sf, problems, local)] },
  });
  if (problems.length > 0) throw new UtilityTypeError(problems);
  // The map goes to our own lookup, not into the module: no sourceMappingURL comment.
  const js = out.outputText.replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n');
  return { js, map: sourceMapPositions(out.sourceMapText ?? '{"mappings":""}') };
}

/**
 * The data: URL of `file` transpiled, its local imports first (each file once per load; an
 * import cycle between local files is refused: data: modules cannot name each other both ways).
 */
function moduleUrl(file: string, done: Map<string, string>, inProgress: string[], at?: string): string {
  const known = done.get(file);
  if (known) return known;
  if (inProgress.includes(file)) {
    throw new UtilityTypeError([`${at ?? file}: error: circular import between utility files: ${[...inProgress.slice(inProgress.indexOf(file)), file].join(' -> ')}`]);
  }
  inProgress.push(file);
  const { js, map } = transpileUtility(file, readFileSync(file, 'utf8'), (path, where) => moduleUrl(path, done, inProgress, where));
  inProgress.pop();
  const url = `data:text/javascript;base64,${Buffer.from(js).toString('base64')}`;
  // Stack frames name the data: URL; this maps them back to the user's lines (utility-error.ts).
  registerUtilityModule(url, file, map);
  done.set(file, url);
  return url;
}

function isUtilityShaped(x: unknown): x is Utility {
  if (typeof x !== 'object' || x === null) return false;
  const u = x as Record<string, unknown>;
  return typeof u.name === 'string' && typeof u.place === 'function' && typeof u.analyse === 'function';
}

function checkUtility(u: Utility, file: string, exportName: string): void {
  const where = `${file}: export '${exportName}'`;
  if (!NAME_PATTERN.test(u.name)) throw new UtilityError(`${where}: name '${u.name}' must match ${NAME_PATTERN}`);
  if (u.name in BUILTIN_UTILITIES) throw new UtilityError(`${where}: name '${u.name}' is a built-in utility's; choose another`);
  if (typeof u.description !== 'string') throw new UtilityError(`${where}: description must be a string`);
}

/**
 * Type-checks, transpiles and imports a utility file; returns its utilities (at least one).
 * @throws UtilityTypeError (type errors, located) or UtilityError (no utility exported, bad name, load failure).
 */
export async function loadUtilities(path: string): Promise<Utility[]> {
  const file = resolve(path);
  if (!existsSync(file) || !statSync(file).isFile()) throw new UtilityError(`${path}: no such utility file`);
  if (!EXTENSIONS.includes(extname(file))) throw new UtilityError(`${path}: a utility is a TypeScript file (${EXTENSIONS.join(', ')})`);
  const errors = typeCheckUtility(file);
  if (errors.length > 0) throw new UtilityTypeError(errors);
  const url = moduleUrl(file, new Map(), []);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(url)) as Record<string, unknown>;
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    throw new UtilityError(`${locateInStack(err.stack) ?? file}: loading the utility failed: ${err.message}`);
  }
  const found: [string, Utility][] = isUtilityShaped(mod.default)
    ? [['default', mod.default]]
    : Object.entries(mod).filter((e): e is [string, Utility] => isUtilityShaped(e[1]));
  if (found.length === 0) {
    throw new UtilityError(`${file}: exports no utility (export default defineUtility({ name, description, place, analyse }))`);
  }
  const names = new Set<string>();
  for (const [exportName, u] of found) {
    checkUtility(u, file, exportName);
    if (names.has(u.name)) throw new UtilityError(`${file}: two exported utilities are named '${u.name}'`);
    names.add(u.name);
    setUtilitySource(u, file);
  }
  return found.map(([, u]) => u);
}
