import { METRICS } from '../config/metrics.js';

/** The answer to an interaction that arrives while the process drains after SIGTERM. */
export const RESTARTING = 'The desk is restarting — try again in a moment.';

/** When each interaction not yet acknowledged reached this process (hrtime), by interaction id. */
const arrivals = new Map<string, bigint>();

/** The interaction reached the desk: its acknowledgement is timed from here. */
export function arrived(interactionId: string): void {
  arrivals.set(interactionId, process.hrtime.bigint());
}

/** Its acknowledgement (the interaction callback) was sent: observed once into the ack histogram. */
export function acknowledged(interactionId: string): void {
  const t0 = arrivals.get(interactionId);
  if (t0 === undefined) return;
  arrivals.delete(interactionId);
  METRICS.ackSeconds.observe(Number(process.hrtime.bigint() - t0) / 1e9);
}

/** Handling ended; an interaction never acknowledged (autocomplete, a failure) stops being timed. */
export function finished(interactionId: string): void {
  arrivals.delete(interactionId);
}

/** `POST /interactions/{id}/{token}/callback`: the id of the interaction a REST call acknowledges, if it is one. */
export function callbackInteractionId(url: string): string | undefined {
  return /\/interactions\/(\d+)\/[^/]+\/callback(?:\?|$)/.exec(url)?.[1];
}

/**
 * What this process is handling, and whether it still takes new interactions: a drain closes it, then waits for
 * the interactions under way (a Confirm's claim and send) to finish.
 */
export class Intake {
  readonly #inFlight = new Set<Promise<unknown>>();
  #closed = false;

  get open(): boolean {
    return !this.#closed;
  }

  close(): void {
    this.#closed = true;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  track(p: Promise<unknown>): void {
    this.#inFlight.add(p);
    void p.finally(() => this.#inFlight.delete(p));
  }

  /** Resolves when every interaction taken so far has been handled. */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }
}
