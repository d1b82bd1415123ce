/**
 * The host's address plan for named buffers: where each buffer a manifest names (a `buffers`
 * entry or a descriptor's `id`) lives in the simulated address space, and the resolution of
 * `{"addressOf": name, "offset": n, "element": k}` values to 64-bit device addresses.
 *
 * Buffers are placed in manifest order before any address is final, so a value may name a buffer
 * placed after it: the host packs such values twice — once to learn their size (addresses read
 * as 0), and again with every address known (`repackAll`). Invariant: after `repackAll`, every
 * packed byte holds the final address; sizes never change between the two packings.
 */
import { LayoutPackError } from '../workload/pack-layout.js';
import type { AddressOf } from '../workload/manifest.js';

export function isAddressOf(v: unknown): v is AddressOf {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { addressOf?: unknown }).addressOf === 'string';
}

interface Placed {
  address: number;
  /** Element stride in bytes; 0 when unknown (raw data). */
  stride: number;
}

export class AddressPlan {
  private readonly placed = new Map<string, Placed>();
  private final = false;
  private used = false;
  private readonly repacks: { data: Uint8Array; pack: () => Uint8Array; path: string }[] = [];

  place(name: string, address: number, stride: number): void {
    this.placed.set(name, { address, stride });
  }

  address(name: string): Placed | undefined {
    return this.placed.get(name);
  }

  /** For `PackOptions.resolveAddress`: an AddressOf value -> its address (0 before the plan is final). */
  readonly resolve = (value: unknown, path: string): bigint | undefined => {
    if (!isAddressOf(value)) return undefined;
    this.used = true;
    const at = this.placed.get(value.addressOf);
    if (!at) {
      if (!this.final) return 0n;
      throw new LayoutPackError(path, `no buffer named "${value.addressOf}" (buffers: ${[...this.placed.keys()].join(', ') || 'none'})`);
    }
    const element = value.element ?? 0;
    if (element !== 0 && at.stride === 0) {
      throw new LayoutPackError(path, `"element" needs the element size of "${value.addressOf}", which is not known (its data is raw bytes); use "offset"`);
    }
    return BigInt(at.address + (value.offset ?? 0) + element * at.stride);
  };

  /**
   * Runs `pack`; when it resolved any address before the plan was final, remembers it so
   * `repackAll` writes the final addresses into the same bytes.
   */
  packed(pack: () => Uint8Array, path: string, always = false): Uint8Array {
    this.used = false;
    const data = pack();
    if ((this.used || always) && !this.final) this.repacks.push({ data, pack, path });
    return data;
  }

  /** Every buffer is placed: pack again the values that held addresses. */
  repackAll(): void {
    this.final = true;
    for (const r of this.repacks) {
      const again = r.pack();
      if (again.byteLength !== r.data.byteLength) throw new Error(`${r.path}: size changed between packings (${r.data.byteLength} -> ${again.byteLength})`);
      r.data.set(again);
    }
    this.repacks.length = 0;
  }
}
