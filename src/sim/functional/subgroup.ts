/**
 * Subgroup (GL_KHR_shader_subgroup_*) operations, emitted as warp-wide JavaScript that runs
 * between two lane loops with the REAL active mask `mask` of the executing split. Subgroup size is
 * 32, lane = gl_SubgroupInvocationID. Operands are read from the register file (the compiler
 * keeps every operand of a subgroup op register-resident), results written to it per lane.
 *
 * Semantics: elect = lowest active lane; broadcastFirst reads the lowest active lane; all / any /
 * allEqual / ballot / reductions and scans consider active lanes only, in ascending lane order
 * (float scans round to f32 after each step, so results are deterministic). Reading an inactive
 * lane (broadcast / shuffle to it) returns whatever its register holds: undefined in Vulkan.
 */
import type { InstOf } from '../../ir/inst.js';
import type { EmitContext } from './emit-context.js';
import type { LeafKind } from './layout.js';
import { SimError } from './errors.js';

const LANE = '31 - Math.clz32(m & -m)';

function loop(body: string): string {
  return `for (let m = mask; m !== 0; m &= m - 1) { const l = ${LANE}; ${body} }`;
}

function combine(op: string, k: LeafKind, a: string, b: string): string {
  const f = k === 'f32' || k === 'f64';
  switch (op) {
    case 'add':
      return f ? `Math.fround(${a} + ${b})` : k === 'u32' ? `((${a} + ${b}) >>> 0)` : `((${a} + ${b}) | 0)`;
    case 'mul':
      return f ? `Math.fround(${a} * ${b})` : k === 'u32' ? `(Math.imul(${a}, ${b}) >>> 0)` : `Math.imul(${a}, ${b})`;
    case 'min':
      return f ? `X.fmin(${a}, ${b})` : `Math.min(${a}, ${b})`;
    case 'max':
      return f ? `X.fmax(${a}, ${b})` : `Math.max(${a}, ${b})`;
    case 'and':
      return k === 'bool' ? `(${a} && ${b})` : k === 'u32' ? `((${a} & ${b}) >>> 0)` : `(${a} & ${b})`;
    case 'or':
      return k === 'bool' ? `(${a} || ${b})` : k === 'u32' ? `((${a} | ${b}) >>> 0)` : `(${a} | ${b})`;
    case 'xor':
      return k === 'bool' ? `(!${a} !== !${b})` : k === 'u32' ? `((${a} ^ ${b}) >>> 0)` : `(${a} ^ ${b})`;
  }
  throw new SimError('internal', `subgroup ${op} is not arithmetic`);
}

function identity(op: string, k: LeafKind): string {
  const f = k === 'f32' || k === 'f64';
  switch (op) {
    case 'add':
    case 'or':
    case 'xor':
      return k === 'bool' ? 'false' : '0';
    case 'mul':
      return '1';
    case 'min':
      return f ? 'Infinity' : k === 'u32' ? '4294967295' : '2147483647';
    case 'max':
      return f ? '(-Infinity)' : k === 'u32' ? '0' : '(-2147483648)';
    case 'and':
      return k === 'bool' ? 'true' : k === 'u32' ? '4294967295' : '(-1)';
  }
  throw new SimError('internal', `subgroup ${op} has no identity`);
}

export function emitSubgroup(ctx: EmitContext, inst: InstOf<'subgroup'>): void {
  const id = inst.id;
  const a0 = inst.args[0];
  const rd = (k: number, lane = 'l') => ctx.read(a0!, k, lane);
  const n = a0 !== undefined ? ctx.leaves(a0).length : 0;
  const line = (s: string) => ctx.line(s);
  line('{');
  line('const first = 31 - Math.clz32(mask & -mask);');
  switch (inst.kind) {
    case 'elect':
      line(loop(ctx.regWrite(id, 0, 'l', 'l === first')));
      break;
    case 'all':
    case 'any': {
      const all = inst.kind === 'all';
      line(`let r = ${all};`);
      line(loop(all ? `if (!${rd(0)}) r = false;` : `if (${rd(0)}) r = true;`));
      line(loop(ctx.regWrite(id, 0, 'l', 'r')));
      break;
    }
    case 'allEqual': {
      const ks = ctx.leaves(a0!);
      line('let r = true;');
      const conds = ks.map((k, i) => (k === 'bool' ? `!${rd(i)} !== !${rd(i, 'first')}` : `${rd(i)} !== ${rd(i, 'first')}`));
      line(loop(`if (${conds.join(' || ')}) r = false;`));
      line(loop(ctx.regWrite(id, 0, 'l', 'r')));
      break;
    }
    case 'ballot':
      line('let b = 0;');
      line(loop(`if (${rd(0)}) b |= 1 << l;`));
      line('b >>>= 0;');
      line(loop([0, 1, 2, 3].map((k) => ctx.regWrite(id, k, 'l', k === 0 ? 'b' : '0')).join(' ')));
      break;
    case 'inverseBallot':
      line(loop(ctx.regWrite(id, 0, 'l', `((${rd(0)} >>> l) & 1) !== 0`)));
      break;
    case 'ballotBitExtract': {
      const idx = ctx.read(inst.args[1]!, 0);
      const comp = `(i < 32 ? ${rd(0)} : i < 64 ? ${rd(1)} : i < 96 ? ${rd(2)} : ${rd(3)})`;
      line(loop(`const i = ${idx}; ${ctx.regWrite(id, 0, 'l', `((${comp} >>> (i & 31)) & 1) !== 0`)}`));
      break;
    }
    case 'ballotBitCount': {
      const g = inst.group ?? 'reduce';
      const sel = g === 'reduce' ? '' : g === 'inclusiveScan' ? ' & ((((1 << l) - 1) | (1 << l)) >>> 0)' : ' & (((1 << l) - 1) >>> 0)';
      const e = g === 'reduce' ? `X.bitCount(${rd(0)}) + X.bitCount(${rd(1)}) + X.bitCount(${rd(2)}) + X.bitCount(${rd(3)})` : `X.bitCount(${rd(0)}${sel})`;
      line(loop(ctx.regWrite(id, 0, 'l', e)));
      break;
    }
    case 'ballotFindLSB':
      line(
        loop(ctx.regWrite(id, 0, 'l', `(${rd(0)} ? X.findLSB(${rd(0)}) : ${rd(1)} ? 32 + X.findLSB(${rd(1)}) : ${rd(2)} ? 64 + X.findLSB(${rd(2)}) : ${rd(3)} ? 96 + X.findLSB(${rd(3)}) : -1) >>> 0`)),
      );
      break;
    case 'ballotFindMSB':
      line(
        loop(ctx.regWrite(id, 0, 'l', `(${rd(3)} ? 96 + X.findUMSB(${rd(3)}) : ${rd(2)} ? 64 + X.findUMSB(${rd(2)}) : ${rd(1)} ? 32 + X.findUMSB(${rd(1)}) : ${rd(0)} ? X.findUMSB(${rd(0)}) : -1) >>> 0`)),
      );
      break;
    case 'broadcast':
    case 'broadcastFirst': {
      line(inst.kind === 'broadcast' ? `const src = ${ctx.read(inst.args[1]!, 0, 'first')} & 31;` : 'const src = first;');
      const vals = Array.from({ length: n }, (_, k) => {
        line(`const s${k} = ${rd(k, 'src')};`);
        return `s${k}`;
      });
      line(loop(vals.map((v, k) => ctx.regWrite(id, k, 'l', v)).join(' ')));
      break;
    }
    case 'shuffle':
    case 'shuffleXor':
    case 'shuffleUp':
    case 'shuffleDown': {
      const b = ctx.read(inst.args[1]!, 0);
      const src = { shuffle: b, shuffleXor: `l ^ ${b}`, shuffleUp: `l - ${b}`, shuffleDown: `l + ${b}` }[inst.kind];
      const body = [`const s = ${src};`, 'const ok = s >= 0 && s < 32;'];
      for (let k = 0; k < n; k++) body.push(ctx.regWrite(id, k, 'l', `ok ? ${rd(k, 's')} : 0`));
      line(loop(body.join(' ')));
      break;
    }
    default: {
      const op = inst.kind;
      const ks = ctx.leaves(a0!);
      const g = inst.group ?? 'reduce';
      ks.forEach((k, i) => {
        line(`let acc${i} = ${identity(op, k)};`);
        if (g === 'reduce') {
          line(loop(`acc${i} = ${combine(op, k, `acc${i}`, rd(i))};`));
          line(loop(ctx.regWrite(id, i, 'l', `acc${i}`)));
        } else if (g === 'inclusiveScan') {
          line(loop(`acc${i} = ${combine(op, k, `acc${i}`, rd(i))}; ${ctx.regWrite(id, i, 'l', `acc${i}`)}`));
        } else {
          line(loop(`${ctx.regWrite(id, i, 'l', `acc${i}`)} acc${i} = ${combine(op, k, `acc${i}`, rd(i))};`));
        }
      });
    }
  }
  line('}');
}
