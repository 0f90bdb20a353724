import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that start a whole desk (sandbox, local Discord, the bot) or several bot processes: the long ones. */
const DESK_FILES = [/^test\/multi\//, /^test\/chaos\//, /^test\/e2e\//, /^test\/integration\/bot\//];
/** Files that start bot child processes (each loads the bot under tsx: seconds of CPU before it is ready). */
const CHILD_PROCESS_FILES = [/^test\/multi\//, /^test\/chaos\//];
/** Files whose beforeAll compiles or installs (tsc over the project, npm pack and install): a minute or so. */
const BUILD_FILES = [/^test\/integration\/build\//, /^test\/integration\/client\/package-consumer\.test\.ts$/];

/**
 * Each file's test time in whole seconds from a full run on two quiet cores (`node scripts/test-durations.mjs`
 * writes it): the order a fresh clone, which has no results cache, runs the files in.
 */
function recordedDurations(root: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(join(root, 'test', 'durations.json'), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Runs the longest files first, across both projects, so the run does not end on one long file while the other
 * workers sit idle. "Longest" is the file's test time in the last run here (vitest's results cache; it leaves out
 * the file's beforeAll, so a build adds a minute), else in `test/durations.json`; a file in neither is guessed:
 * 20 s when it starts a desk, else by its size.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const recorded = recordedDurations(config.root);
    // `--sequence.shuffle [--sequence.seed N]`: the files (and each file's tests) in a seeded random order, to prove
    // no file depends on what ran before it in its worker (decision 1880). `TEST_FILE_SEED=N` shuffles the files
    // only: the end-to-end files' tests build on each other in order, their files must not (decision 1943).
    const fileSeed = process.env.TEST_FILE_SEED;
    if (fileSeed !== undefined) return seededShuffle(files, Number(fileSeed) || 1);
    if (config.sequence.shuffle) return seededShuffle(files, config.sequence.seed ?? 1);
    const estimate = (spec: TestSpecification): number => {
      const path = relative(config.root, spec.moduleId);
      const key = `${spec.project.name}:${path}`;
      const setup = BUILD_FILES.some((file) => file.test(path)) ? 60_000 : 0;
      const last = cache.getFileTestResults(key);
      if (last) return setup + last.duration;
      const seconds = recorded[key];
      if (seconds !== undefined) return setup + seconds * 1000;
      const guess = DESK_FILES.some((dir) => dir.test(path)) ? 20_000 : 0;
      return setup + guess + (cache.getFileStats(key)?.size ?? 0) / 10;
    };
    const ms = new Map(files.map((f) => [f, estimate(f)]));
    const longestFirst = [...files].sort((a, b) => (ms.get(b) ?? 0) - (ms.get(a) ?? 0));
    return spaceOut(longestFirst, (f) =>
      CHILD_PROCESS_FILES.some((dir) => dir.test(relative(config.root, f.moduleId))),
    );
  }
}

/**
 * Keeps two `heavy` files at least three places apart (a heavy file waits while the two before it include one),
 * so with three workers the bot child processes of two files rarely start at the same moment.
 */
function spaceOut<T>(ordered: T[], heavy: (item: T) => boolean): T[] {
  const out: T[] = [];
  const waiting: T[] = [];
  const recentHeavy = () => out.slice(-2).some(heavy);
  for (const item of ordered) {
    if (waiting.length > 0 && !recentHeavy()) out.push(waiting.shift() as T);
    if (heavy(item) && recentHeavy()) waiting.push(item);
    else if (heavy(item) && waiting.length > 0) {
      waiting.push(item);
      out.push(waiting.shift() as T);
    } else out.push(item);
  }
  return [...out, ...waiting];
}

/** Fisher–Yates with a small seeded generator (mulberry32): the same seed, the same order. */
function seededShuffle<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
