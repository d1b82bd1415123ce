/**
 * Emitters for image instructions (imageLoad/Store/Size, texture sampling, texelFetch,
 * textureSize) and OpSampledImage. Image values are handles: the index of the image in the
 * launch's image table; a sampled image adds `sampler index * 65536` (0 = the image's own sampler).
 * The work is done by the warp runtime (`W.img*`, images.ts), which raises located SimErrors for
 * out-of-bounds texels and unbound handles.
 */
import type { InstOf, ValueId } from '../../ir/inst.js';
import { typeOf, type TypeId } from '../../ir/types.js';
import { OpClass } from '../warp-step.js';
import type { EmitContext } from './emit-context.js';
import { SimError } from './errors.js';

/**
 * Dimensions of an image value. Cube maps are stored as 2D images with 6 layers per cube
 * (+X, -X, +Y, -Y, +Z, -Z); texel access addresses them as (x, y, face) like a 2D array.
 */
function imageType(ctx: EmitContext, v: ValueId): { dims: number; arrayed: boolean; cube: boolean } {
  let t = typeOf(ctx.module.types, ctx.typeOfValue(v));
  if (t.kind === 'sampledImage') t = typeOf(ctx.module.types, t.image);
  if (t.kind !== 'image') throw new SimError('internal', 'image operation on a non-image value');
  if (t.dim === 'Cube') return { dims: 2, arrayed: true, cube: true };
  const dims = t.dim === '1D' || t.dim === 'Buffer' ? 1 : t.dim === '3D' ? 3 : 2;
  return { dims, arrayed: t.arrayed, cube: false };
}

function resultConvert(ctx: EmitContext, ty: TypeId, t: string): string[] {
  return ctx.layout.leavesOf(ty).map((k, i) => (k === 'i32' ? `(${t}[${i}] | 0)` : k === 'u32' ? `(${t}[${i}] >>> 0)` : `${t}[${i}]`));
}

/** Coordinates as [x, y, z, layer] expressions from a coordinate value of `dims` (+1 when arrayed) leaves. */
function coords(ctx: EmitContext, coord: ValueId, dims: number, arrayed: boolean): string[] {
  const n = ctx.leaves(coord).length;
  const c = (i: number) => (i < n ? ctx.read(coord, i) : '0');
  const xyz = [c(0), dims > 1 ? c(1) : '0', dims > 2 ? c(2) : '0'];
  return [...xyz, arrayed ? c(dims) : '0'];
}

/** Registers a texture memory site; the runtime leaves the texel address of the access in W.texAddr. */
function texSite(ctx: EmitContext, inst: InstOf<'image'>, kind: 'load' | 'store'): void {
  const k = ctx.memSite(inst, kind, 16, 'texture');
  ctx.line(`if (REC) AD[${k * 32} + l] = W.texAddr;`);
}

/** Texel offset operand (textureOffset, texelFetchOffset ...) as three expressions. */
function offsets(ctx: EmitContext, off: ValueId | undefined): string {
  if (off === undefined) return '0, 0, 0';
  const n = ctx.leaves(off).length;
  return [0, 1, 2].map((i) => (i < n ? ctx.read(off, i) : '0')).join(', ');
}

export function emitImage(ctx: EmitContext, inst: InstOf<'image'>): void {
  ctx.setClass(OpClass.Texture);
  const site = ctx.site(inst);
  const a = inst.args;
  const h = () => ctx.read(a[0]!, 0);
  switch (inst.kind) {
    case 'read': {
      const { dims, arrayed } = imageType(ctx, a[0]!);
      const t = ctx.tmp('tx');
      ctx.line(`const ${t} = W.imgRead(${h()}, ${coords(ctx, a[1]!, dims, arrayed).join(', ')}, 0, ${site}, l);`);
      texSite(ctx, inst, 'load');
      ctx.def(inst.id, resultConvert(ctx, inst.type, t));
      return;
    }
    case 'fetch': {
      const { dims, arrayed } = imageType(ctx, a[0]!);
      const lod = inst.lod !== undefined ? ctx.read(inst.lod, 0) : a[2] !== undefined ? ctx.read(a[2], 0) : '0';
      const t = ctx.tmp('tx');
      const fc = coords(ctx, a[1]!, dims, arrayed);
      if (inst.offset !== undefined) {
        const o = offsets(ctx, inst.offset).split(', ');
        for (let i = 0; i < 3; i++) if (o[i] !== '0') fc[i] = `(${fc[i]} + ${o[i]})`;
      }
      ctx.line(`const ${t} = W.imgRead(${h()} & 65535, ${fc.join(', ')}, ${lod}, ${site}, l);`);
      texSite(ctx, inst, 'load');
      ctx.def(inst.id, resultConvert(ctx, inst.type, t));
      return;
    }
    case 'write': {
      const { dims, arrayed } = imageType(ctx, a[0]!);
      const texel = ctx.leaves(a[2]!).map((_, i) => ctx.read(a[2]!, i));
      ctx.line(`W.imgWrite(${h()}, ${coords(ctx, a[1]!, dims, arrayed).join(', ')}, [${texel.join(', ')}], ${site}, l);`);
      texSite(ctx, inst, 'store');
      return;
    }
    case 'querySize':
    case 'querySizeLod': {
      const { dims, arrayed } = imageType(ctx, a[0]!);
      const lod = inst.kind === 'querySizeLod' ? (inst.lod !== undefined ? ctx.read(inst.lod, 0) : ctx.read(a[1]!, 0)) : '0';
      const t = ctx.tmp('sz');
      ctx.line(`const ${t} = W.imgSize(${h()} & 65535, ${lod}, ${site}, l);`);
      const out = [`${t}[0]`, `${t}[1]`, `${t}[2]`].slice(0, dims);
      if (arrayed && !imageType(ctx, a[0]!).cube) out.push(`${t}[3]`);
      else if (imageType(ctx, a[0]!).cube && ctx.layout.leavesOf(inst.type).length > 2) out.push(`((${t}[3] / 6) | 0)`);
      ctx.def(inst.id, out.slice(0, ctx.layout.leavesOf(inst.type).length));
      return;
    }
    case 'queryLevels':
      ctx.def(inst.id, [`W.imgLevels(${h()} & 65535, ${site}, l)`]);
      return;
    case 'sampleImplicitLod':
    case 'sampleExplicitLod':
    case 'sampleGrad': {
      const { dims, arrayed, cube } = imageType(ctx, a[0]!);
      if (cube) {
        let lod = '0';
        if (inst.kind === 'sampleExplicitLod') lod = inst.lod !== undefined ? ctx.read(inst.lod, 0) : ctx.read(a[2]!, 0);
        else if (inst.kind === 'sampleImplicitLod' && inst.bias !== undefined) lod = ctx.read(inst.bias, 0);
        const n = ctx.leaves(a[1]!).length;
        const c = (i: number) => (i < n ? ctx.read(a[1]!, i) : '0');
        const t = ctx.tmp('tx');
        ctx.line(`const ${t} = W.imgSampleCube(${h()}, ${c(0)}, ${c(1)}, ${c(2)}, ${n > 3 ? c(3) : '0'}, ${lod}, ${site}, l);`);
        texSite(ctx, inst, 'load');
        ctx.def(inst.id, resultConvert(ctx, inst.type, t));
        return;
      }
      let lod = '0';
      if (inst.kind === 'sampleExplicitLod') lod = inst.lod !== undefined ? ctx.read(inst.lod, 0) : ctx.read(a[2]!, 0);
      else if (inst.kind === 'sampleImplicitLod' && inst.bias !== undefined) lod = ctx.read(inst.bias, 0);
      else if (inst.kind === 'sampleGrad') {
        const g = (v: ValueId) => ctx.leaves(v).map((_, i) => ctx.read(v, i)).join(', ');
        lod = `W.imgGradLod(${h()}, [${g(a[2]!)}], [${g(a[3]!)}], ${site}, l)`;
      }
      const cs = coords(ctx, a[1]!, dims, arrayed);
      const t = ctx.tmp('tx');
      ctx.line(`const ${t} = W.imgSample(${h()}, ${cs.join(', ')}, ${lod}, ${dims}, ${site}, l, ${offsets(ctx, inst.offset)});`);
      texSite(ctx, inst, 'load');
      ctx.def(inst.id, resultConvert(ctx, inst.type, t));
      return;
    }
    case 'gather': {
      const { dims, arrayed, cube } = imageType(ctx, a[0]!);
      if (cube || dims !== 2) throw new SimError('unsupported', 'textureGather is only supported on 2D textures');
      const cs = coords(ctx, a[1]!, dims, arrayed);
      const comp = a[2] !== undefined ? ctx.read(a[2], 0) : '0';
      const t = ctx.tmp('tx');
      const o = offsets(ctx, inst.offset).split(', ');
      ctx.line(`const ${t} = W.imgGather(${h()}, ${cs[0]}, ${cs[1]}, ${cs[3]}, ${comp}, ${site}, l, ${o[0]}, ${o[1]});`);
      texSite(ctx, inst, 'load');
      ctx.def(inst.id, resultConvert(ctx, inst.type, t));
      return;
    }
    case 'image':
      ctx.def(inst.id, [`(${h()} & 65535)`]);
      return;
  }
}

export function emitSampledImage(ctx: EmitContext, inst: InstOf<'sampledImage'>): void {
  ctx.def(inst.id, [`(${ctx.read(inst.image, 0)} + ${ctx.read(inst.sampler, 0)} * 65536)`]);
}
