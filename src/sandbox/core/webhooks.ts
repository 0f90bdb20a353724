// Result delivery to a caller's callback_url: signed POST, 2xx within 10 s, retries at 1 s, 4 s, 16 s
// (sandbox time, so --speed shortens them), then dead-lettered. Polling keeps working either way.
import { Agent, request } from 'undici';
import type { SandboxClock } from './clock.js';
import type { FaultState } from './faults.js';
import { signBody } from './signature.js';

export const RETRY_DELAYS_MS = [1_000, 4_000, 16_000];
export const RECEIVER_DEADLINE_MS = 10_000;

export interface DeliveryAttempt {
  at: string;
  ok: boolean;
  status?: number;
  error?: string;
}

export interface WebhookDelivery {
  correlation_id: string;
  url: string;
  state: 'delivering' | 'delivered' | 'dead_lettered';
  attempts: DeliveryAttempt[];
}

export interface WebhookPayload {
  correlation_id: string;
  result: unknown;
  metadata: { bookie: string | null; username: string | null; session_id: string | null };
}

export class WebhookSender {
  readonly deliveries: WebhookDelivery[] = [];
  private readonly agent = new Agent({ connections: 8, keepAliveTimeout: 1_000 });
  private readonly inFlight = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly clock: SandboxClock,
    private readonly faults: FaultState,
    private readonly onOutcome: (outcome: 'delivered' | 'dead_lettered') => void = () => {},
  ) {}

  /** Starts delivery; returns at once. `apiKey` only keys the signature and is never stored. */
  deliver(url: string, payload: WebhookPayload, apiKey: string): WebhookDelivery {
    const delivery: WebhookDelivery = {
      correlation_id: payload.correlation_id,
      url,
      state: 'delivering',
      attempts: [],
    };
    this.deliveries.push(delivery);
    if (this.deliveries.length > 1_000) this.deliveries.shift();
    void this.attempt(delivery, payload, apiKey, 0);
    return delivery;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const ac of this.inFlight) ac.abort();
    await this.agent.destroy();
  }

  private async attempt(delivery: WebhookDelivery, payload: WebhookPayload, apiKey: string, n: number) {
    if (this.closed) return;
    const raw = JSON.stringify({ ...payload, delivered_at: this.clock.now().toISOString() });
    const record: DeliveryAttempt = { at: this.clock.now().toISOString(), ok: false };
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), this.clock.toRealMs(RECEIVER_DEADLINE_MS));
    this.inFlight.add(ac);
    try {
      const res = await request(delivery.url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: ac.signal,
        headers: {
          'content-type': 'application/json',
          'bet-correlation-id': payload.correlation_id,
          'bet-signature': signBody(raw, apiKey),
        },
        body: raw,
      });
      await res.body.dump();
      record.status = res.statusCode;
      record.ok = res.statusCode >= 200 && res.statusCode < 300;
      if (record.ok && this.faults.webhookFails()) {
        record.ok = false;
        record.error = 'injected fault: delivery treated as failed';
      } else if (!record.ok) {
        record.error = `receiver answered ${res.statusCode}`;
      }
    } catch (err) {
      record.error = ac.signal.aborted
        ? `no answer within ${RECEIVER_DEADLINE_MS / 1000} s`
        : `delivery failed: ${(err as Error).message}`;
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(ac);
    }
    if (this.closed) return;
    delivery.attempts.push(record);
    if (record.ok) {
      delivery.state = 'delivered';
      this.onOutcome('delivered');
      return;
    }
    const delay = RETRY_DELAYS_MS[n];
    if (delay === undefined) {
      delivery.state = 'dead_lettered';
      this.onOutcome('dead_lettered');
      return;
    }
    this.clock.schedule(delay, () => void this.attempt(delivery, payload, apiKey, n + 1));
  }
}
