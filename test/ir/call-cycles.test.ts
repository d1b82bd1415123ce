/**
 * recursiveCalls: direct and mutual cycles, one report per cycle, blamed on the call that enters
 * the cycle along the search (glslang's choice); acyclic call graphs (a diamond) report nothing.
 */
import test from 'ava';
import { describeRecursion, recursiveCalls } from '../../src/ir/call-cycles.js';
import { parseModuleText } from '../../src/ir/text-parser.js';

/** A module of void functions `@name` whose bodies call the listed functions (ids 100, 110, ...). */
function callGraph(calls: Record<string, string[]>): string {
  const names = Object.keys(calls);
  const id = (n: string) => 100 + 10 * names.indexOf(n);
  const fns = names.map((n) => {
    const body = calls[n]!.map((c, k) => `  %${id(n) + 2 + k}: void = call %${id(c)} @${c} ()   ; ${id(n) / 10}:${k + 1}\n`).join('');
    return `fn %${id(n)} @${n}() -> void {   ; 1:1\n^b${id(n) + 1} "entry":\n${body}  %${id(n) + 9} = return   ; 1:1\n}\n`;
  });
  return `source 0 "g.comp" ""\ntype !0 = void\nentry compute %${id('main')} "main" localSize=(1, 1, 1)\n${fns.join('')}`;
}

const found = (calls: Record<string, string[]>) => recursiveCalls(parseModuleText(callGraph(calls))).map((r) => `${describeRecursion(r)} @${r.call.loc.line}:${r.call.loc.column}`);

test('direct recursion is blamed on the call to itself', (t) => {
  t.deepEqual(found({ f: ['f'], main: ['f'] }), ["'f' calls itself @10:1"]);
});

test('mutual recursion: the cycle in call order, blamed on the call entering it from main', (t) => {
  t.deepEqual(found({ a: ['b'], b: ['c'], c: ['a'], main: ['b'] }), ["'b' calls 'c', which calls 'a', which calls 'b' @11:1"]);
});

test('cycles main does not reach are found too, and each cycle once', (t) => {
  t.deepEqual(found({ g: ['h'], h: ['g', 'g'], u: ['u'], main: [] }), ["'u' calls itself @12:1", "'h' calls 'g', which calls 'h' @11:1"]);
});

test('a diamond and a chain are not recursion', (t) => {
  t.deepEqual(found({ d: [], b: ['d'], c: ['d'], a: ['b', 'c', 'd'], main: ['a', 'a'] }), []);
});
