import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALPHA, ALPHA_A, call, post, type Sandbox, start } from './platform-helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await start();
});
afterAll(async () => {
  await sb.close();
});

function rawRequest(url: string, payload: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(payload));
    let data = '';
    socket.on('data', (d) => {
      data += d.toString();
    });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

describe('sandbox HTTP server', () => {
  it('answers an unknown route with 404 JSON naming the path', async () => {
    const res = await post(sb.url, '/v3/nope', ALPHA, {});
    expect(res.status).toBe(404);
    expect(res.body.detail).toContain('/v3/nope');
  });

  it('answers a wrong method with 405 JSON and an Allow header', async () => {
    const res = await call(sb.url, 'GET', '/v3/balance', { key: ALPHA });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.body.detail).toContain('use POST');
  });

  it('answers malformed JSON with 400 JSON that says to send a JSON object', async () => {
    const res = await call(sb.url, 'POST', '/v3/balance', { key: ALPHA, raw: '{"session_id": ' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/Malformed JSON/);
  });

  it('refuses a JSON body that is not an object with 400', async () => {
    const res = await call(sb.url, 'POST', '/v3/balance', { key: ALPHA, raw: '[1,2]' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/JSON object/);
  });

  it('answers a wrong field type with 400 naming the field', async () => {
    const res = await post(sb.url, '/v3/balance', ALPHA, { session_id: 42 });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('session_id');
    expect(res.body.detail).toContain('session_id');
  });

  it('answers a body above 1 MB with 413 JSON', async () => {
    const big = JSON.stringify({ session_id: ALPHA_A, pad: 'x'.repeat(1_100_000) });
    const res = await call(sb.url, 'POST', '/v3/balance', { key: ALPHA, raw: big });
    expect(res.status).toBe(413);
    expect(res.body.detail).toMatch(/too large/);
  });

  it('answers unparseable HTTP with a JSON 400 and keeps serving', async () => {
    const answer = await rawRequest(sb.url, 'GARBAGE \x00\x01 nonsense\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toContain('"detail"');
    const after = await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_A });
    expect(after.status).toBe(200);
  });

  it('keeps serving after a burst of garbage bodies and aborted uploads', async () => {
    const junk = ['{', 'null', '"x"', '\u0000\u0001', '{"a":}', 'x'.repeat(5000)];
    const results = await Promise.all(
      junk.map((raw) => call(sb.url, 'POST', '/v3/withdraw_balance', { key: ALPHA, raw })),
    );
    for (const r of results) expect(r.status).toBe(400);
    // A client that announces a body and hangs up half way.
    const { hostname, port } = new URL(sb.url);
    await new Promise<void>((resolve) => {
      const s = connect(Number(port), hostname, () => {
        s.write(`POST /v3/balance HTTP/1.1\r\nHost: x\r\nX-API-Key: ${ALPHA}\r\nContent-Length: 1000\r\n\r\n{"sess`);
        s.destroy();
        resolve();
      });
    });
    const after = await post(sb.url, '/v3/balance', ALPHA, { session_id: ALPHA_A });
    expect(after.status).toBe(200);
    expect(after.headers.get('content-type')).toMatch(/application\/json/);
  });
});
