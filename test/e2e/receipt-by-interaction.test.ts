// A bet confirmed by its button has its "submitted" and receipt edits sent with the Confirm interaction's token
// (decision 2030): the interaction's webhook, outside the bot token's REST queue and global limit. A token Discord
// refuses sends the edit through the bot token instead.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';

let desk: Desk;

beforeAll(async () => {
  desk = await startDesk({ webhooks: true });
});
afterAll(async () => {
  desk?.ld.faults.clear();
  await desk?.close();
});

describe('the receipt of a bet confirmed by its button', () => {
  it('reaches the slip while the bot token cannot edit it', async () => {
    const sel = await pickEvent(desk, 'nba');
    const trail = newTrail();
    const { slip } = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake: 3 });
    desk.ld.faults.inject({
      method: 'PATCH',
      path: `/channels/${slip.channel_id}/messages/${slip.id}`,
      status: 500,
      times: Number.POSITIVE_INFINITY,
    });
    try {
      await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
      await messageMatching(desk, slip, /Bet placed|Bet not placed/, 20_000);
    } finally {
      desk.ld.faults.clear();
    }
  });

  it('reaches the slip through the bot token when Discord refuses the interaction token', async () => {
    const sel = await pickEvent(desk, 'nba', 1);
    const trail = newTrail();
    const { slip } = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake: 4 });
    // Every edit by an interaction's token is refused as an expired token would be; the slip's own reply is sent
    // before this, so only the Confirm's token meets it.
    desk.ld.faults.inject({
      method: 'PATCH',
      path: /^\/webhooks\/\d+\/[^/]+\/messages\/@original$/,
      status: 401,
      times: Number.POSITIVE_INFINITY,
    });
    try {
      await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
      await messageMatching(desk, slip, /Bet placed|Bet not placed/, 20_000);
    } finally {
      desk.ld.faults.clear();
    }
  });
});
