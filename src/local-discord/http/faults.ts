import { DiscordApiError } from '../api-error.js';

/** A fault to inject into matching REST calls: a status (429, 500, 503 …), a delay, or both. */
export interface FaultSpec {
  /** HTTP method to match; any when absent. */
  method?: string;
  /** Matches the path after /api/v10, e.g. '/interactions/' or /\/channels\/\d+\/messages$/. A string matches as a substring. */
  path: string | RegExp;
  /** Answer with this status instead of running the route. Absent: the route runs (after `delayMs`). */
  status?: number;
  /** Wait this long before answering (Discord being slow). */
  delayMs?: number;
  /**
   * Run the route at once (a posted message exists and members see it), then hold the answer this long: the bot
   * learns the message's id late.
   */
  answerDelayMs?: number;
  /** For 429: seconds the client must wait (sent as `retry-after` and `retry_after`). */
  retryAfterSeconds?: number;
  /** How many matching calls it applies to; default 1, Infinity for all. */
  times?: number;
}

interface ActiveFault extends FaultSpec {
  remaining: number;
}

/** Faults for chaos tests; the first matching fault with calls remaining applies. */
export class FaultInjector {
  #faults: ActiveFault[] = [];

  inject(spec: FaultSpec): void {
    this.#faults.push({ ...spec, remaining: spec.times ?? 1 });
  }

  clear(): void {
    this.#faults = [];
  }

  /** Consumes and returns the fault for this call, if any. */
  take(method: string, path: string): FaultSpec | undefined {
    const fault = this.#faults.find(
      (f) =>
        f.remaining > 0 &&
        (f.method === undefined || f.method.toUpperCase() === method) &&
        (typeof f.path === 'string' ? path.includes(f.path) : f.path.test(path)),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    this.#faults = this.#faults.filter((f) => f.remaining > 0);
    return fault;
  }
}

/** The error a status fault answers with, shaped like Discord's. */
export function faultError(fault: FaultSpec): DiscordApiError {
  const status = fault.status ?? 500;
  if (status === 429) {
    const seconds = fault.retryAfterSeconds ?? 0.05;
    const error = new DiscordApiError(429, 0, 'You are being rate limited.');
    error.extra = { retry_after: seconds, global: false };
    error.headers = {
      'retry-after': String(Math.ceil(seconds)),
      'x-ratelimit-scope': 'user',
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset-after': String(seconds),
      'x-ratelimit-bucket': 'local-fault',
    };
    return error;
  }
  return new DiscordApiError(status, 0, `${status}: injected by the local Discord`);
}
