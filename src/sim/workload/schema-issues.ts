/**
 * zod issues -> the manifest's messages: `<file>: <key path>: expected <what the schema allows>,
 * found <what was there>`, `missing (<the key's description>)`, `unknown key (expected one of ...)`.
 * "What the schema allows" is read from the schema node at the issue's path (manifest-schema.ts's
 * `expectedTexts`, else the node's type), so a message never depends on zod's English.
 * A failed union is explained by the one branch that matches the value's JSON type (an object
 * given where "a file name or {"file": ...}" is allowed gets that object's own problems), or, when
 * none or several do, by the union's expected text.
 * Invariant: never throws; every issue becomes at least one message.
 */
import { z } from 'zod';
import { describeJson, isObject, key, report, type JsonChecks } from './json-checks.js';
import { expectedTexts } from './manifest-schema.js';

type Node = z.core.$ZodType;
type Issue = z.core.$ZodIssue;
type Def = Record<string, unknown> & { type: string };

const defOf = (n: Node): Def => n._zod.def as unknown as Def;

/** Optional, default and readonly wrappers hide the node that says what a value must be. */
function unwrap(n: Node): Node {
  for (;;) {
    const d = defOf(n);
    if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional'].includes(d.type)) n = d.innerType as Node;
    else if (d.type === 'pipe') n = d.in as Node;
    else if (d.type === 'lazy') n = (d.getter as () => Node)();
    else return n;
  }
}

/** The JSON type a node takes, for choosing a union's branch. */
function jsonTypeOf(n: Node): string {
  const d = defOf(unwrap(n));
  if (d.type === 'enum' || d.type === 'string') return 'string';
  if (d.type === 'literal') return typeof (d.values as unknown[])[0];
  if (d.type === 'tuple') return 'array';
  if (d.type === 'record') return 'object';
  if (d.type === 'int') return 'number';
  return d.type;
}

function jsonTypeOfValue(v: unknown): string {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
}

/** The branch of a union that a value is meant for: by discriminator, else by JSON type. */
function branchFor(n: Node, v: unknown): Node | undefined {
  const d = defOf(n);
  if (d.type !== 'union') return undefined;
  const options = d.options as Node[];
  if (typeof d.discriminator === 'string' && isObject(v)) {
    return options.find((o) => {
      const field = (defOf(unwrap(o)).shape as Record<string, Node>)[d.discriminator as string];
      return field !== undefined && z.safeParse(field, v[d.discriminator as string]).success;
    });
  }
  const matching = options.filter((o) => jsonTypeOf(o) === jsonTypeOfValue(v));
  return matching.length === 1 ? matching[0] : undefined;
}

/**
 * The node at `path` below `n`, following the value through unions, and how many steps of `path`
 * it took: fewer than all when a union cannot say which branch the value is meant for (a 3x4
 * matrix given flat or as rows), so the message is about the value where the choice is made.
 */
function nodeAt(n: Node, value: unknown, path: readonly PropertyKey[]): { node: Node; steps: number } {
  let node: Node = n;
  let v = value;
  for (let i = 0; i < path.length; i++) {
    const step = path[i]!;
    let here = unwrap(node);
    if (defOf(here).type === 'union') {
      const branch = branchFor(here, v);
      if (!branch) return { node, steps: i };
      here = unwrap(branch);
    }
    const d = defOf(here);
    const next = d.type === 'object' ? (d.shape as Record<string, Node>)[String(step)]
      : d.type === 'array' ? d.element as Node
        : d.type === 'tuple' ? (d.items as Node[])[Number(step)]
          : d.type === 'record' ? d.valueType as Node
            : undefined;
    if (!next) return { node, steps: i };
    node = next;
    v = (v as Record<PropertyKey, unknown> | undefined)?.[step as string];
  }
  return { node, steps: path.length };
}

/** What a node allows, in the words of a message: "a non-negative integer", `one of "a", "b"`. */
export function expectedOf(n: Node): string {
  for (let m: Node = n; ; m = defOf(m).innerType as Node) {
    const text = expectedTexts.get(m as z.ZodType)?.expected;
    if (text) return text;
    if (!defOf(m).innerType) break;
  }
  const u = unwrap(n) as z.ZodType;
  const d = defOf(u);
  switch (d.type) {
    case 'string': return (u as z.ZodString).minLength ? 'a non-empty string' : 'a string';
    case 'number': {
      const { minValue, isInt } = u as z.ZodNumber;
      if (!isInt) return 'a number';
      return minValue === 0 ? 'a non-negative integer' : minValue === 1 ? 'a positive integer' : Number.isFinite(minValue) ? `an integer >= ${minValue}` : 'an integer';
    }
    case 'boolean': return 'true or false';
    case 'enum': return `one of ${(u as z.ZodEnum).options.map((o) => JSON.stringify(o)).join(', ')}`;
    case 'literal': return (d.values as unknown[]).map((x) => JSON.stringify(x)).join(' or ');
    case 'object': case 'record': return 'an object';
    case 'array': return 'an array';
    case 'tuple': return `an array of ${(d.items as Node[]).length}`;
    case 'union': return [...new Set((d.options as Node[]).map(expectedOf))].join(' or ');
    default: return 'a JSON value';
  }
}

function valueAt(v: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((x, step) => (x as Record<PropertyKey, unknown> | undefined)?.[step as string], v);
}

function pathText(base: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((p, step) => key(p, typeof step === 'number' ? step : String(step)), base);
}

/** "missing (<the key's description>)", the description's first letter in lower case. */
function missing(n: Node | undefined): string {
  const description = n && (n as z.ZodType).description;
  if (description) return `missing (${description[0]!.toLowerCase()}${description.slice(1)})`;
  return n ? `missing (expected ${expectedOf(n)})` : 'missing';
}

/** One issue of `schema` parsing `input` (issue paths relative to `input`), reported under `base`. */
function reportIssue(c: JsonChecks, schema: Node, input: unknown, issue: Issue, base: string): void {
  const discriminator = issue as { note?: string; options?: unknown[] };
  if (issue.code === 'invalid_union' && discriminator.note === 'No matching discriminator') {
    const kind = `one of ${(discriminator.options ?? []).map((o) => JSON.stringify(o)).join(', ')}`;
    report(c, pathText(base, issue.path), `expected ${kind}, found ${describeJson(valueAt(input, issue.path))}`);
    return;
  }
  const at = nodeAt(schema, input, issue.path);
  const node: Node = at.node;
  if (at.steps < issue.path.length && issue.code !== 'unrecognized_keys') {
    // Inside a union whose branch is unclear: the value where the choice is made is what is wrong.
    const where = issue.path.slice(0, at.steps);
    report(c, pathText(base, where), `expected ${expectedOf(node)}, found ${describeJson(valueAt(input, where))}`);
    return;
  }
  const here = pathText(base, issue.path);
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const object = node && defOf(unwrap(node)).type === 'union' ? branchFor(unwrap(node), value) : node;
      const d = object && defOf(unwrap(object));
      // A record with enum keys (camera.members) reports its unknown keys as an object does.
      if (d?.type === 'record') {
        for (const k of issue.keys) report(c, key(here, k), `expected ${expectedOf(d.keyType as Node)}, found ${describeJson(k)}`);
        return;
      }
      const allowed = Object.keys((d?.shape ?? {}) as Record<string, unknown>).join(', ');
      for (const k of issue.keys) report(c, key(here, k), `unknown key (expected one of ${allowed})`);
      return;
    }
    case 'invalid_key': {
      const keyType = defOf(unwrap(nodeAt(schema, input, issue.path.slice(0, -1)).node)).keyType as Node | undefined;
      report(c, here, `expected ${keyType ? expectedOf(keyType) : 'another key'}, found ${describeJson(issue.path.at(-1))}`);
      return;
    }
    case 'invalid_union': {
      const branch = node && branchFor(unwrap(node), value);
      if (branch) {
        parseReporting(c, branch as z.ZodType, value, here);
        return;
      }
      break;
    }
    case 'custom':
      report(c, here, issue.message);
      return;
    case 'invalid_type':
      if (value === undefined) {
        report(c, here, missing(node));
        return;
      }
      break;
    default:
      break;
  }
  report(c, here, `expected ${expectedOf(node)}, found ${describeJson(value)}`);
}

/** A parse's result: the value when it conforms; else which key paths hold the problems. */
export interface SchemaParse<T> {
  data?: T;
  /**
   * Whether nothing at, under or above `path` (a key path as `key()` writes it) has a problem (an
   * unknown key counts as a problem of that key, not of its object): semantic checks
   * read only such parts, so they never restate a type the schema already checked.
   */
  ok(path: string): boolean;
  /** Whether the value at `path` itself has its type (an object is an object), whatever lies under it. */
  shapeOk(path: string): boolean;
}

/** What semantic checks ask of a parse. */
export type Vouch = Pick<SchemaParse<unknown>, 'ok' | 'shapeOk'>;

/** Parses `input` with `schema`, reporting every problem under `base` (a key path). */
export function parseReporting<T extends z.ZodType>(c: JsonChecks, schema: T, input: unknown, base = ''): SchemaParse<z.output<T>> {
  const r = schema.safeParse(input);
  if (r.success) return { data: r.data, ok: () => true, shapeOk: () => true };
  const before = c.problems.length;
  for (const issue of r.error.issues) reportIssue(c, schema, input, issue, base);
  // Two failed checks of one value (min 24 and a multiple of 8) say the same thing once.
  c.problems.splice(before, Infinity, ...new Set(c.problems.slice(before)));
  const bad = r.error.issues.flatMap((i) => i.code === 'unrecognized_keys' ? i.keys.map((k) => pathText('', [...i.path, k])) : [pathText('', i.path)]);
  const under = (inner: string, outer: string): boolean => inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return {
    ok: (path) => !bad.some((b) => b === path || under(b, path) || under(path, b)),
    shapeOk: (path) => !bad.some((b) => b === path || under(path, b)),
  };
}
