import { constants, inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type LocalDiscord, startLocalDiscord } from '../../../src/local-discord/index.js';
import { until } from '../../support/wait.js';

interface Frame {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

/** A bare gateway client: records every payload and close code, decoding zlib-stream when asked. */
function connect(url: string, opts: { zlib?: boolean } = {}) {
  const ws = new WebSocket(`${url}?v=10&encoding=json${opts.zlib ? '&compress=zlib-stream' : ''}`);
  const frames: Frame[] = [];
  let compressed = Buffer.alloc(0);
  let decodedLength = 0;
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('message', (data: Buffer, isBinary) => {
    if (!isBinary) {
      frames.push(JSON.parse(data.toString()) as Frame);
      return;
    }
    // One deflate context for the connection: inflate everything so far and keep the new tail.
    compressed = Buffer.concat([compressed, data]);
    const all = inflateSync(compressed, { finishFlush: constants.Z_SYNC_FLUSH }).toString();
    frames.push(JSON.parse(all.slice(decodedLength)) as Frame);
    decodedLength = all.length;
  });
  const next = (pred: (f: Frame) => boolean, timeoutMs = 2000): Promise<Frame> =>
    until('a matching frame', () => frames.find(pred), {
      timeoutMs,
      everyMs: 5,
      seen: () => `got ${JSON.stringify(frames.map((x) => [x.op, x.t]))}`,
    });
  const send = async (payload: unknown) => {
    if (ws.readyState === WebSocket.CONNECTING) await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify(payload));
  };
  return { ws, frames, closed, next, send };
}

describe('the local Discord gateway protocol', () => {
  let ld: LocalDiscord;
  afterEach(async () => {
    await ld?.close();
  });

  it('says HELLO, then IDENTIFY gets READY and GUILD_CREATE with increasing sequence numbers', async () => {
    ld = await startLocalDiscord({ heartbeatIntervalMs: 45_000 });
    const c = connect(ld.gatewayUrl);
    const hello = await c.next((f) => f.op === 10);
    expect(hello.d).toEqual({ heartbeat_interval: 45_000 });
    await c.send({ op: 2, d: { token: ld.token, intents: 1, properties: {} } });
    const ready = await c.next((f) => f.t === 'READY');
    const guild = await c.next((f) => f.t === 'GUILD_CREATE');
    expect(ready.s).toBe(1);
    expect(guild.s).toBe(2);
    const d = ready.d as {
      session_id: string;
      resume_gateway_url: string;
      application: { id: string };
      guilds: unknown[];
    };
    expect(d.session_id).toMatch(/^[0-9a-f]{32}$/);
    expect(d.resume_gateway_url).toBe(ld.gatewayUrl);
    expect(d.application.id).toBe(ld.applicationId);
    expect(d.guilds).toEqual([{ id: ld.guildId, unavailable: true }]);
    expect((guild.d as { members: unknown[] }).members.length).toBe(4);
    c.ws.close();
  });

  it('acknowledges heartbeats with op 11', async () => {
    ld = await startLocalDiscord();
    const c = connect(ld.gatewayUrl);
    await c.next((f) => f.op === 10);
    await c.send({ op: 1, d: null });
    await c.next((f) => f.op === 11);
    c.ws.close();
  });

  it('closes 4004 on a wrong token and 4003 on a payload before IDENTIFY', async () => {
    ld = await startLocalDiscord();
    const bad = connect(ld.gatewayUrl);
    await bad.next((f) => f.op === 10);
    await bad.send({ op: 2, d: { token: 'not-the-token', intents: 1 } });
    expect(await bad.closed).toBe(4004);
    const early = connect(ld.gatewayUrl);
    await early.next((f) => f.op === 10);
    await early.send({ op: 3, d: {} });
    expect(await early.closed).toBe(4003);
  });

  it('closes a connection that stops heartbeating with 4009', async () => {
    ld = await startLocalDiscord({ heartbeatIntervalMs: 40 });
    const c = connect(ld.gatewayUrl);
    expect(await c.closed).toBe(4009);
  });

  it('replays missed dispatches on RESUME, then sends RESUMED', async () => {
    ld = await startLocalDiscord();
    const first = connect(ld.gatewayUrl);
    await first.next((f) => f.op === 10);
    await first.send({ op: 2, d: { token: ld.token, intents: 1 } });
    const ready = await first.next((f) => f.t === 'READY');
    const sessionId = (ready.d as { session_id: string }).session_id;
    await first.next((f) => f.t === 'GUILD_CREATE');
    first.ws.close(4000);
    await first.closed;
    await expect.poll(() => ld.connectedBots).toBe(0);
    await fetch(`${ld.apiUrl}/v10/applications/${ld.applicationId}/guilds/${ld.guildId}/commands`, {
      method: 'PUT',
      headers: { authorization: `Bot ${ld.token}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ name: 'ping', description: 'Ping' }]),
    });
    // The session is still resumable, so the event is buffered for it.
    const ix = await ld.sendCommand({ user: ld.users.bettor, channelId: ld.channelIds.bets, name: 'ping' });
    const second = connect(ld.gatewayUrl);
    await second.next((f) => f.op === 10);
    await second.send({ op: 6, d: { token: ld.token, session_id: sessionId, seq: 2 } });
    const replayed = await second.next((f) => f.t === 'INTERACTION_CREATE');
    expect((replayed.d as { id: string }).id).toBe(ix.id);
    expect(replayed.s).toBe(3);
    const resumed = await second.next((f) => f.t === 'RESUMED');
    expect(resumed.s).toBe(4);
    second.ws.close();
  });

  it('answers RESUME of an unknown session with op 9 (not resumable)', async () => {
    ld = await startLocalDiscord();
    const c = connect(ld.gatewayUrl);
    await c.next((f) => f.op === 10);
    await c.send({ op: 6, d: { token: ld.token, session_id: 'gone', seq: 5 } });
    const invalid = await c.next((f) => f.op === 9);
    expect(invalid.d).toBe(false);
    c.ws.close();
  });

  it('speaks compress=zlib-stream when a client asks for it', async () => {
    ld = await startLocalDiscord();
    const c = connect(ld.gatewayUrl, { zlib: true });
    await c.next((f) => f.op === 10);
    await c.send({ op: 2, d: { token: ld.token, intents: 1 } });
    await c.next((f) => f.t === 'READY');
    await c.next((f) => f.t === 'GUILD_CREATE');
    await c.send({ op: 1, d: 2 });
    await c.next((f) => f.op === 11);
    c.ws.close();
  });

  it('refuses sending interactions while no bot is connected, with a message that says what to do', async () => {
    ld = await startLocalDiscord();
    await fetch(`${ld.apiUrl}/v10/applications/${ld.applicationId}/commands`, {
      method: 'PUT',
      headers: { authorization: `Bot ${ld.token}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ name: 'ping', description: 'Ping' }]),
    });
    await expect(
      ld.sendCommand({ user: ld.users.bettor, channelId: ld.channelIds.bets, name: 'ping' }),
    ).rejects.toThrow(/No bot is connected.*rest: \{ api: ld.apiUrl \}/);
  });
});

describe('the local Discord gateway with a sharded bot', () => {
  let ld: LocalDiscord;
  afterEach(async () => {
    await ld?.close();
  });

  const identify = async (shard: [number, number]) => {
    const c = connect(ld.gatewayUrl);
    await c.next((f) => f.op === 10);
    await c.send({ op: 2, d: { token: ld.token, intents: 1 | (1 << 9), properties: {}, shard } });
    return c;
  };

  it('recommends the configured shard count in /gateway/bot', async () => {
    ld = await startLocalDiscord({ shards: 2 });
    const res = await fetch(`${ld.apiUrl}/v10/gateway/bot`, { headers: { authorization: `Bot ${ld.token}` } });
    expect(((await res.json()) as { shards: number }).shards).toBe(2);
  });

  it('sends the guild and its events only to the shard that owns it ((guild_id >> 22) % count)', async () => {
    ld = await startLocalDiscord({ shards: 2 });
    const owner = ld.guildShard(2);
    const shards = [await identify([0, 2]), await identify([1, 2])];
    const readies = await Promise.all(shards.map((c) => c.next((f) => f.t === 'READY')));
    expect(readies.map((r) => (r.d as { shard: number[]; guilds: unknown[] }).guilds.length)).toEqual(
      owner === 0 ? [1, 0] : [0, 1],
    );
    await shards[owner]?.next((f) => f.t === 'GUILD_CREATE');
    ld.postMessage({ user: ld.users.bettor, channelId: ld.channelIds.bets, content: 'hello shards' });
    await shards[owner]?.next((f) => f.t === 'MESSAGE_CREATE');
    const other = shards[1 - owner];
    expect(other?.frames.filter((f) => f.t === 'GUILD_CREATE' || f.t === 'MESSAGE_CREATE')).toEqual([]);
    expect(ld.connectedShards()).toEqual([
      [0, 2],
      [1, 2],
    ]);
    for (const c of shards) c.ws.close();
  });

  it('closes with 4010 when IDENTIFY names a shard outside [0, count)', async () => {
    ld = await startLocalDiscord();
    const c = connect(ld.gatewayUrl);
    await c.next((f) => f.op === 10);
    await c.send({ op: 2, d: { token: ld.token, intents: 1, properties: {}, shard: [2, 2] } });
    expect(await c.closed).toBe(4010);
  });
});
