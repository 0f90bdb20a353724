// First, as in the bot (the gateway client loads before discord.js sends anything): undici 7's Agent becomes the
// global dispatcher that discord.js's own undici then uses.
import 'undici';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DefaultRestOptions } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRequest } from '../../../src/bot/discord/discord-rest.js';

type Init = Parameters<typeof makeRequest>[1];

describe('the bot’s discord.js request function', () => {
  let url: string;
  const seen: { type: string; body: string }[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.push({ type: req.headers['content-type'] ?? '', body: Buffer.concat(chunks).toString('latin1') });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  /** What discord.js hands its request function for a message with a file (the runtime's FormData). */
  const form = () => {
    const f = new FormData();
    f.append('payload_json', JSON.stringify({ content: 'chart' }));
    f.append('files[0]', new Blob([Buffer.from('png-bytes')], { type: 'image/png' }), 'stats.png');
    return f as unknown as Init['body'];
  };

  it('sends a message with files as multipart bytes with the form’s boundary', async () => {
    const res = await makeRequest(url, { method: 'POST', headers: { Authorization: 'Bot x' }, body: form() });
    expect(res.status).toBe(200);
    const last = seen.at(-1)!;
    const boundary = /boundary=(.+)$/.exec(last.type)?.[1];
    expect(last.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(last.body).toContain(`--${boundary}`);
    expect(last.body).toContain('filename="stats.png"');
    expect(last.body).toContain('png-bytes');
    expect(last.body).toContain('{"content":"chart"}');
  });

  it('is needed: discord.js’s own request fails on the form once undici 7 is the global dispatcher', async () => {
    await expect(DefaultRestOptions.makeRequest(url, { method: 'POST', headers: {}, body: form() })).rejects.toThrow(
      /action is not a function/,
    );
  });
});
