// The REST front's body limit: Discord's 40005 answer, by declared length and by counted bytes alike.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../../src/local-discord/fixtures.js';
import { type LocalDiscord, startLocalDiscord } from '../../../src/local-discord/index.js';

const LIMIT = 26 * 1024 * 1024;
let ld: LocalDiscord;

beforeAll(async () => {
  ld = await startLocalDiscord({ port: 0 });
});
afterAll(async () => {
  await ld?.close();
});

/** POSTs `bytes` to the bets channel's messages, chunked (no Content-Length) or with it. */
function postMessage(bytes: Buffer, chunked: boolean): Promise<{ status?: number; body: unknown }> {
  const url = new URL(`${ld.apiUrl}/v10/channels/${FIXTURE_IDS.channels.bets}/messages`);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        authorization: `Bot ${ld.token}`,
        'content-type': 'application/json',
        ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': bytes.length }),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

describe('the local Discord REST body limit', () => {
  it('answers 413 with code 40005 when Content-Length is over 26 MiB', async () => {
    const answer = await postMessage(Buffer.alloc(LIMIT + 1, 0x20), false);
    expect(answer).toEqual({ status: 413, body: { code: 40005, message: 'Request entity too large' } });
  });

  it('answers 413 with code 40005 when a chunked body passes 26 MiB', async () => {
    const answer = await postMessage(Buffer.alloc(LIMIT + 1, 0x20), true);
    expect(answer).toEqual({ status: 413, body: { code: 40005, message: 'Request entity too large' } });
  });
});
