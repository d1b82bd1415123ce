import test from 'ava';
import { DeviceHeap, GPU_MALLOC_ALIGN } from '../../../src/sim/timing/device-heap.js';

test('gpu_malloc rounds every allocation up to 256 bytes: 32-byte hit stores get consecutive blocks', (t) => {
  const heap = new DeviceHeap(1 << 20);
  const a = [heap.malloc(32), heap.malloc(32), heap.malloc(300), heap.malloc(32)];
  t.deepEqual(a.map((x) => x - (1 << 20)), [0, 256, 512, 1024]);
  for (const x of a) t.is(x % GPU_MALLOC_ALIGN, 0);
});

test('a misaligned heap base is refused', (t) => {
  t.throws(() => new DeviceHeap(100), { message: /256-byte aligned/ });
});
