import { createServer } from 'node:http';
import { listen } from '../../http/listen.js';

/**
 * A loopback port free right now. The bot must know its public webhook URL before it starts (it is sent as
 * callback_url), so the receiver's port is picked up front rather than with port 0.
 */
export async function freePort(): Promise<number> {
  const probe = await listen(createServer(), 0, '127.0.0.1');
  await probe.close();
  return probe.port;
}
