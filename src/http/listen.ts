// Listening and closing: one place for the URL (IPv6 in brackets) and for a close that does not hang.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** http://host:port, the host as asked for (an IPv6 address in brackets). */
  url: string;
  port: number;
  /** Stops listening and ends every connection, idle keep-alive and mid-request alike. Safe to call twice. */
  close(): Promise<void>;
}

/** Host part of a URL: an IPv6 literal goes in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Listens on `host:port` (port 0 picks a free one); rejects with the listen error (EADDRINUSE, …). */
export async function listen(server: Server, port: number, host = '127.0.0.1'): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${bound}`,
    port: bound,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
