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
  /** A second copy of the same bytes (webhook_duplicated fault). */
  duplicate?: true;
}

/** Betting faults on one delivery: never sent, sent twice, or held until a later delivery has overtaken it. */
export type WebhookFault = { kind: 'lost' } | { kind: 'duplicated' } | { kind: 'out_of_order'; holdMs: number };

export interface WebhookDelivery {
  correlation_id: string;
  url: string;
  state: 'held' | 'delivering' | 'delivered' | 'dead_lettered' | 'lost';
  attempts: DeliveryAttempt[];
  fault?: WebhookFault['kind'];
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
  /** Deliveries held back (out_of_order fault) by URL: each is released once another delivery there succeeds. */
  private readonly held = new Map<string, (() => void)[]>();
  private closed = false;

  constructor(
    private readonly clock: SandboxClock,
    private readonly faults: FaultState,
    private readonly onOutcome: (outcome: 'delivered' | 'dead_lettered') => void = () => {},
  ) {}

  /** Starts delivery; returns at once. `apiKey` only keys the signature and is never stored. */
  deliver(url: string, payload: WebhookPayload, apiKey: string, fault?: WebhookFault): WebhookDelivery {
    const delivery: WebhookDelivery = {
      correlation_id: payload.correlation_id,
      url,
      state: 'delivering',
      attempts: [],
      ...(fault ? { fault: fault.kind } : {}),
    };
    this.deliveries.push(delivery);
    if (this.deliveries.length > 1_000) this.deliveries.shift();
    if (fault?.kind === 'lost') {
      delivery.state = 'lost';
      return delivery;
    }
    if (fault?.kind === 'out_of_order') {
      delivery.state = 'held';
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        timer.cancel();
        const list = this.held.get(url) ?? [];
        list.splice(list.indexOf(release), 1);
        delivery.state = 'delivering';
        void this.attempt(delivery, payload, apiKey, 0, false);
      };
      const timer = this.clock.schedule(fault.holdMs, release);
      this.held.set(url, [...(this.held.get(url) ?? []), release]);
      return delivery;
    }
    void this.attempt(delivery, payload, apiKey, 0, fault?.kind === 'duplicated');
    return delivery;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const ac of this.inFlight) ac.abort();
    await this.agent.destroy();
  }

  private async attempt(
    delivery: WebhookDelivery,
    payload: WebhookPayload,
    apiKey: string,
    n: number,
    duplicate: boolean,
  ) {
    if (this.closed) return;
    const raw = JSON.stringify({ ...payload, delivered_at: this.clock.now().toISOString() });
    const record = await this.post(delivery, payload.correlation_id, raw, apiKey);
    if (this.closed) return;
    delivery.attempts.push(record);
    if (record.ok) {
      delivery.state = 'delivered';
      this.onOutcome('delivered');
      for (const release of [...(this.held.get(delivery.url) ?? [])]) release();
      if (duplicate) {
        // The same bytes again, as a gateway does when it never saw the first acknowledgement.
        const again = await this.post(delivery, payload.correlation_id, raw, apiKey);
        if (!this.closed) delivery.attempts.push({ ...again, duplicate: true });
      }
      return;
    }
    const delay = RETRY_DELAYS_MS[n];
    if (delay === undefined) {
      delivery.state = 'dead_lettered';
      this.onOutcome('dead_lettered');
      return;
    }
    this.clock.schedule(delay, () => void this.attempt(delivery, payload, apiKey, n + 1, duplicate));
  }

  /** One signed POST of `raw`; the record says whether the receiver took it. */
  private async post(
    delivery: WebhookDelivery,
    correlationId: string,
    raw: string,
    apiKey: string,
  ): Promise<DeliveryAttempt> {
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
          'bet-correlation-id': correlationId,
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
    return record;
  }
}
