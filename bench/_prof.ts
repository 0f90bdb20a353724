import { Agent } from 'undici';
import { GatewayClient } from '../src/gateway/index.js';
import { marketCard } from './lib/fixtures.js';
import { staticJsonServer } from './lib/servers.js';

const EPK = 'basketball/us/nba/lakers_v_celtics/2026-11-22';
const server = await staticJsonServer(marketCard(300));
const client = new GatewayClient({
  baseUrl: server.url,
  apiKey: 'k',
  dispatcher: new Agent({ connections: 64 }),
  marketRateLimit: { perMinute: 10_000_000 },
});
const t = performance.now();
for (let i = 0; i < 5000; i++) await client.markets.get({ epk: EPK, bookie: 'bookie_a' });
console.log((performance.now() - t) / 5000, 'ms/card');
await client.close();
await server.close();
process.exit(0);
