// First, as in the bot (the gateway client loads before discord.js sends anything): undici 7's Agent becomes the
// global dispatcher that discord.js's own undici then uses.
import 'undici';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DefaultRestOptions, REST } from 'discord.js';
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

  it('answers discord.js with the JSON body its content type names', async () => {
    const rest = new REST({ api: url.replace('/upload', ''), makeRequest }).setToken('x');
    expect(await rest.post('/upload', { body: { content: 'hi' } })).toEqual({});
    expect(seen.at(-1)?.body).toBe('{"content":"hi"}');
  });

  it('names the answer’s headers to discord.js: a 429 is waited out for its Retry-After, then sent again', async () => {
    const times: number[] = [];
    const limited = createServer((_req, res) => {
      times.push(performance.now());
      if (times.length === 1) {
        res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': '0.3', 'x-ratelimit-scope': 'user' })
          .end('{"message":"You are being rate limited.","retry_after":0.3,"global":false}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => limited.listen(0, '127.0.0.1', r));
    try {
      const api = `http://127.0.0.1:${(limited.address() as AddressInfo).port}`;
      const rest = new REST({ api, makeRequest, offset: 0 }).setToken('x');
      expect(await rest.get('/things')).toEqual({ ok: true });
      expect(times).toHaveLength(2);
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(250);
    } finally {
      await new Promise<void>((r) => limited.close(() => r()));
    }
  });

  it('is needed: discord.js’s own request fails on the form once undici 7 is the global dispatcher', async () => {
    await expect(DefaultRestOptions.makeRequest(url, { method: 'POST', headers: {}, body: form() })).rejects.toThrow(
      /action is not a function/,
    );
  });
});
