// Figure 10: the bot's RSS growth while 1,000 connections each trickle a 250 KB body into the webhook receiver
// and never finish it, and how long a genuine delivery sent in the middle of that waits for its 2xx.
import { connect, type Socket } from 'node:net';
import { signWebhook } from '../../src/gateway/webhooks.js';
import { startChildBot } from '../lib/child-bot.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { SANDBOX_KEY, startStack, waitForBotReady } from '../lib/stack.js';

const CONNECTIONS = 1_000;
const BODY_BYTES = 250_000;
/** What each connection sends of its body before going quiet. */
const SENT_BYTES = 240_000;
const MB = 1024 * 1024;

function slowBody(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /webhooks/gateway HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${BODY_BYTES}\r\n\r\n`,
      );
      socket.write(Buffer.alloc(SENT_BYTES, 0x20));
      resolve(socket);
    });
    socket.on('error', () => resolve(socket));
  });
}

export async function slowBodies(): Promise<FigureResult[]> {
  const stack = await startStack({ webhook: true, startBotHere: false });
  try {
    const bot = await startChildBot(stack.env);
    try {
      await waitForBotReady(stack.ld);
      const port = Number(stack.env.WEBHOOK_PORT);
      const before = await bot.rss();
      const sockets: Socket[] = [];
      for (let i = 0; i < CONNECTIONS; i += 100) {
        sockets.push(...(await Promise.all(Array.from({ length: 100 }, () => slowBody(port)))));
      }
      await new Promise((r) => setTimeout(r, 1_000));
      const raw = Buffer.from(
        JSON.stringify({
          correlation_id: `bench-slow-${Date.now()}`,
          result: { success: true, bet_id: 'B-bench' },
          metadata: {},
          delivered_at: new Date().toISOString(),
        }),
      );
      const started = performance.now();
      const res = await fetch(`${stack.env.WEBHOOK_PUBLIC_URL}/webhooks/gateway`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'bet-signature': signWebhook(raw, SANDBOX_KEY) },
        body: raw,
        signal: AbortSignal.timeout(30_000),
      }).catch(() => undefined);
      const genuineMs = performance.now() - started;
      const during = await bot.rss();
      for (const s of sockets) s.destroy();
      const growth = (during.rss - before.rss) / MB;
      const note = `${CONNECTIONS} connections each declaring ${BODY_BYTES / 1000} KB and sending ${SENT_BYTES / 1000} KB, then silent; bot in a child process (compiled), RSS after forced collections`;
      return [
        figure({
          name: '10 bot RSS growth under 1,000 slow-body connections',
          value: growth,
          unit: 'MB',
          baseline: before.rss / MB,
          target: { on: 'value', op: '<', limit: 100 },
          note,
        }),
        figure({
          name: '10 genuine delivery time to 2xx during them',
          value: res?.ok ? genuineMs : Number.POSITIVE_INFINITY,
          unit: 'ms',
          baseline: null,
          target: { on: 'value', op: '<', limit: 10_000 },
          note: `answered ${res?.status ?? 'nothing'}`,
        }),
      ];
    } finally {
      await bot.stop();
    }
  } finally {
    await stack.close();
  }
}
