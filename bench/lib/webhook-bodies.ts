// Signed webhook deliveries as the gateway sends them: fresh correlation ids, delivered_at now.
import { randomUUID } from 'node:crypto';
import { signWebhook } from '../../src/gateway/index.js';
import type { LoadRequest } from './load.js';

export function signedDeliveries(count: number, apiKey: string, now = new Date()): LoadRequest[] {
  return Array.from({ length: count }, () => {
    const correlationId = randomUUID();
    const body = JSON.stringify({
      correlation_id: correlationId,
      status: 'completed',
      result: { success: true, bet_id: `B${correlationId.slice(0, 8)}`, odds: 2.35, stake: 10, potential_return: 23.5 },
      metadata: { bookie: 'bookie_a', username: 'syndicate01', session_id: 'sess-a-1' },
      delivered_at: now.toISOString(),
    });
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'bet-correlation-id': correlationId,
        'bet-signature': signWebhook(body, apiKey),
      },
    };
  });
}
