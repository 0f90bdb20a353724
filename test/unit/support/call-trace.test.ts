import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderOf, reentries, type Stop, stopsOf, walkOf } from '../../support/call-trace.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const stop = (file: string, fn: string): Stop => ({ file, fn, folder: folderOf(file) });
const handler = stop('src/bot/betting/handlers/slip.ts', 'slipConfirm');
const gate = stop('src/bot/betting/handlers/bet-gate.ts', 'checkBettable');
const settings = stop('src/bot/settings/guild-settings.ts', 'getSettings');
const confirm = stop('src/bot/betting/placement.ts', 'Placement.confirm');
const place = stop('src/gateway/resources/bets.ts', 'Bets.place');

describe('call traces', () => {
  it("names the house's folders: src/bot's rooms, the library as one, commands/", () => {
    const files = [
      'src/bot/betting/handlers/slip.ts',
      'src/bot/index.ts',
      'src/gateway/internal/transport.ts',
      'commands/bet.ts',
    ];
    expect(files.map(folderOf)).toEqual(['src/bot/betting/handlers', 'src/bot', 'src/gateway', 'commands']);
  });

  it("keeps the project's frames of a stack, outermost first, from the sources or the transpiled copy", () => {
    const stack = [
      'Error',
      `    at Bets.place (file://${ROOT}node_modules/.cache/desk-bot-js-AbC123/src/gateway/resources/bets.js:16:21)`,
      `    at Agent.dispatch (${ROOT}node_modules/undici/lib/dispatcher/dispatcher-base.js:183:29)`,
      `    at async Object.slipConfirm [as handle] (${ROOT}src/bot/betting/handlers/slip.ts:41:18)`,
      `    at ${ROOT}test/e2e/some.test.ts:3:4`,
    ].join('\n');
    expect(stopsOf(stack)).toEqual([handler, place]);
  });

  it('walks from one stack to the next through the frame they share', () => {
    expect(
      walkOf([
        [handler, gate, settings],
        [handler, confirm, place],
      ]),
    ).toEqual([
      { move: 'call', stop: handler },
      { move: 'call', stop: gate },
      { move: 'call', stop: settings },
      { move: 'return', stop: handler },
      { move: 'call', stop: confirm },
      { move: 'call', stop: place },
    ]);
  });

  it('finds a step into a folder the walk had left, unless it is the one allowed', () => {
    const steps = walkOf([
      [handler, gate, settings],
      [handler, confirm, gate, place],
    ]);
    const handBack = steps[3];
    expect(reentries(steps, handBack).map((s) => s.stop)).toEqual([gate]);
  });
});
