/**
 * Emitter for GLSL.std.450 extended instructions (`ext`), with GLSL semantics: the int / uint /
 * float variant follows the operand leaf kind; scalar operands broadcast over vector ones; every
 * float result is rounded to f32. Transcendentals use the JS double functions then round, so they
 * are within 1 ulp of the correctly rounded f32 result (GPUs are usually within 2-4 ulp: results are
 * deterministic but not bit-identical to a particular GPU). `modf` / `frexp` with a pointer operand
 * store through it using the memory emitter.
 */
import type { InstOf } from '../../ir/inst.js';
import { OpClass } from '../warp-step.js';
import type { EmitContext } from './emit-context.js';
import { SimError } from './errors.js';
import { isFloat, wrap } from './emit-arith.js';
import type { LeafKind } from './layout.js';

type StoreThrough = (ctx: EmitContext, ptr: InstOf<'ext'>['args'][number], exprs: string[], inst: InstOf<'ext'>) => void;

const fr = (e: string) => `Math.fround(${e})`;

const UNARY_F: Record<string, (a: string) => string> = {
  trunc: (a) => `Math.trunc(${a})`,
  floor: (a) => `Math.floor(${a})`,
  ceil: (a) => `Math.ceil(${a})`,
  round: (a) => `X.roundEven(${a})`,
  roundEven: (a) => `X.roundEven(${a})`,
  fract: (a) => fr(`${a} - Math.floor(${a})`),
  radians: (a) => fr(`${a} * ${Math.fround(Math.PI / 180)}`),
  degrees: (a) => fr(`${a} * ${Math.fround(180 / Math.PI)}`),
  sin: (a) => fr(`Math.sin(${a})`),
  cos: (a) => fr(`Math.cos(${a})`),
  tan: (a) => fr(`Math.tan(${a})`),
  asin: (a) => fr(`Math.asin(${a})`),
  acos: (a) => fr(`Math.acos(${a})`),
  atan: (a) => fr(`Math.atan(${a})`),
  sinh: (a) => fr(`Math.sinh(${a})`),
  cosh: (a) => fr(`Math.cosh(${a})`),
  tanh: (a) => fr(`Math.tanh(${a})`),
  asinh: (a) => fr(`Math.asinh(${a})`),
  acosh: (a) => fr(`Math.acosh(${a})`),
  atanh: (a) => fr(`Math.atanh(${a})`),
  exp: (a) => fr(`Math.exp(${a})`),
  log: (a) => fr(`Math.log(${a})`),
  exp2: (a) => fr(`2 ** ${a}`),
  log2: (a) => fr(`Math.log2(${a})`),
  sqrt: (a) => fr(`Math.sqrt(${a})`),
  inversesqrt: (a) => fr(`1 / Math.sqrt(${a})`),
};

const SFU = new Set([
  'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh',
  'pow', 'exp', 'log', 'exp2', 'log2', 'sqrt', 'inversesqrt', 'length', 'distance', 'normalize', 'refract',
  'determinant', 'inverse',
]);

function fsumSq(xs: string[]): string {
  let acc = fr(`${xs[0]} * ${xs[0]}`);
  for (let i = 1; i < xs.length; i++) acc = fr(`${acc} + ${fr(`${xs[i]} * ${xs[i]}`)}`);
  return acc;
}

function fdot(as: string[], bs: string[]): string {
  let acc = fr(`${as[0]} * ${bs[0]}`);
  for (let i = 1; i < as.length; i++) acc = fr(`${acc} + ${fr(`${as[i]} * ${bs[i]}`)}`);
  return acc;
}

export function emitExt(ctx: EmitContext, inst: InstOf<'ext'>, storeThrough: StoreThrough): void {
  if (SFU.has(inst.fn)) ctx.setClass(OpClass.Sfu);
  const rk = ctx.layout.leavesOf(inst.type);
  const args = inst.args;
  const at = (j: number, i: number): string => ctx.read(args[j]!, ctx.leaves(args[j]!).length === 1 ? 0 : i);
  const all = (j: number): string[] => ctx.leaves(args[j]!).map((_, i) => ctx.read(args[j]!, i));
  /** Binds an expression list to temporaries so each is evaluated once. */
  const bind = (xs: string[]): string[] =>
    xs.map((x) => {
      const t = ctx.tmp('e');
      ctx.line(`const ${t} = ${x};`);
      return t;
    });
  const k0: LeafKind = ctx.leaves(args[0]!)[0]!;
  const perLeaf = (f: (i: number, k: LeafKind) => string): void => ctx.def(inst.id, rk.map((k, i) => f(i, k)));

  // GPU compilers take rsq as the rounded reciprocal of the rounded sqrt (float-model.ts).
  const unary = ctx.floatModel === 'gpu' && inst.fn === 'inversesqrt' ? (a: string) => fr(`1 / ${fr(`Math.sqrt(${a})`)}`) : UNARY_F[inst.fn];
  if (unary) {
    perLeaf((i) => unary(at(0, i)));
    return;
  }
  switch (inst.fn) {
    case 'abs':
      perLeaf((i, k) => (isFloat(k) ? `Math.abs(${at(0, i)})` : `(Math.abs(${at(0, i)}) | 0)`));
      return;
    case 'sign':
      perLeaf((i, k) => (isFloat(k) ? `X.fsign(${at(0, i)})` : `(Math.sign(${at(0, i)}) | 0)`));
      return;
    case 'atan2':
      perLeaf((i) => fr(`Math.atan2(${at(0, i)}, ${at(1, i)})`));
      return;
    case 'pow':
      perLeaf((i) => (ctx.floatModel === 'gpu'
        ? fr(`Math.pow(2, ${fr(`${at(1, i)} * ${fr(`Math.log2(${at(0, i)})`)}`)})`)
        : fr(`Math.pow(${at(0, i)}, ${at(1, i)})`)));
      return;
    case 'min':
    case 'nmin':
      perLeaf((i, k) => (isFloat(k) ? `X.fmin(${at(0, i)}, ${at(1, i)})` : `Math.min(${at(0, i)}, ${at(1, i)})`));
      return;
    case 'max':
    case 'nmax':
      perLeaf((i, k) => (isFloat(k) ? `X.fmax(${at(0, i)}, ${at(1, i)})` : `Math.max(${at(0, i)}, ${at(1, i)})`));
      return;
    case 'clamp':
    case 'nclamp':
      perLeaf((i, k) =>
        isFloat(k)
          ? `X.fmin(X.fmax(${at(0, i)}, ${at(1, i)}), ${at(2, i)})`
          : `Math.min(Math.max(${at(0, i)}, ${at(1, i)}), ${at(2, i)})`,
      );
      return;
    case 'mix':
      perLeaf((i) => {
        const a = at(2, i);
        return fr(`${fr(`${at(0, i)} * ${fr(`1 - ${a}`)}`)} + ${fr(`${at(1, i)} * ${a}`)}`);
      });
      return;
    case 'step':
      perLeaf((i) => `(${at(1, i)} < ${at(0, i)} ? 0 : 1)`);
      return;
    case 'smoothstep':
      perLeaf((i) => `X.smoothstep(${at(0, i)}, ${at(1, i)}, ${at(2, i)})`);
      return;
    case 'fma':
      perLeaf((i) => fr(`${at(0, i)} * ${at(1, i)} + ${at(2, i)}`));
      return;
    case 'ldexp':
      perLeaf((i) => fr(`${at(0, i)} * 2 ** ${at(1, i)}`));
      return;
    case 'length':
      ctx.def(inst.id, [fr(`Math.sqrt(${fsumSq(all(0))})`)]);
      return;
    case 'distance': {
      const d = bind(all(0).map((a, i) => fr(`${a} - ${at(1, i)}`)));
      ctx.def(inst.id, [fr(`Math.sqrt(${fsumSq(d)})`)]);
      return;
    }
    case 'normalize': {
      const v = bind(all(0));
      const len = ctx.tmp('len');
      if (ctx.floatModel === 'gpu') {
        // v * rsq(dot(v, v)), rsq = rcp(sqrt) rounded at each step (float-model.ts).
        ctx.line(`const ${len} = ${fr(`1 / ${fr(`Math.sqrt(${fsumSq(v)})`)}`)};`);
        ctx.def(inst.id, v.map((x) => fr(`${x} * ${len}`)));
        return;
      }
      ctx.line(`const ${len} = ${fr(`Math.sqrt(${fsumSq(v)})`)};`);
      ctx.def(inst.id, v.map((x) => fr(`${x} / ${len}`)));
      return;
    }
    case 'cross': {
      const a = bind(all(0));
      const b = bind(all(1));
      ctx.def(inst.id, [
        fr(`${fr(`${a[1]} * ${b[2]}`)} - ${fr(`${b[1]} * ${a[2]}`)}`),
        fr(`${fr(`${a[2]} * ${b[0]}`)} - ${fr(`${b[2]} * ${a[0]}`)}`),
        fr(`${fr(`${a[0]} * ${b[1]}`)} - ${fr(`${b[0]} * ${a[1]}`)}`),
      ]);
      return;
    }
    case 'faceforward': {
      const d = ctx.tmp('d');
      ctx.line(`const ${d} = ${fdot(all(2), all(1))};`);
      ctx.def(inst.id, all(0).map((n) => `(${d} < 0 ? ${n} : -${n})`));
      return;
    }
    case 'reflect': {
      const I = bind(all(0));
      const N = bind(all(1));
      const d = ctx.tmp('d');
      ctx.line(`const ${d} = ${fr(`2 * ${fdot(N, I)}`)};`);
      ctx.def(inst.id, I.map((x, i) => fr(`${x} - ${fr(`${d} * ${N[i]}`)}`)));
      return;
    }
    case 'refract': {
      const I = bind(all(0));
      const N = bind(all(1));
      const eta = ctx.read(args[2]!, 0);
      const d = ctx.tmp('d');
      const kk = ctx.tmp('k');
      ctx.line(`const ${d} = ${fdot(N, I)};`);
      ctx.line(`const ${kk} = ${fr(`1 - ${fr(`${eta} * ${eta}`)} * ${fr(`1 - ${d} * ${d}`)}`)};`);
      ctx.def(
        inst.id,
        I.map((x, i) => `(${kk} < 0 ? 0 : ${fr(`${fr(`${eta} * ${x}`)} - ${fr(`${fr(`${eta} * ${d} + Math.sqrt(${kk})`)} * ${N[i]}`)}`)})`),
      );
      return;
    }
    case 'determinant': {
      const m = all(0);
      ctx.def(inst.id, [`X.determinant([${m.join(', ')}], ${Math.round(Math.sqrt(m.length))})`]);
      return;
    }
    case 'inverse': {
      const m = all(0);
      const t = ctx.tmp('inv');
      ctx.line(`const ${t} = X.inverse([${m.join(', ')}], ${Math.round(Math.sqrt(m.length))});`);
      ctx.def(inst.id, m.map((_, i) => `${t}[${i}]`));
      return;
    }
    case 'modf': {
      const x = bind(all(0));
      if (args.length > 1) storeThrough(ctx, args[1]!, x.map((v) => `Math.trunc(${v})`), inst);
      ctx.def(inst.id, x.map((v) => fr(`${v} - Math.trunc(${v})`)));
      return;
    }
    case 'modfStruct': {
      const x = bind(all(0));
      ctx.def(inst.id, [...x.map((v) => fr(`${v} - Math.trunc(${v})`)), ...x.map((v) => `Math.trunc(${v})`)]);
      return;
    }
    case 'frexp': {
      const x = all(0);
      const parts = x.map((v) => {
        const t = ctx.tmp('fx');
        ctx.line(`const ${t} = X.frexp(${v});`);
        return t;
      });
      if (args.length > 1) {
        storeThrough(ctx, args[1]!, parts.map((t) => `${t}[1]`), inst);
        ctx.def(inst.id, parts.map((t) => `${t}[0]`));
      } else {
        ctx.def(inst.id, [...parts.map((t) => `${t}[0]`), ...parts.map((t) => `${t}[1]`)]);
      }
      return;
    }
    case 'findLSB':
      perLeaf((i) => `X.findLSB(${at(0, i)})`);
      return;
    case 'findMSB':
      perLeaf((i) => (k0 === 'i32' ? `X.findSMSB(${at(0, i)})` : `X.findUMSB(${at(0, i)})`));
      return;
    case 'packUnorm4x8':
    case 'packSnorm4x8':
    case 'packUnorm2x16':
    case 'packSnorm2x16':
    case 'packHalf2x16':
      ctx.def(inst.id, [`X.${inst.fn}(${all(0).join(', ')})`]);
      return;
    case 'unpackUnorm4x8':
    case 'unpackSnorm4x8':
    case 'unpackUnorm2x16':
    case 'unpackSnorm2x16':
    case 'unpackHalf2x16': {
      const t = ctx.tmp('up');
      ctx.line(`const ${t} = X.${inst.fn}(${ctx.read(args[0]!, 0)});`);
      ctx.def(inst.id, rk.map((_, i) => `${t}[${i}]`));
      return;
    }
    case 'packDouble2x32':
      ctx.def(inst.id, [`X.bitsf64(${ctx.read(args[0]!, 0)}, ${ctx.read(args[0]!, 1)})`]);
      return;
    case 'unpackDouble2x32': {
      const t = ctx.tmp('ud');
      ctx.line(`const ${t} = X.f64bits(${ctx.read(args[0]!, 0)});`);
      ctx.def(inst.id, [`${t}[0]`, `${t}[1]`]);
      return;
    }
  }
  throw new SimError('unsupported', `GLSL.std.450 ${inst.fn} is not implemented by the functional core`);
}

export { wrap };
