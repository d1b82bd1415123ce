// Writes chain.obj for the rtnode microbenchmark: N right triangles in a row along x, triangle i
// spanning x in [i, i + 0.9], y in [0, 0.9], z in [0, 0.2]. The rays of raygen.rgen go down -z
// through (i + 0.5, 0.7): inside triangle i's box (and so inside one child box per BVH level,
// boxes of different triangles being 0.1 apart in x), but outside the triangle (u + v = 1.33), so
// each ray fetches one fixed chain of nodes root -> leaf and misses (no hit store, no hit shader).
// Usage: node gen-chain.mjs N > chain.obj
const n = Number(process.argv[2] ?? 1296);
const out = [`# rtnode microbenchmark: ${n} triangles in a row (gen-chain.mjs ${n})`];
for (let i = 0; i < n; i++) out.push(`v ${i} 0 0`, `v ${i + 0.9} 0 0.1`, `v ${i} 0.9 0.2`);
for (let i = 0; i < n; i++) out.push(`f ${3 * i + 1} ${3 * i + 2} ${3 * i + 3}`);
process.stdout.write(out.join('\n') + '\n');
