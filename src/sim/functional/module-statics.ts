/**
 * Module-level facts the function compiler needs: constant leaves as JS literals (spec constants
 * as reads of the launch's `W.spec` table), the pointer value and static pointer info of each
 * global, the per-lane private memory layout of private-class globals, and which globals the code
 * uses (only those must be bound).
 *
 * Invariants: private memory starts with the 32-byte hit attribute area at offset 0 (every
 * hitAttribute global aliases it, as in Vulkan), followed by the other private-class globals at
 * 8-byte aligned offsets; `privateGlobalBytes` is where call frames start.
 */
import type { FloatModel } from './float-model.js';
import { isRtStateStorage, RT_STATE_ALLOC_BYTES, vulkanSimBlocks } from './rt-state-storage.js';
import type { ValueId } from '../../ir/inst.js';
import { operands } from '../../ir/inst.js';
import type { Constant, Global, Module } from '../../ir/module.js';
import { typeOf, type StorageClass, type TypeId } from '../../ir/types.js';
import type { PtrInfo } from './emit-context.js';
import { numLit } from './emit-context.js';
import { LayoutTable, PRIVATE_BASE, alignUp } from './layout.js';
import { SimError } from './errors.js';

export const HIT_ATTRIBUTE_BYTES = 32;

const PRIVATE_CLASSES: ReadonlySet<StorageClass> = new Set<StorageClass>([
  'private', 'function', 'rayPayload', 'incomingRayPayload', 'hitAttribute', 'callableData', 'incomingCallableData', 'output',
]);

export function isPrivateClass(s: StorageClass): boolean {
  return PRIVATE_CLASSES.has(s);
}

export class ModuleStatics {
  readonly layout: LayoutTable;
  private readonly constById = new Map<ValueId, { c: Constant; index: number }>();
  private readonly globalById = new Map<ValueId, { g: Global; index: number }>();
  private readonly leafCache = new Map<ValueId, string[]>();
  /** Byte offset in private memory of each private-class global, by global position. */
  readonly privateOffset = new Map<number, number>();
  readonly privateGlobalBytes: number;
  /** Per 256-byte block of private memory, the block of Vulkan-Sim's per-thread allocation it stands for (`vulkanSimBlocks`). */
  readonly rtStateBlocks: Int32Array;
  /** Byte offset of each workgroup (shared) global in its workgroup's region, by global position. */
  readonly workgroupOffset = new Map<number, number>();
  readonly workgroupBytes: number;
  readonly usedGlobals = new Set<number>();
  /** Positions in `Module.constants` of spec constants (W.spec is indexed by constant position). */
  readonly specConstants: { index: number; specId: number; value: number }[] = [];

  constructor(readonly m: Module, readonly floatModel: FloatModel = 'ieee') {
    this.layout = new LayoutTable(m.types);
    m.constants.forEach((c, index) => {
      this.constById.set(c.id, { c, index });
      if (c.specId !== undefined && c.parts === undefined) {
        this.specConstants.push({ index, specId: c.specId, value: typeof c.value === 'boolean' ? (c.value ? 1 : 0) : Number(c.value ?? 0) });
      }
    });
    let off = HIT_ATTRIBUTE_BYTES;
    let wg = 0;
    m.globals.forEach((g, index) => {
      this.globalById.set(g.id, { g, index });
      if (g.storage === 'workgroup') {
        wg = alignUp(wg, 16);
        this.workgroupOffset.set(index, wg);
        wg += Math.max(4, this.layout.sizeOf(this.pointee(g)));
        return;
      }
      if (!isPrivateClass(g.storage)) return;
      if (g.storage === 'hitAttribute') {
        this.privateOffset.set(index, 0);
        return;
      }
      const pointee = this.pointee(g);
      off = alignUp(off, isRtStateStorage(g.storage) ? RT_STATE_ALLOC_BYTES : 8);
      this.privateOffset.set(index, off);
      off += Math.max(4, this.layout.sizeOf(pointee));
    });
    this.privateGlobalBytes = alignUp(off, 8);
    this.rtStateBlocks = vulkanSimBlocks(
      m.globals.flatMap((g, index) => {
        const offset = this.privateOffset.get(index);
        if (offset === undefined || !isRtStateStorage(g.storage) || g.storage === 'hitAttribute') return [];
        return [{ name: g.name, offset, bytes: Math.max(4, this.layout.sizeOf(this.pointee(g))) }];
      }),
      this.privateGlobalBytes,
    );
    this.workgroupBytes = alignUp(wg, 16);
    for (const f of m.functions) {
      for (const b of f.blocks) {
        for (const inst of b.insts) {
          for (const v of operands(inst)) {
            const g = this.globalById.get(v);
            if (g) this.usedGlobals.add(g.index);
          }
        }
      }
    }
  }

  private pointee(g: Global): TypeId {
    const t = typeOf(this.m.types, g.type);
    return t.kind === 'pointer' ? t.pointee : g.type;
  }

  valueType(v: ValueId): TypeId | undefined {
    return this.constById.get(v)?.c.type ?? this.globalById.get(v)?.g.type;
  }

  isGlobal(v: ValueId): boolean {
    return this.globalById.has(v);
  }

  /** Whether v is a workgroup (shared) global. */
  isWorkgroupGlobal(v: ValueId): boolean {
    const e = this.globalById.get(v);
    return e !== undefined && this.workgroupOffset.has(e.index);
  }

  globals(): { g: Global; index: number }[] {
    return [...this.globalById.values()];
  }

  /** JS literal leaves of a constant, or undefined when v is not a constant. */
  constantLeaves(v: ValueId): string[] | undefined {
    const cached = this.leafCache.get(v);
    if (cached) return cached;
    const e = this.constById.get(v);
    if (!e) return undefined;
    const { c, index } = e;
    const kinds = this.layout.leavesOf(c.type);
    let out: string[];
    if (c.parts) {
      out = [];
      for (const p of c.parts) {
        const pl = this.constantLeaves(p);
        if (!pl) throw new SimError('internal', `constant %${c.id} has a non-constant part %${p}`);
        out.push(...pl);
      }
    } else if (c.specId !== undefined) {
      out = [`SC[${index}]`];
    } else if (c.value === null) {
      out = kinds.map((k) => (k === 'bool' ? 'false' : '0'));
    } else {
      const k = kinds[0];
      const val = c.value;
      if (typeof val === 'boolean') out = [String(val)];
      else {
        const n = Number(val);
        out = [numLit(k === 'f32' ? Math.fround(n) : k === 'i32' ? n | 0 : k === 'u32' ? n >>> 0 : n)];
      }
    }
    this.leafCache.set(v, out);
    return out;
  }

  /** Numeric leaves of a constant (spec constants at their defaults), for initialising private memory. */
  constantNumbers(v: ValueId, spec: ArrayLike<number>): number[] {
    const leaves = this.constantLeaves(v);
    if (!leaves) throw new SimError('internal', `%${v} is not a constant`);
    return leaves.map((s) => {
      const m = /^SC\[(\d+)\]$/.exec(s);
      if (m) return spec[Number(m[1])] ?? 0;
      if (s === 'true') return 1;
      if (s === 'false') return 0;
      return Number(s.replace(/[()]/g, ''));
    });
  }

  /** Scalar numeric value of a non-spec constant (struct indices, constant array indices). */
  constantValue(v: ValueId): number | boolean | undefined {
    const e = this.constById.get(v);
    if (!e || e.c.specId !== undefined || e.c.parts) return undefined;
    const val = e.c.value;
    if (val === null) return 0;
    if (typeof val === 'boolean') return val;
    return Number(val);
  }

  /** Expression of a global's pointer value (and the prelude binding it needs), or undefined. */
  globalPointer(v: ValueId): { expr: string; need?: [string, string] } | undefined {
    const e = this.globalById.get(v);
    if (!e) return undefined;
    const { g, index } = e;
    const po = this.privateOffset.get(index);
    if (po !== undefined) return { expr: numLit(PRIVATE_BASE + po) };
    const wo = this.workgroupOffset.get(index);
    if (wo !== undefined) return { expr: `(WGB + ${wo})`, need: ['WGB', 'W.wgRegion.base'] };
    const info = this.globalPtrInfo(v)!;
    if (info.base.kind === 'builtin' || info.base.kind === 'bufferArray') return { expr: '0' };
    if (g.storage === 'input') return { expr: '0' };
    return { expr: `GB${index}`, need: [`GB${index}`, `W.env.globalBase[${index}]`] };
  }

  /**
   * Whether global v is reached through a descriptor (a storage buffer, uniform block or shader
   * record, not workgroup memory): NIR's vulkan_resource_index and load_vulkan_descriptor.
   */
  isDescriptorBacked(v: ValueId): boolean {
    const base = this.globalPtrInfo(v)?.base;
    return base !== undefined && (base.kind === 'bufferArray' || (base.kind === 'shared' && base.workgroup !== true));
  }

  globalPtrInfo(v: ValueId): PtrInfo | undefined {
    const e = this.globalById.get(v);
    if (!e) return undefined;
    const { g, index } = e;
    const pointee = this.pointee(g);
    if (g.builtin) return { base: { kind: 'builtin', builtin: g.builtin, leaf: 0 }, pointee };
    if (this.privateOffset.has(index)) return { base: { kind: 'private', fnStorage: false, rtState: isRtStateStorage(g.storage) }, pointee };
    if (this.workgroupOffset.has(index)) return { base: { kind: 'shared', space: 'global', workgroup: true }, pointee };
    const pt = typeOf(this.m.types, pointee);
    switch (g.storage) {
      case 'storageBuffer':
      case 'uniform': {
        const space = g.storage === 'uniform' ? 'constant' : 'global';
        const isArray = (pt.kind === 'array' || pt.kind === 'runtimeArray') && typeOf(this.m.types, pt.elem).kind === 'struct';
        if (isArray) return { base: { kind: 'bufferArray', global: index, space }, pointee };
        return { base: { kind: 'shared', space, region: index }, pointee };
      }
      case 'pushConstant':
        return { base: { kind: 'shared', space: 'constant', region: index }, pointee };
      case 'shaderRecordBuffer':
        return { base: { kind: 'shared', space: 'global', region: index }, pointee };
      case 'uniformConstant': {
        let et = pt;
        if (pt.kind === 'array' || pt.kind === 'runtimeArray') et = typeOf(this.m.types, pt.elem);
        const table = et.kind === 'accelerationStructure' ? 'accels' : et.kind === 'sampler' ? 'samplers' : 'images';
        return { base: { kind: 'handle', table, global: index }, pointee };
      }
      case 'input':
        throw new SimError('unsupported', `input variable '${g.name}' has no built-in decoration`);
      default:
        return { base: { kind: 'generic' }, pointee };
    }
  }
}
