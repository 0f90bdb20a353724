// The desk collects its start's garbage once, when it is up: not in the first burst of interactions (issue 47).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { collectStartGarbage } from '../../../src/bot/ops/start-garbage.js';
import { TSX_LOADER } from '../../support/bot-child.js';
import { type Desk, startDesk } from '../../support/harness.js';
import { until } from '../../support/wait.js';

const run = promisify(execFile);
const PART_USED = fileURLToPath(new URL('../../support/part-used-pages.ts', import.meta.url));

let desk: Desk | undefined;
afterAll(() => desk?.close());

describe("the start's garbage", () => {
  it('is freed by one full collection, which leaves the process’s global without gc', () => {
    const hadGc = 'gc' in globalThis;
    const logger = { info: vi.fn(), warn: vi.fn() };
    // About 24 MB the next collection may free: nothing refers to it once made.
    let garbage: number[][] | undefined = Array.from({ length: 3_000 }, () =>
      Array.from({ length: 1_000 }, Math.random),
    );
    expect(garbage.length).toBe(3_000);
    garbage = undefined;
    collectStartGarbage(logger);
    expect(logger.warn).not.toHaveBeenCalled();
    const [, fields] = logger.info.mock.calls[0] as [string, { heapBeforeMb: number; heapAfterMb: number }];
    expect(fields.heapBeforeMb - fields.heapAfterMb).toBeGreaterThan(10);
    expect('gc' in globalThis).toBe(hadGc);
  });

  it('is collected with the old space compacted, and only that once (decision 2100)', async () => {
    const { stdout } = await run(process.execPath, ['--max-semi-space-size=4', '--import', TSX_LOADER, PART_USED]);
    const steps = JSON.parse(stdout) as { partUsedFree: number; afterStartFree: number; laterFree: number };
    const MB = 1_048_576;
    // Pages a third garbage keep their free space through a plain full collection...
    expect(steps.partUsedFree).toBeGreaterThan(6 * MB);
    // ...and the start's collection gives it back.
    expect(steps.afterStartFree).toBeLessThan(steps.partUsedFree - 5 * MB);
    // A later full collection is V8's own again: it leaves part-used pages where they are.
    expect(steps.laterFree).toBeGreaterThan(6 * MB);
  }, 30_000);

  it('is collected once by a desk that has started, once Discord says it is ready', async () => {
    desk = await startDesk();
    const said = () => desk?.logs.lines.filter((l) => l.includes("collected the start's garbage")) ?? [];
    await until('the collection after start', () => (said().length > 0 ? true : undefined), { timeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 500));
    expect(said()).toHaveLength(1);
  });
});
