import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Desk, startDesk } from '../support/harness.js';

const DAY = 86_400_000;

/** The event list a suggestion reads is kept per window of days: moving the clock a day leaves it cold. */
describe('event suggestions after the clock moves to a new day', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await startDesk({ sandboxClock: true });
  }, 60_000);
  afterAll(() => desk?.close());

  it('answers the first ask with events, waiting for them to load instead of answering nothing', async () => {
    await desk.advance(DAY);
    const { ld } = desk;
    const choices = (await ld.autocomplete({
      user: ld.users.bettor,
      channelId: ld.channelIds.bets,
      name: 'exposure',
      options: { event: '' },
      focused: 'event',
    })) as Array<{ name: string; value: string }>;
    expect(choices.length).toBeGreaterThan(0);
  });
});
