// An edit through a press's interaction token is one plain undici PATCH (decisions 2030, 2137): it must wait for
// Discord no longer than discord.js's own requests do (the client's `rest.timeout`), not a fixed 15 s.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InteractionEdits, keepInteractionEdits } from '../../../src/bot/discord/interaction-edits.js';
import { restPoster } from '../../../src/bot/discord/poster.js';

describe('an edit through an interaction token', () => {
  const patches: string[] = [];
  // Takes each request and never answers it.
  const silent = createServer((req) => {
    patches.push(`${req.method} ${req.url}`);
  });
  let api: string;
  beforeAll(async () => {
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    api = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  it('gives up after the client’s REST timeout when Discord does not answer', async () => {
    const client = new Client({ intents: [], rest: { api, timeout: 300 } });
    const edits = new InteractionEdits();
    keepInteractionEdits(client, edits);
    edits.pressed('i1', 'm1', 'app1', 'tok1');
    edits.acknowledged('i1', 6);
    const started = performance.now();
    await expect(
      restPoster(client).edit('c1', 'm1', { content: 'placed', embeds: [], components: [] }),
    ).rejects.toThrow(/abort|timeout/i);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(patches).toEqual(['PATCH /api/v10/webhooks/app1/tok1/messages/@original']);
    await client.destroy();
  });
});
