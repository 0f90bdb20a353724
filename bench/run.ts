// `npm run bench`: runs every figure side by side in one process, prints the table, writes bench/results.json.
// `npm run bench -- --only 1,3` runs a subset (results.json is then not rewritten).
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { type FigureResult, notMeasured } from './lib/figure.js';
import { formatTable } from './lib/table.js';
import { FIGURES } from './registry.js';

function onlyIds(argv: string[]): Set<number> | undefined {
  const i = argv.indexOf('--only');
  const raw = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  if (raw === undefined) return undefined;
  const ids = raw.split(',').map((s) => Number(s.trim()));
  if (ids.some((n) => !Number.isInteger(n))) {
    console.error(`--only takes figure numbers separated by commas, e.g. --only 1,3 (got "${raw}")`);
    process.exit(2);
  }
  return new Set(ids);
}

async function main(): Promise<void> {
  const only = onlyIds(process.argv.slice(2));
  const started = performance.now();
  const results: FigureResult[] = [];
  for (const spec of FIGURES) {
    if (only && !only.has(spec.id)) continue;
    const t0 = performance.now();
    process.stderr.write(`figure ${spec.id} ... `);
    try {
      results.push(...(await spec.run()));
      process.stderr.write(`${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      process.stderr.write(`failed: ${why}\n`);
      for (const row of spec.rows) results.push(notMeasured(row.name, row.unit, row.target, why));
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(formatTable(results));
  console.log(
    `\n${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${availableParallelism()} cores, ${seconds.toFixed(0)} s`,
  );
  if (!only) {
    const out = new URL('./results.json', import.meta.url);
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`wrote ${out.pathname}`);
  }
  // Servers and clients are closed by each figure; exit in case a library keeps a handle open.
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
