// The shared HTTP layer, run over real sockets: bounded bodies, the route table, JSON replies, listen and close.
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyTooLarge, readBody } from '../../../src/http/body.js';
import { type Listening, listen, urlHost } from '../../../src/http/listen.js';
import { sendJson } from '../../../src/http/reply.js';
import { RouteTable } from '../../../src/http/routes.js';

const open: Listening[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

async function serve(server: Server, host = '127.0.0.1'): Promise<Listening> {
  const listening = await listen(server, 0, host);
  open.push(listening);
  return listening;
}

/** A server that reads the body with a 10-byte limit and answers what happened. */
function bodyServer(): Server {
  return createServer((req, res) => {
    readBody(req, 10).then(
      (raw) => sendJson(res, 200, { got: raw.toString('utf8') }),
      (err: unknown) =>
        sendJson(res, 413, { declared: err instanceof BodyTooLarge ? err.declared : 'other' }, { connection: 'close' }),
    );
  });
}

describe('readBody', () => {
  it('returns a body within the limit', async () => {
    const { url } = await serve(bodyServer());
    const res = await fetch(url, { method: 'POST', body: '0123456789' });
    expect(await res.json()).toEqual({ got: '0123456789' });
  });

  it('refuses a body whose Content-Length is over the limit before reading it', async () => {
    const { url } = await serve(bodyServer());
    const res = await fetch(url, { method: 'POST', body: '01234567890' });
    expect([res.status, await res.json()]).toEqual([413, { declared: true }]);
  });

  it('refuses a chunked body (no Content-Length) once the counted bytes pass the limit', async () => {
    const { port } = await serve(bodyServer());
    const answer = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', method: 'POST', headers: { 'transfer-encoding': 'chunked' } });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString('utf8');
        });
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      req.on('error', reject);
      req.write('012345');
      req.write('678901');
      req.end();
    });
    expect([answer.status, JSON.parse(answer.body)]).toEqual([413, { declared: false }]);
  });
});

describe('RouteTable', () => {
  const table = new RouteTable<string>()
    .add('GET', '/v3/bets/:id', 'get bet')
    .add('POST', '/v3/bets/:id', 'post bet')
    .add('GET', '/v3/balance', 'balance');

  it('finds a route and its :params', () => {
    expect(table.match('GET', '/v3/bets/b1')).toEqual({ kind: 'found', route: 'get bet', params: { id: 'b1' } });
  });

  it('says 404 for a path no route has', () => {
    expect(table.match('GET', '/v3/nothing')).toEqual({ kind: 'not-found' });
  });

  it('says 405 with the allowed methods for a known path and another method', () => {
    expect(table.match('DELETE', '/v3/bets/b1')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'POST'] });
  });

  it('matches a trailing slash only when asked to', () => {
    expect(table.match('GET', '/v3/balance/').kind).toBe('not-found');
    const lenient = new RouteTable<string>({ trailingSlash: true }).add('GET', '/v3/balance', 'balance');
    expect(lenient.match('GET', '/v3/balance/').kind).toBe('found');
  });

  it('refuses the same method and path twice', () => {
    expect(() => new RouteTable<string>().add('GET', '/a', 'x').add('GET', '/a', 'y')).toThrow(/duplicate route/);
  });
});

describe('sendJson', () => {
  it('sends status, JSON, the caller headers and a Content-Length', async () => {
    const { url } = await serve(createServer((_req, res) => sendJson(res, 418, { é: 1 }, { 'retry-after': '1' })));
    const res = await fetch(url);
    expect([res.status, res.headers.get('retry-after'), res.headers.get('content-length')]).toEqual([418, '1', '8']);
    expect(await res.json()).toEqual({ é: 1 });
  });
});

describe('listen', () => {
  // The URL is built from the host as asked for; binding an IPv6 address needs IPv6 loopback on the machine,
  // which a CI container may lack, so the rule is checked on the function that writes the host.
  it('puts an IPv6 host in brackets in the URL, and leaves other hosts as they are', () => {
    expect(urlHost('::1')).toBe('[::1]');
    expect(urlHost('[::1]')).toBe('[::1]');
    expect(urlHost('127.0.0.1')).toBe('127.0.0.1');
    expect(urlHost('localhost')).toBe('localhost');
  });

  it('close() resolves with a keep-alive connection still open, and ends it', async () => {
    const listening = await listen(
      createServer((_req, res) => sendJson(res, 200, { ok: true })),
      0,
    );
    const socket = connect(listening.port, '127.0.0.1');
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const answered = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    await answered;
    await listening.close();
    await ended;
    expect(socket.destroyed).toBe(true);
  });
});
