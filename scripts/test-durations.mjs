#!/usr/bin/env node
// Writes test/durations.json from vitest's results cache of the last `npm test` here: each file's test time in
// whole seconds, the order a fresh clone (no cache) runs the suite's files in (test/support/longest-first.ts).
// Run it after a full `npm test` on a quiet machine when files were added or moved much.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const cacheDir = join(root, 'node_modules', '.vite', 'vitest');
const caches = readdirSync(cacheDir).map((d) => join(cacheDir, d, 'results.json'));
const results = new Map();
for (const file of caches) {
  for (const [key, { duration }] of JSON.parse(readFileSync(file, 'utf8')).results) {
    if (key.startsWith(':') || typeof duration !== 'number') continue;
    results.set(key, Math.max(1, Math.round(duration / 1000)));
  }
}
const sorted = Object.fromEntries([...results].sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(join(root, 'test', 'durations.json'), `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`test/durations.json: ${results.size} files`);
