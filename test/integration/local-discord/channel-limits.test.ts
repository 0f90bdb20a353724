// Discord's limit on a channel's new messages (5 per 5 s) and its enforce_nonce memory, as the double answers them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restPoster } from '../../../src/bot/discord/poster.js';
import { type Harness, startHarness } from './harness.js';

describe("the local Discord's per-channel message limit and nonce window", () => {
  let h: Harness;
  let clock = Date.parse('2026-03-01T12:00:00Z');
  beforeAll(async () => {
    h = await startHarness({ now: () => clock });
  });
  afterAll(async () => {
    await h?.close();
  });

  const post = (channelId: string, body: Record<string, unknown>) =>
    fetch(`${h.ld.apiUrl}/v10/channels/${channelId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bot ${h.ld.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it("answers the sixth create in 5 s with Discord's 429, headers and body; another channel is not limited", async () => {
    const channel = h.ld.channelIds.bets;
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await post(channel, { content: `raw ${i}` }));
    expect(answers.slice(0, 5).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.slice(0, 5).map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0']);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('5');
    expect(Number(answers[0]!.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(4);
    const limited = answers[5]!;
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(5);
    expect(limited.headers.get('x-ratelimit-scope')).toBe('user');
    expect(limited.headers.get('x-ratelimit-bucket')).toBe(answers[0]!.headers.get('x-ratelimit-bucket'));
    const body = (await limited.json()) as { message: string; retry_after: number; global: boolean };
    expect(body).toMatchObject({ message: 'You are being rate limited.', global: false });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(5);
    expect(h.ld.messages(channel).filter((m) => m.content.startsWith('raw '))).toHaveLength(5);
    expect(h.ld.postCounts(channel)).toEqual({ created: 5, limited: 1, nonceRepeats: 0 });
    expect((await post(h.ld.channelIds.results, { content: 'elsewhere' })).status).toBe(200);
  });

  it('lets discord.js post seven messages to one channel at once: five now, the rest after the reset, each once', async () => {
    // A DM channel of its own: a bucket no other test here has used.
    const channel = await (await h.client.users.fetch(h.ld.users.bettor.id)).createDM();
    const at = new Map<string, number>();
    h.ld.events.on('messageCreate', (e) => at.set(e.message.content, performance.now()));
    const start = performance.now();
    await Promise.all(Array.from({ length: 7 }, (_, i) => channel.send({ content: `burst ${i}` })));
    const posted = h.ld.messages(channel.id).filter((m) => m.content.startsWith('burst '));
    expect(posted.map((m) => m.content).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `burst ${i}`));
    const times = [...at.entries()].filter(([c]) => c.startsWith('burst ')).map(([, t]) => t - start);
    times.sort((a, b) => a - b);
    expect(times[4]!).toBeLessThan(2_000);
    expect(times[5]!).toBeGreaterThan(4_500);
  }, 20_000);

  it('answers a repeated enforce_nonce create with the first message inside the window, and makes a new one after', async () => {
    const channel = h.ld.channelIds.results;
    const body = { content: 'once', nonce: 'n-window-1', enforce_nonce: true };
    const first = (await (await post(channel, body)).json()) as { id: string };
    clock += 2 * 60_000 - 1;
    const again = (await (await post(channel, body)).json()) as { id: string };
    expect(again.id).toBe(first.id);
    expect(h.ld.messages(channel).filter((m) => m.content === 'once')).toHaveLength(1);
    clock += 1;
    const late = (await (await post(channel, body)).json()) as { id: string };
    expect(late.id).not.toBe(first.id);
    expect(h.ld.messages(channel).filter((m) => m.content === 'once')).toHaveLength(2);
    // The first test's one message here, then the two this test made.
    expect(h.ld.postCounts(channel)).toMatchObject({ created: 3, nonceRepeats: 1 });
  });

  it("reads a channel back after a time for the bot's own post of a view (an unsure create's read-back)", async () => {
    const poster = restPoster(h.client);
    const channel = (await (await h.client.users.fetch(h.ld.users.bettor.id)).createDM()).id;
    const shown = (content: string) => ({
      content,
      embeds: [{ title: 'Settled', description: content }],
      components: [],
    });
    // The double's clock is the one its message ids carry (the bot's agrees with Discord's in production).
    const since = clock;
    const id = await poster.post(channel, shown('bet 7 won'), 'readback-7');
    expect(await poster.findPosted!(channel, shown('bet 7 won'), since)).toBe(id);
    expect(await poster.findPosted!(channel, shown('bet 8 won'), since)).toBeUndefined();
    // Only what came after the time (less the clock skew allowed) is read.
    expect(await poster.findPosted!(channel, shown('bet 7 won'), clock + 3 * 60_000)).toBeUndefined();
  });
});
