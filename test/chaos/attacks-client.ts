// Attacks on the client library and the desk's card budget, as chaos scenarios (`npm run chaos` prints them).
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { AUTOCOMPLETE_READS } from '../../src/bot/catalog/read-allowance.js';
import { type RunningBot, startBot } from '../../src/bot/index.js';
import { GatewayClient, GatewayError, parseWebhook, signWebhook, WebhookKeyError } from '../../src/gateway/index.js';
import {
  cardReadsAtSandbox,
  cardsOfUpcomingEvents,
  floodAutocomplete,
  openMarkets,
} from '../support/autocomplete-flood.js';
import { startDesk } from '../support/harness.js';
import { type HostileMode, startHostileGateway } from '../support/hostile-bodies.js';
import { emptyResult, type ScenarioResult } from './tally.js';

const KEY = 'sk-chaos-attack-key-77';
const LIMIT = 64 * 1024;
const TIMEOUT_MS = 1_500;
const MODES: HostileMode[] = ['endless', 'declared', 'broken', 'stalled'];

/**
 * `calls` reads per hostile answer (oversize streamed, oversize declared, cut off mid-body, stalled past the
 * deadline), all at once: every call settles exactly once, before its deadline (plus a margin), with a typed
 * GatewayError; oversize answers are cut off, never read whole.
 */
export async function hostileGatewayBodies(calls: number): Promise<ScenarioResult> {
  const r = emptyResult(`hostile gateway bodies (${calls} calls each: ${MODES.join(', ')})`);
  const gateway = await startHostileGateway();
  const clients = MODES.map(
    (mode) =>
      new GatewayClient({
        baseUrl: gateway.urlFor(mode),
        apiKey: KEY,
        timeoutMs: TIMEOUT_MS,
        maxResponseBytes: LIMIT,
        sleep: async () => {},
      }),
  );
  try {
    const outcomes = await Promise.all(
      clients.flatMap((client, m) =>
        Array.from({ length: calls }, async () => {
          const started = Date.now();
          let settled = 0;
          let error: unknown;
          await new Promise<void>((done) => {
            const margin = setTimeout(done, TIMEOUT_MS + 1_000);
            const end = () => {
              settled += 1;
              clearTimeout(margin);
              done();
            };
            client.sessions.list().then(end, (err: unknown) => {
              error = err;
              end();
            });
          });
          return { mode: MODES[m], settled, ms: Date.now() - started, error };
        }),
      ),
    );
    const bad = outcomes.filter((o) => o.settled !== 1 || !(o.error instanceof GatewayError));
    const late = outcomes.filter((o) => o.ms > TIMEOUT_MS + 500);
    const endless = outcomes.filter((o) => o.mode === 'endless').length;
    const bytesPerCall = Math.round(gateway.bytesWritten / Math.max(1, outcomes.length));
    const byMode = MODES.map((mode) => {
      const names = new Set(outcomes.filter((o) => o.mode === mode).map((o) => (o.error as Error)?.name));
      return `${mode}: ${[...names].join('/')}`;
    });
    r.survived = bad.length === 0 && late.length === 0 && gateway.cutOff >= endless;
    r.notes.push(
      `${outcomes.length} calls; unsettled or untyped ${bad.length}; past deadline ${late.length}; ${byMode.join('; ')}`,
      `connections cut off ${gateway.cutOff}; server wrote ${bytesPerCall} bytes a call against a ${LIMIT}-byte limit`,
    );
  } finally {
    for (const c of clients) await c.close();
    await gateway.close();
  }
  return r;
}

/**
 * Secrets in failures: a baseUrl with user:password@ at a closed port, a dispatcher whose error repeats the key and
 * the password, and a webhook verified with an empty key. No secret in any rendering of an error; the empty key
 * is refused.
 */
export async function secretsInClientErrors(): Promise<ScenarioResult> {
  const r = emptyResult('secrets in client errors (baseUrl password, echoed key, empty webhook key)');
  const password = 'pw-chaos-attack-99';
  const server = createServer();
  await new Promise<void>((x) => server.listen(0, '127.0.0.1', x));
  const { port } = server.address() as { port: number };
  await new Promise<void>((x) => server.close(() => x()));
  const baseUrl = `http://operator:${password}@127.0.0.1:${port}`;
  const echoing = {
    dispatch(_o: unknown, handler: { onError(err: Error): void }) {
      const leak = `${KEY} ${password}`;
      setImmediate(() => handler.onError(Object.assign(new Error(`upstream ${leak}`), { code: `E ${leak}` })));
      return true;
    },
  } as unknown as import('undici').Dispatcher;
  const clients = [
    new GatewayClient({ baseUrl, apiKey: KEY, maxRetries: 0 }),
    new GatewayClient({ baseUrl, apiKey: KEY, maxRetries: 0, dispatcher: echoing }),
  ];
  try {
    let leaks = 0;
    for (const client of clients) {
      const err = await client.sessions.list().catch((e: unknown) => e);
      const e = err as Error;
      const text = [String(e), e.message, e.stack, JSON.stringify(e), inspect(e, { depth: 10 }), inspect(client)].join(
        '\n',
      );
      if (text.includes(KEY) || text.includes(password)) leaks += 1;
    }
    const body = JSON.stringify({ correlation_id: 'c-forged', delivered_at: new Date().toISOString() });
    let forgedAccepted = false;
    try {
      parseWebhook(body, signWebhook(body, ''), '');
      forgedAccepted = true;
    } catch (err) {
      forgedAccepted = !(err instanceof WebhookKeyError);
    }
    r.survived = leaks === 0 && !forgedAccepted;
    r.notes.push(
      `errors carrying a secret: ${leaks} of ${clients.length}; empty-key forgery accepted: ${forgedAccepted}`,
    );
  } finally {
    for (const c of clients) await c.close();
  }
  return r;
}

/**
 * One member without the bet role types through `asks` cards in autocomplete, then another member opens /markets:
 * the flood reads at most the member's allowance of cards and the /markets card is not queued behind it.
 */
export async function autocompleteFlood(asks: number): Promise<ScenarioResult> {
  const r = emptyResult(`autocomplete flood (${asks} asks from one member)`);
  // The bot from src in this process, so the flood can watch its card limiter.
  const desk = await startDesk<RunningBot>({ startBot: (config, deps) => startBot(config, deps) });
  try {
    const cards = await cardsOfUpcomingEvents(desk);
    const flood = await floodAutocomplete(desk, 'viewer', cards.slice(0, Math.min(asks, cards.length - 1)));
    const before = cardReadsAtSandbox(desk);
    const markets = await openMarkets(desk, 'bettor', cards[cards.length - 1] ?? { epk: '', bookie: '' });
    r.survived = flood.reads <= AUTOCOMPLETE_READS.perMember && !markets.queued && markets.ms < 10_000;
    r.notes.push(
      `flood card reads ${flood.reads} (allowance ${AUTOCOMPLETE_READS.perMember} per member); /markets after it in ${markets.ms} ms, queued: ${markets.queued}, its reads ${cardReadsAtSandbox(desk) - before}`,
    );
  } finally {
    await desk.close();
  }
  return r;
}
