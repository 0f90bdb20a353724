import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotChild, spawnReadyBot } from '../support/bot-child.js';
import { pickEvent } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { until } from '../support/wait.js';

const SPY = pathToFileURL(fileURLToPath(new URL('../support/intl-spy.mjs', import.meta.url))).href;

/** The ICU entry points a process called, each with the stack of its first call (intl-spy.mjs's lines). */
function intlCalls(child: BotChild): string[] {
  return [...child.stderr.join('').matchAll(/intl-spy: ([\s\S]*?)\nintl-spy-end/g)].map((m) => m[1]!);
}

/**
 * Issue 47, figure 7: a bare discord.js bot never pages in the node binary's ICU data (about 7 MB resident). A desk
 * in a UTC server starts, warms its caches and shows its first market card without calling any of ICU's entry
 * points, so ICU is loaded only when a member is first shown something that needs it (another zone, a sorted list).
 */
describe('a desk in UTC touches no Intl through its start and first card', () => {
  let desk: Desk;
  let child: BotChild | undefined;
  beforeAll(async () => {
    desk = await startDesk({ inProcessBot: false });
  }, 60_000);
  afterAll(async () => {
    await child?.stop();
    await desk?.close();
  });

  it('starts, warms the day\u2019s events and answers /markets with a card, with no ICU entry point called', async () => {
    const sel = await pickEvent(desk, 'nba');
    child = await spawnReadyBot(desk, { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${SPY}`.trim() });
    expect(child.stderr.join(''), 'the spy is loaded in the bot process').toContain('intl-spy-ready');
    const card = await desk.ld.sendCommand({
      user: desk.ld.users.viewer,
      channelId: desk.ld.channelIds.bets,
      name: 'markets',
      options: { event: sel.epk, bookie: sel.bookie },
    });
    await until('the first market card', () => card.responses().some((m) => (m.embeds?.length ?? 0) > 0), {
      timeoutMs: 20_000,
    });
    expect(intlCalls(child)).toEqual([]);
  }, 60_000);
});
