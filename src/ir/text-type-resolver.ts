/**
 * Resolves type spellings of the IR text form (`vec3<f32>`, `ptr<function, $Payload>`, `!7`)
 * to type ids of the table being rebuilt by the parser.
 *
 * Invariant: declared types are added in id order (`add`), so the rebuilt table has exactly the
 * ids of the printed one; a structural spelling maps to the first declared type with that key.
 */
import { LineReader } from './text-lexer.js';
import { STORAGE_CLASSES, typeKey, type ImageDim, type LayoutRule, type StorageClass, type Type, type TypeId } from './types.js';

const DIMS: Record<ImageDim, true> = { '1D': true, '2D': true, '3D': true, Cube: true, Rect: true, Buffer: true, SubpassData: true };
export const LAYOUTS: Record<LayoutRule, true> = { std140: true, std430: true, scalar: true };
/** Resolves type spellings against the table being built. */
export class TypeResolver {
  readonly types: Type[] = [];
  readonly byKey = new Map<string, TypeId>();
  readonly structs = new Map<string, TypeId[]>();
  /** Whether unknown structural types may be interned (false while reading declarations). */
  allowNew = false;

  add(t: Type): TypeId {
    const id = this.types.length as TypeId;
    this.types.push(t);
    const k = typeKey(t);
    if (!this.byKey.has(k)) this.byKey.set(k, id);
    return id;
  }

  ref(r: LineReader): TypeId {
    const t = r.peek();
    if (t?.kind === 'atom' && t.text.startsWith('!')) return r.id('!', 'a type id') as TypeId;
    if (t?.kind === 'atom' && t.text.startsWith('$')) {
      r.i++;
      const ids = this.structs.get(t.text.slice(1));
      if (!ids || ids.length === 0) r.fail(`unknown struct ${t.text}`, t);
      if (ids.length > 1) r.fail(`struct name ${t.text} is ambiguous; use !N`, t);
      return ids[0]!;
    }
    const start = r.peek();
    const ty = this.structural(r);
    const found = this.byKey.get(typeKey(ty));
    if (found !== undefined) return found;
    if (!this.allowNew) r.fail(`type is not declared before this point`, start);
    return this.add(ty);
  }

  /** `< body >` */
  private angle<X>(r: LineReader, body: () => X): X {
    r.punct('<');
    const x = body();
    r.punct('>');
    return x;
  }

  structural(r: LineReader): Type {
    const tok = r.atom('a type');
    const w = tok.text;
    if (w === 'void' || w === 'bool' || w === 'sampler') return { kind: w };
    if (w === 'accel') return { kind: 'accelerationStructure' };
    let mt = /^([iu])(8|16|32|64)$/.exec(w);
    if (mt) return { kind: 'int', width: Number(mt[2]) as 8 | 16 | 32 | 64, signed: mt[1] === 'i' };
    mt = /^f(16|32|64)$/.exec(w);
    if (mt) return { kind: 'float', width: Number(mt[1]) as 16 | 32 | 64 };
    mt = /^(vec|mat)([234])$/.exec(w);
    if (mt) {
      const n = Number(mt[2]) as 2 | 3 | 4;
      const inner = this.angle(r, () => this.ref(r));
      return mt[1] === 'vec' ? { kind: 'vector', elem: inner, count: n } : { kind: 'matrix', column: inner, columns: n };
    }
    if (w === 'array') {
      return this.angle(r, () => {
        const elem = this.ref(r);
        let length: number | undefined;
        let stride: number | undefined;
        while (r.isPunct(',')) {
          r.punct(',');
          if (r.isAtom('stride')) {
            r.i++;
            r.punct('=');
            stride = r.int('a stride');
          } else length = r.int('an array length');
        }
        const t: Type = length === undefined ? { kind: 'runtimeArray', elem } : { kind: 'array', elem, length };
        if (stride !== undefined) t.stride = stride;
        return t;
      });
    }
    if (w === 'ptr') {
      return this.angle(r, () => {
        const s = r.atom('a storage class');
        if (!STORAGE_CLASSES.includes(s.text as StorageClass)) r.fail(`unknown storage class '${s.text}'`, s);
        r.punct(',');
        const t: Type = { kind: 'pointer', storage: s.text as StorageClass, pointee: this.ref(r) };
        if (r.isPunct(',')) {
          r.punct(',');
          r.keyword('align');
          r.punct('=');
          t.align = r.int('an alignment');
        }
        return t;
      });
    }
    if (w === 'image') {
      return this.angle(r, () => {
        const d = r.atom('an image dimension');
        if (!Object.hasOwn(DIMS, d.text)) r.fail(`unknown image dimension '${d.text}'`, d);
        r.punct(',');
        const sampledType = this.ref(r);
        r.punct(',');
        const format = r.string('an image format');
        const t: Type = { kind: 'image', sampledType, dim: d.text as ImageDim, arrayed: false, multisampled: false, sampled: false, format, depth: false };
        while (r.isPunct(',')) {
          r.punct(',');
          const f = r.atom('an image flag');
          if (f.text === 'arrayed') t.arrayed = true;
          else if (f.text === 'ms') t.multisampled = true;
          else if (f.text === 'sampled') t.sampled = true;
          else if (f.text === 'depth') t.depth = true;
          else r.fail(`unknown image flag '${f.text}'`, f);
        }
        return t;
      });
    }
    if (w === 'sampled') return { kind: 'sampledImage', image: this.angle(r, () => this.ref(r)) };
    if (w === 'fn') {
      r.punct('(');
      const params: TypeId[] = [];
      while (!r.isPunct(')')) {
        if (params.length > 0) r.punct(',');
        params.push(this.ref(r));
      }
      r.punct(')');
      r.punct('->');
      return { kind: 'function', params, returnType: this.ref(r) };
    }
    return r.fail(`unknown type '${w}'`, tok);
  }
}
