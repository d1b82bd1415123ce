import test from 'ava';
import { csv, vvisionDataFiles } from '../../src/analytics/vvision-data-files.js';
import { readDump } from '../../src/analytics/dump-reader.js';
import { simtEfficiency } from '../../src/analytics/simt-efficiency.js';
import { hotspots, opcodeCounts } from '../../src/analytics/hotspots.js';
import { threadCompaction } from '../../src/analytics/thread-compaction.js';
import { threadPaths } from '../../src/analytics/thread-paths.js';
import { distribution } from '../../src/analytics/lifetimes.js';
import { bounceLoopDump, DumpWriter, FixtureMeta, FULL, lanes } from './dump-fixture.js';

test('csv quotes fields that need it', (t) => {
  t.is(csv(['a', 'b'], [['x,y', 'say "hi"'], [1, 0.5]]), 'a,b\n"x,y","say ""hi"""\n1,0.5\n');
});

test('only the files whose analyses ran, with V-Vision names, plus summary.json', (t) => {
  const f = new FixtureMeta();
  const rg = f.shader('raygen', 'rg.rgen');
  const a = f.site({ kind: 'block', shader: rg, opcodes: ['binary.add', 'return'], lines: [4, 5] });
  const w = new DumpWriter(f.meta);
  w.warpBallot(0, FULL, a);
  w.warpBallot(0, lanes(0, 16), a);
  const dump = readDump(w.bytes(), f.meta);
  const paths = bounceLoopDump([(l) => l % 2]);
  const files = vvisionDataFiles({
    workload: 'unit',
    simt: simtEfficiency(dump, f.meta),
    hotspots: hotspots(dump, f.meta),
    opcodes: opcodeCounts(dump, f.meta),
    compaction: threadCompaction(readDump(paths.words, paths.meta), paths.meta),
  });
  t.deepEqual(Object.keys(files).sort(), ['dyn_opcode_counts.csv', 'hotspots.csv', 'simt_efficiency.csv', 'summary.json', 'thread_compaction.csv']);
  t.is(files['simt_efficiency.csv']!.split('\n')[1], 'pipeline,all,,2,48,0.75,4,96,0.75');
  t.is(files['dyn_opcode_counts.csv'], 'opcode,thread_count,warp_count\nbinary.add,48,2\nreturn,48,2\n');
  t.is(files['thread_compaction.csv']!.split('\n')[1], '1,1,1,0');
  const summary = JSON.parse(files['summary.json']!);
  t.is(summary.workload, 'unit');
  t.is(summary.simtEfficiency, 0.75);
  t.deepEqual(summary.hottest, { shader: 'rg.rgen', line: 4, opcode: 'binary.add', threadCount: 48 });
});

test('thread paths and lifetimes files', (t) => {
  const paths = bounceLoopDump([(l) => l % 2]);
  const files = vvisionDataFiles({
    paths: threadPaths(readDump(paths.words, paths.meta), paths.meta),
    lifetimes: {
      thread: distribution([3, 3, 5]),
      warp: distribution([7]),
      threadBlocks: new Uint32Array([3, 3, 5]),
      warpBlocks: new Uint32Array([7]),
    },
  });
  t.is(files['thread_paths.csv'], 'rank,path,threads,fraction,unique_paths,total_threads\n1,,16,0.5,2,32\n2,1,16,0.5,2,32\n');
  t.is(files['lifetimes.csv'], 'scope,basic_blocks,count,normalized\nthread,3,2,1\nthread,5,1,0.5\nwarp,7,1,1\n');
});
