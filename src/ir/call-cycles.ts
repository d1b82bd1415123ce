/**
 * Static recursion: the calls that close a cycle in a module's call graph. GLSL forbids static
 * recursion, direct or through other functions, whether or not the entry point reaches it, and
 * glslang refuses it ("Recursion detected: f(i1; calling f(i1;", one error per call that closes a
 * cycle). The GLSL front end and the SPIR-V reader both refuse what this finds, at the call site.
 *
 * A depth-first search over the call graph, iterative (generated shaders may chain thousands of
 * functions), from the entry points first and then from the other functions last-defined first,
 * as glslang's search (from its most recently added call) usually runs. When a call reaches a
 * function on the search path, the cycle is blamed, as glslang blames it, on the call that
 * entered the cycle: the one leaving that function along the path. Each cycle the search closes
 * is reported once.
 */
import type { Inst } from './inst.js';
import type { Function, Module } from './module.js';

type Call = Extract<Inst, { op: 'call' }>;

export interface RecursiveCall {
  /** The call blamed for the cycle (its `loc` is the call site); made in `cycle[0]`. */
  call: Call;
  /** The functions of the cycle in call order, from the caller of `call` round to the one calling it back. */
  cycle: Function[];
}

export function recursiveCalls(m: Module): RecursiveCall[] {
  const byId = new Map(m.functions.map((f) => [f.id as number, f]));
  const callsOf = (f: Function) => f.blocks.flatMap((b) => b.insts.filter((i): i is Call => i.op === 'call'));
  /** 1: on the search path, 2: finished. */
  const state = new Map<number, 1 | 2>();
  const found: RecursiveCall[] = [];
  const entries = m.entryPoints.map((e) => byId.get(e.function)).filter((f): f is Function => f !== undefined);
  for (const root of [...entries, ...[...m.functions].reverse()]) {
    if (state.has(root.id)) continue;
    const path: { fn: Function; calls: Call[]; next: number }[] = [{ fn: root, calls: callsOf(root), next: 0 }];
    state.set(root.id, 1);
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      if (top.next === top.calls.length) {
        state.set(top.fn.id, 2);
        path.pop();
        continue;
      }
      const call = top.calls[top.next++]!;
      const callee = byId.get(call.callee);
      if (!callee) continue; // an undefined callee is the caller's own error
      const s = state.get(callee.id);
      if (s === 1) {
        const from = path.findIndex((p) => p.fn === callee);
        const entering = path[from]!;
        found.push({ call: entering.calls[entering.next - 1]!, cycle: path.slice(from).map((p) => p.fn) });
      } else if (s === undefined) {
        state.set(callee.id, 1);
        path.push({ fn: callee, calls: callsOf(callee), next: 0 });
      }
    }
  }
  return found;
}

/** `'f' calls itself` or `'g' calls 'h', which calls 'g'` (names as the module spells them). */
export function describeRecursion(r: RecursiveCall): string {
  const names = r.cycle.map((f) => f.name);
  if (names.length === 1) return `'${names[0]}' calls itself`;
  return `'${names[0]}' calls '${names[1]}', ${[...names.slice(2), names[0]].map((n) => `which calls '${n}'`).join(', ')}`;
}
