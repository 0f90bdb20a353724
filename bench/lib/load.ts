// A bounded concurrent load loop over undici: `concurrency` workers share one list of requests,
// each request is sent once, and the loop ends when the list is done.
import { Pool } from 'undici';

export interface LoadRequest {
  body: string;
  headers: Record<string, string>;
}

export interface LoadResult {
  elapsedMs: number;
  /** Per-request time from send to the end of the response body, in ms. */
  latencies: number[];
  /** Count of responses by status code (0 = transport error). */
  statuses: Record<number, number>;
  perSecond: number;
}

export async function runLoad(opts: {
  url: string;
  path: string;
  requests: readonly LoadRequest[];
  concurrency: number;
}): Promise<LoadResult> {
  const pool = new Pool(opts.url, { connections: opts.concurrency, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      const r = opts.requests[i];
      if (!r) return;
      const t0 = performance.now();
      let code = 0;
      try {
        const res = await pool.request({ method: 'POST', path: opts.path, headers: r.headers, body: r.body });
        code = res.statusCode;
        await res.body.dump();
      } catch {
        code = 0;
      }
      latencies.push(performance.now() - t0);
      statuses[code] = (statuses[code] ?? 0) + 1;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const elapsedMs = performance.now() - t0;
  await pool.close();
  return { elapsedMs, latencies, statuses, perSecond: (opts.requests.length / elapsedMs) * 1000 };
}
