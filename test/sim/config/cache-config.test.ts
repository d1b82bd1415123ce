import test from 'ava';
import { cacheBytes, parseCacheConfig } from '../../../src/sim/config/cache-config.js';
import { ConfigError } from '../../../src/sim/config/config-error.js';

test('reads a GPGPU-Sim 4 sectored cache string', (t) => {
  const g = parseCacheConfig('S:4:128:64,L:T:m:L:L,A:512:8,16:0,32', 'gpgpu_cache:dl1');
  t.true(g.sectored);
  t.is(g.sets, 4);
  t.is(g.lineBytes, 128);
  t.is(g.ways, 64);
  t.is(g.write, 'writeThrough');
  t.is(g.writeAlloc, 'lazyFetchOnRead');
  t.is(g.mshrEntries, 512);
  t.is(g.mshrMaxMerge, 8);
  t.is(g.missQueue, 16);
  t.is(cacheBytes(g), 32 * 1024);
});

test('reads a GPGPU-Sim 3.x string without the sector letter or set-index field', (t) => {
  const g = parseCacheConfig('32:128:4,L:L:m:N,A:32:8,8', 'gpgpu_cache:dl1');
  t.false(g.sectored);
  t.is(cacheBytes(g), 16 * 1024);
  t.is(g.write, 'localWriteBack');
});

test('bad strings name the key and the problem', (t) => {
  const e = t.throws(() => parseCacheConfig('N:64:100:4,L:B:m:N:L,A:8:4,4', 'gpgpu_cache:dl2'), { instanceOf: ConfigError });
  t.regex(e!.message, /gpgpu_cache:dl2.*power of two/);
  const e2 = t.throws(() => parseCacheConfig('N:64:128:4,Q:B:m:N:L,A:8:4,4', 'gpgpu_cache:dl2'), { instanceOf: ConfigError });
  t.regex(e2!.message, /replacement policy "Q"/);
});
