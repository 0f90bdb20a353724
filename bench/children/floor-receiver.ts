// Figure 6's floor in a process of its own, as the desk's bot runs in its own: a bare receiver that verifies each
// delivery's signature, makes it durable with one insert into SQLite on disk (the desk's table and settings: WAL,
// synchronous=NORMAL), answers 200 and edits the bet's message through discord.js REST at once. The parent places
// the bets and says which message each job's receipt edits; a delivery that beats that word waits for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REST, RESTEvents, Routes } from 'discord.js';
import { openStore } from '../../src/bot/store/index.js';
import { verifyWebhookSignature } from '../../src/gateway/index.js';
import { betIdOf } from '../lib/completion-watch.js';
import { readBody } from '../lib/servers.js';

/** What the parent sends: where to edit, then each job's message, then stop. */
type Request =
  | { type: 'start'; apiUrl: string; token: string; channelId: string; secret: string }
  | { type: 'message'; correlationId: string; messageId: string }
  | { type: 'stop' };

const send = (msg: Record<string, unknown>) => process.send?.(msg);

async function start(req: Extract<Request, { type: 'start' }>) {
  const rest = new REST({ api: req.apiUrl }).setToken(req.token);
  const dir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  const store = await openStore(`sqlite://${join(dir, 'floor.sqlite')}`);
  /** correlation id → the message its receipt edits; a delivery that beats it waits in `early`. */
  const messageOf = new Map<string, string>();
  const early = new Map<string, string>();
  const problems: string[] = [];
  // A floor never waits for discord.js's rate limits: each wait is counted, and the parent then reads no ratio.
  const rateLimits = { count: 0, longestMs: 0 };
  rest.on(RESTEvents.RateLimited, (info) => {
    rateLimits.count++;
    rateLimits.longestMs = Math.max(rateLimits.longestMs, info.timeToReset);
  });
  const edit = (messageId: string, betId: string) =>
    void rest
      .patch(Routes.channelMessage(req.channelId, messageId), { body: { content: `Placed · ${betId}` } })
      .catch((err: Error) => problems.push(`edit: ${err.message.slice(0, 120)}`));
  const server = createServer((httpReq, res) => {
    readBody(httpReq)
      .then(async (raw) => {
        if (!verifyWebhookSignature(raw, httpReq.headers['bet-signature'], req.secret)) {
          problems.push('bad signature');
          res.writeHead(401).end();
          return;
        }
        const text = raw.toString('utf8');
        const body = JSON.parse(text) as { correlation_id: string; result?: unknown };
        await store.query(
          'INSERT INTO webhook_deliveries (correlation_id, body, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
          body.correlation_id,
          text,
          Date.now(),
        );
        res.writeHead(200).end();
        const betId = betIdOf(body.result);
        if (!betId) return;
        const messageId = messageOf.get(body.correlation_id);
        if (messageId) edit(messageId, betId);
        else early.set(body.correlation_id, betId);
      })
      .catch((err: Error) => {
        problems.push(err.message.slice(0, 120));
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const onMessage = (msg: Request) => {
    if (msg.type === 'message') {
      messageOf.set(msg.correlationId, msg.messageId);
      const betId = early.get(msg.correlationId);
      if (betId) edit(msg.messageId, betId);
    } else if (msg.type === 'stop') {
      process.off('message', onMessage);
      server.close();
      void store.close().finally(() => {
        rmSync(dir, { recursive: true, force: true });
        // Exits once the message is out: an exit right after send can drop it.
        process.send?.({ type: 'stopped', problems, rateLimits }, () => process.exit(0));
      });
    }
  };
  process.on('message', onMessage);
  send({ type: 'ready', port });
}

process.once('message', (msg: Request) => {
  if (msg.type !== 'start') return;
  start(msg).catch((err: Error) => {
    send({ type: 'error', message: err.message });
    process.exit(1);
  });
});
