// A bet submitted through /bet and Confirm whose result reaches the desk only by the delivery a test sends (the
// sandbox's own is lost, the polls held), and that delivery signed and posted to the desk's receiver.
import { WEBHOOK_PATH } from '../../src/bot/receiver/receiver.js';
import { GatewayClient, signWebhook } from '../../src/gateway/index.js';
import { betSlip, messageMatching, newTrail, pickEvent, press } from './flows.js';
import { API_KEY, type Desk } from './harness.js';
import { until } from './wait.js';

export async function betAwaitingDelivery(desk: Desk, stake: number) {
  await desk.control.faults({ betting: [{ fault: 'webhook_lost', route: '/v3/place_bet' }] });
  desk.proxy!.hold('/api/bet_status');
  const sel = await pickEvent(desk, 'nba');
  const trail = newTrail();
  const { slip } = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake });
  await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
  await messageMatching(desk, slip, /Bet submitted/);
  const [job] = await desk.bot.store.query<{ correlation_id: string }>(
    `SELECT j.correlation_id FROM jobs j JOIN bet_records b ON b.correlation_id = j.correlation_id
     WHERE j.kind = 'bet' AND j.state = 'pending' AND b.stake_cents = ?`,
    stake * 100,
  );
  if (!job) throw new Error(`no pending bet job for the stake of ${stake}`);
  const id = job.correlation_id;
  return { slip, id, raw: await completedDelivery(desk.sandbox.url, id, desk.now) };
}

/**
 * The delivery of a job once the sandbox has finished it, as the gateway would send it now (the body, unsigned),
 * stamped on `now`: the desk's clock, which a desk pinned to the sandbox's keeps apart from the machine's.
 */
export async function completedDelivery(sandboxUrl: string, id: string, now: () => number = Date.now): Promise<string> {
  const sandbox = new GatewayClient({ baseUrl: sandboxUrl, apiKey: API_KEY });
  const done = await until(
    'the bet job finished at the sandbox',
    async () => (await sandbox.jobs.status([id])).find((e) => e.status === 'completed'),
    { timeoutMs: 20_000 },
  ).finally(() => sandbox.close());
  return JSON.stringify({
    correlation_id: id,
    status: 'completed',
    result: done.result,
    delivered_at: new Date(now()).toISOString(),
  });
}

/** Posts a delivery signed with the desk's key to the receiver at `baseUrl` (a bot in this process or a child's). */
export const postSigned = (baseUrl: string, raw: string) =>
  fetch(`${baseUrl}${WEBHOOK_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'bet-signature': signWebhook(raw, API_KEY) },
    body: raw,
  });

/** Posts a delivery signed with the desk's key to its in-process bot's receiver. */
export const deliverSigned = (desk: Desk, raw: string) => postSigned(desk.bot.receiverUrl, raw);
