import { createServer } from 'node:net';

/**
 * A loopback port free right now. The bot must know its public webhook URL before it starts (it is sent as
 * callback_url), so the receiver's port is picked up front rather than with port 0.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
