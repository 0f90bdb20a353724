import { createHash } from 'node:crypto';
import { DiscordApiError } from '../api-error.js';

/**
 * Discord's per-channel limit on new messages: 5 per 5 s per bot and channel, a bucket that opens with the first
 * message and resets 5 s later. Every answer carries the bucket's headers (discord.js reads them and waits for the
 * reset itself); one past the limit is a 429 shaped as Discord's (body `retry_after`, `global`; headers
 * `Retry-After`, `X-RateLimit-*`, scope `user`), which discord.js's REST queue waits out and sends again.
 * Real time, not the double's clock: the client sleeps in real time.
 */
export const MESSAGE_LIMIT = 5;
export const MESSAGE_WINDOW_MS = 5_000;

/**
 * How long a create's `enforce_nonce` is remembered. Discord says only "the past few minutes"; the double keeps the
 * short end of that, so a bot that leans on a nonce after it meets the double's forgetting first.
 */
export const NONCE_WINDOW_MS = 2 * 60_000;

interface Bucket {
  resetAt: number;
  remaining: number;
}

/** What the double saw of one channel's creates (tests read it: posts answered, 429s, nonce repeats). */
export interface ChannelPostCounts {
  created: number;
  limited: number;
  nonceRepeats: number;
}

export class ChannelLimits {
  readonly #buckets = new Map<string, Bucket>();
  readonly #nonces = new Map<string, { messageId: string; at: number }>();
  readonly #counts = new Map<string, ChannelPostCounts>();

  constructor(
    private readonly clock: () => number,
    private readonly nonceClock: () => number,
    private readonly nonceWindowMs = NONCE_WINDOW_MS,
  ) {}

  counts(channelId: string): ChannelPostCounts {
    return { ...(this.#counts.get(channelId) ?? { created: 0, limited: 0, nonceRepeats: 0 }) };
  }

  #count(channelId: string, field: keyof ChannelPostCounts): void {
    const c = this.#counts.get(channelId) ?? { created: 0, limited: 0, nonceRepeats: 0 };
    c[field] += 1;
    this.#counts.set(channelId, c);
  }

  /** Takes one message from the channel's bucket: the headers to answer with, or throws Discord's 429. */
  take(channelId: string): Record<string, string> {
    const now = this.clock();
    let bucket = this.#buckets.get(channelId);
    if (!bucket || now >= bucket.resetAt) {
      bucket = { resetAt: now + MESSAGE_WINDOW_MS, remaining: MESSAGE_LIMIT };
      this.#buckets.set(channelId, bucket);
    }
    const resetAfter = (bucket.resetAt - now) / 1000;
    const headers = {
      'x-ratelimit-limit': String(MESSAGE_LIMIT),
      'x-ratelimit-reset': (bucket.resetAt / 1000).toFixed(3),
      'x-ratelimit-reset-after': resetAfter.toFixed(3),
      // Discord's bucket id leaves out the channel (the top-level resource); the limit is still per channel.
      'x-ratelimit-bucket': createHash('sha256').update('POST /channels/:id/messages').digest('hex').slice(0, 32),
    };
    if (bucket.remaining === 0) {
      this.#count(channelId, 'limited');
      const error = new DiscordApiError(429, 0, 'You are being rate limited.');
      error.extra = { retry_after: Number(resetAfter.toFixed(3)), global: false };
      error.headers = {
        ...headers,
        'x-ratelimit-remaining': '0',
        'retry-after': String(Math.max(1, Math.ceil(resetAfter))),
        'x-ratelimit-scope': 'user',
      };
      throw error;
    }
    bucket.remaining -= 1;
    return { ...headers, 'x-ratelimit-remaining': String(bucket.remaining) };
  }

  /** The message a create with this nonce made within the window, if any (`enforce_nonce`). */
  nonceHit(key: string): string | undefined {
    const seen = this.#nonces.get(key);
    if (!seen || this.nonceClock() - seen.at >= this.nonceWindowMs) return undefined;
    return seen.messageId;
  }

  noteNonce(key: string, messageId: string): void {
    this.#nonces.set(key, { messageId, at: this.nonceClock() });
  }

  noteCreated(channelId: string, repeat: boolean): void {
    this.#count(channelId, repeat ? 'nonceRepeats' : 'created');
  }
}
