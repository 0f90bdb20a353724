// A pass-through HTTP proxy in front of a local server that counts requests by path and status, so a figure
// can say how many calls reached the gateway and how many were refused (429) without touching either side.
import { Agent, request } from 'undici';
import { type LocalServer, listen, readBody } from './servers.js';

export interface CountingProxy extends LocalServer {
  /** `${path} ${status}` → count, e.g. "/v3/markets 200". */
  counts: Map<string, number>;
  count(path: string, status?: number): number;
  reset(): void;
}

export async function countingProxy(target: string): Promise<CountingProxy> {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 128 });
  const counts = new Map<string, number>();
  const server = await listen(async (req, res) => {
    const body = await readBody(req);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    const up = await request(`${target}${req.url ?? '/'}`, {
      dispatcher: agent,
      method: (req.method ?? 'GET') as 'GET',
      headers,
      body: body.length > 0 ? body : undefined,
    });
    const bytes = Buffer.from(await up.body.arrayBuffer());
    const path = (req.url ?? '/').split('?')[0];
    const key = `${path} ${up.statusCode}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const out: Record<string, string> = { 'content-length': String(bytes.length) };
    for (const name of ['content-type', 'retry-after', 'x-service-sandbox']) {
      const v = up.headers[name];
      if (typeof v === 'string') out[name] = v;
    }
    res.writeHead(up.statusCode, out);
    res.end(bytes);
  });
  return {
    url: server.url,
    counts,
    count(path, status) {
      let n = 0;
      for (const [k, v] of counts) {
        const [p, s] = k.split(' ');
        if (p === path && (status === undefined || Number(s) === status)) n += v;
      }
      return n;
    },
    reset: () => counts.clear(),
    close: async () => {
      await server.close();
      await agent.close();
    },
  };
}
