/**
 * Texture and image built-ins, whose signatures depend on the sampler/image type of the first
 * argument: texture, textureLod, textureGrad, textureOffset, textureLodOffset, texelFetch,
 * textureSize, textureQueryLevels, textureGather, imageLoad, imageStore, imageSize.
 *
 * Coordinates: sampling takes float coordinates with one component per dimension (+1 for arrays,
 * +1 for shadow compare); fetches and image access take int coordinates (cube images address a
 * face as a layer: 3 components). Results are 4-component vectors of the sampled type (float for
 * shadow lookups). Size queries return one int per dimension (+1 for arrays).
 */
import type { ImageOp, Loc, ValueId } from '../../../ir/inst.js';
import type { Type, TypeId } from '../../../ir/types.js';
import type { IrGenContext, Val } from './context.js';
import { voidVal } from './builtin-calls.js';
import { coerce } from './value-conversion.js';

const TEXTURE_FUNCTIONS = new Set([
  'texture', 'textureLod', 'textureGrad', 'textureOffset', 'textureLodOffset', 'texelFetch', 'textureSize',
  'textureQueryLevels', 'textureGather', 'imageLoad', 'imageStore', 'imageSize', 'imageSamples', 'textureSamples',
]);

export function isTextureFunction(name: string): boolean {
  return TEXTURE_FUNCTIONS.has(name);
}

type ImageType = Extract<Type, { kind: 'image' }>;

function spatialDims(img: ImageType): number {
  switch (img.dim) {
    case '1D':
    case 'Buffer':
      return 1;
    case '2D':
    case 'Rect':
    case 'SubpassData':
      return 2;
    case '3D':
    case 'Cube':
      return 3;
  }
}

function sizeDims(img: ImageType): number {
  const d = img.dim === 'Cube' ? 2 : spatialDims(img);
  return d + (img.arrayed ? 1 : 0);
}

export function genTextureCall(cx: IrGenContext, name: string, args: Val[], loc: Loc): Val {
  const types = cx.types;
  const first = args[0];
  if (!first) return cx.fail(loc, `'${name}' needs a sampler or image as first argument`);
  const ft = types.get(first.type);
  const isImageFn = name.startsWith('image');
  let img: ImageType;
  let imageValue: ValueId = first.id;
  if (ft.kind === 'sampledImage') {
    img = types.get(ft.image) as ImageType;
  } else if (ft.kind === 'image') {
    img = ft;
  } else {
    return cx.fail(first === undefined ? loc : loc, `'${name}' expects a ${isImageFn ? 'image' : 'sampler'} as first argument, found '${types.name(first.type)}'`);
  }
  if (isImageFn && (ft.kind !== 'image' || img.sampled)) cx.fail(loc, `'${name}' expects a storage image (image2D, ...), found '${types.name(first.type)}'`);
  if (!isImageFn && ft.kind === 'image' && !img.sampled) cx.fail(loc, `'${name}' expects a sampler, found storage image '${types.name(first.type)}'`);
  const sampled = img.sampledType;
  const vec4 = types.vectorOf(sampled, 4);
  const int = types.int;
  const float = types.float;
  const ivec = (n: number) => types.vectorOf(int, n);
  const fvec = (n: number) => types.vectorOf(float, n);
  const samplingCoord = fvec(spatialDims(img) + (img.arrayed ? 1 : 0) + (img.depth ? 1 : 0));
  const intCoord = ivec(spatialDims(img) + (img.arrayed ? 1 : 0));
  const offsetType = ivec(img.dim === 'Cube' ? 3 : spatialDims(img));
  const result = img.depth ? float : vec4;
  const need = (n: number[], sig: string): void => {
    if (!n.includes(args.length)) cx.fail(loc, `wrong number of arguments to '${name}': expected ${sig}`);
  };
  const arg = (i: number, t: TypeId, what: string): ValueId => coerce(cx, args[i]!, t, loc, ` for ${what} of '${name}'`).id;
  const imageOf = (): ValueId => {
    if (ft.kind !== 'sampledImage') return imageValue;
    const it = (ft as Extract<Type, { kind: 'sampledImage' }>).image;
    return cx.emit({ op: 'image', kind: 'image', args: [first.id] }, it, loc);
  };
  const emit = (kind: ImageOp, a: ValueId[], type: TypeId, extra: { lod?: ValueId; bias?: ValueId; offset?: ValueId } = {}): Val => ({
    id: cx.emit({ op: 'image', kind, args: a, ...extra }, type, loc),
    type,
  });
  const needSampler = (): void => {
    if (ft.kind !== 'sampledImage') cx.fail(loc, `'${name}' needs a combined sampler (e.g. sampler2D), found '${types.name(first.type)}'`);
  };
  switch (name) {
    case 'texture': {
      needSampler();
      need([2, 3], `(sampler, ${types.name(samplingCoord)}[, float bias])`);
      const extra = args.length === 3 ? { bias: arg(2, float, 'the bias') } : {};
      return emit('sampleImplicitLod', [first.id, arg(1, samplingCoord, 'the coordinate')], result, extra);
    }
    case 'textureOffset': {
      needSampler();
      need([3, 4], `(sampler, ${types.name(samplingCoord)}, ${types.name(offsetType)}[, float bias])`);
      const extra = { offset: arg(2, offsetType, 'the offset'), ...(args.length === 4 ? { bias: arg(3, float, 'the bias') } : {}) };
      return emit('sampleImplicitLod', [first.id, arg(1, samplingCoord, 'the coordinate')], result, extra);
    }
    case 'textureLod':
      needSampler();
      need([3], `(sampler, ${types.name(samplingCoord)}, float lod)`);
      return emit('sampleExplicitLod', [first.id, arg(1, samplingCoord, 'the coordinate')], result, { lod: arg(2, float, 'the level of detail') });
    case 'textureLodOffset':
      needSampler();
      need([4], `(sampler, ${types.name(samplingCoord)}, float lod, ${types.name(offsetType)})`);
      return emit('sampleExplicitLod', [first.id, arg(1, samplingCoord, 'the coordinate')], result, {
        lod: arg(2, float, 'the level of detail'), offset: arg(3, offsetType, 'the offset'),
      });
    case 'textureGrad': {
      needSampler();
      const g = fvec(img.dim === 'Cube' ? 3 : spatialDims(img));
      need([4], `(sampler, ${types.name(samplingCoord)}, ${types.name(g)} dPdx, ${types.name(g)} dPdy)`);
      return emit('sampleGrad', [first.id, arg(1, samplingCoord, 'the coordinate'), arg(2, g, 'dPdx'), arg(3, g, 'dPdy')], result);
    }
    case 'textureGather': {
      needSampler();
      need([2, 3], `(sampler, ${types.name(samplingCoord)}[, int comp])`);
      const a = [first.id, arg(1, samplingCoord, 'the coordinate')];
      if (args.length === 3) a.push(arg(2, int, 'the component'));
      return emit('gather', a, vec4);
    }
    case 'texelFetch': {
      const noLod = img.dim === 'Buffer' || img.multisampled;
      need(noLod ? [2] : [3], `(sampler, ${types.name(intCoord)}${noLod ? '' : ', int lod'})`);
      const a = [imageOf(), arg(1, intCoord, 'the coordinate')];
      if (!noLod) a.push(arg(2, int, 'the level of detail'));
      return emit('fetch', a, vec4);
    }
    case 'textureSize': {
      const noLod = img.dim === 'Buffer' || img.multisampled;
      need(noLod ? [1] : [2], noLod ? '(sampler)' : '(sampler, int lod)');
      const rt = ivec(sizeDims(img));
      if (noLod) return emit('querySize', [imageOf()], rt);
      return emit('querySizeLod', [imageOf(), arg(1, int, 'the level of detail')], rt);
    }
    case 'textureQueryLevels':
      need([1], '(sampler)');
      return emit('queryLevels', [imageOf()], int);
    case 'textureSamples':
    case 'imageSamples':
      return cx.fail(loc, `'${name}' is not supported: the IR has no sample-count query`);
    case 'imageLoad':
      need([2], `(image, ${types.name(intCoord)})`);
      return emit('read', [first.id, arg(1, intCoord, 'the coordinate')], vec4);
    case 'imageStore': {
      need([3], `(image, ${types.name(intCoord)}, ${types.name(vec4)})`);
      cx.emit({ op: 'image', kind: 'write', args: [first.id, arg(1, intCoord, 'the coordinate'), arg(2, vec4, 'the texel')] }, types.void, loc);
      return voidVal(cx);
    }
    case 'imageSize':
      need([1], '(image)');
      return emit('querySize', [first.id], ivec(sizeDims(img)));
  }
  imageValue = first.id;
  return cx.fail(loc, `unsupported texture function '${name}'`);
}
