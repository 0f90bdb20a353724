import { createServer } from 'node:http';
import { listen } from '../../src/http/listen.js';

/**
 * A loopback port for a server a test must name before it starts (the bot's receiver, a PostgreSQL cluster), taken
 * below Linux's ephemeral range (32768 and up): a port picked with port 0 comes from that range, which every
 * outgoing connection of the parallel tests also draws from, so it could be taken before the server bound it.
 */
export async function testPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const probe = await listen(createServer(), port, '127.0.0.1').catch(() => undefined);
    if (!probe) continue;
    await probe.close();
    return port;
  }
  throw new Error('no free loopback port between 20000 and 32000 after 50 tries');
}
