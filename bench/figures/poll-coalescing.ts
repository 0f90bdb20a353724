// Figure 3: bet_status requests per poll tick with 1,000 pending jobs through the client's one poller,
// against one-request-per-job polling; requests are counted at a local server.
import { GatewayClient } from '../../src/gateway/index.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { requestsPerTick } from '../lib/poll-count.js';
import { listen, readBody } from '../lib/servers.js';
import { waitFor } from '../lib/wait.js';

const JOBS = 1_000;
const TICKS = 3;

export async function pollCoalescing(): Promise<FigureResult[]> {
  let requests: string[][] = [];
  let release = false;
  const server = await listen(async (req, res) => {
    const body = JSON.parse((await readBody(req)).toString('utf8')) as { correlation_ids: string[] };
    requests.push(body.correlation_ids);
    const statuses = body.correlation_ids.map((id) =>
      release
        ? { correlation_id: id, status: 'completed', result: { success: true, bet_result: { success: true } } }
        : { correlation_id: id, status: 'pending' },
    );
    const text = JSON.stringify({ statuses });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  const client = new GatewayClient({ baseUrl: server.url, apiKey: 'bench-key', poller: { intervalMs: 100 } });
  try {
    const timeoutAt = new Date(Date.now() + 5 * 60_000).toISOString();
    const ids = Array.from({ length: JOBS }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const outcomes = ids.map((id) =>
      client.jobs.track({ status: 'pending', correlation_id: id, timeout_at: timeoutAt }),
    );
    await waitFor(() => requestsPerTick(requests).ticks >= TICKS, 20_000, 'the poller to run 3 ticks');
    release = true;
    const done = await Promise.all(outcomes);
    const completed = done.filter((o) => o.status === 'completed').length;
    const coalesced = requestsPerTick(requests);

    // The naive way, measured the same way: one bet_status request per job for one tick.
    requests = [];
    release = false;
    await Promise.all(ids.map((id) => client.jobs.status([id])));
    const naive = requestsPerTick(requests);

    return [
      figure({
        name: '3 poll coalescing (1,000 pending jobs)',
        value: coalesced.perTick,
        unit: 'requests/tick',
        baseline: naive.perTick,
        target: { on: 'ratio', op: '<=', limit: 0.01 },
        note: `${coalesced.ticks} ticks of the client's poller carried all ${JOBS} ids in ${coalesced.perTick} request(s) each (one per batch of up to 1,000); ${completed}/${JOBS} jobs completed; baseline: one bet_status per job, counted at the same server`,
      }),
    ];
  } finally {
    await client.close();
    await server.close();
  }
}
