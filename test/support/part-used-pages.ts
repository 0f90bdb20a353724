// Run in a fresh node process by start-garbage.test.ts (a test worker's heap makes its own compaction choices):
// leaves the old space's pages a third garbage, as a start does (too little for V8 to pick them for compaction), collects the start's garbage as the desk does,
// then makes such pages again and collects plainly. Prints the old space's free committed bytes at each step.
import { getHeapSpaceStatistics } from 'node:v8';
import { collectStartGarbage, fullCollection } from '../../src/bot/ops/start-garbage.js';

const gc = fullCollection();
const free = () => {
  const old = getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!;
  return old.space_size - old.space_used_size;
};
/** 450,000 objects moved to the old space, then 1 in 3 dropped: every page is left a third free. */
const partUsed = () => {
  const made = Array.from({ length: 450_000 }, (_, i) => ({ i, a: i + 1, b: i + 2 }));
  gc();
  gc();
  const kept = made.filter((_, i) => i % 3 !== 0);
  made.length = 0;
  gc();
  gc();
  return kept;
};

const kept = partUsed();
const partUsedFree = free();
collectStartGarbage({ info: () => {}, warn: (line) => console.error(line) });
const afterStartFree = free();
const later = partUsed();
const laterFree = free();
console.log(JSON.stringify({ partUsedFree, afterStartFree, laterFree, kept: kept.length + later.length }));
