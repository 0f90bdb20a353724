import type { DeskMetrics } from '../ops/metrics.js';

/** The answer to an interaction that arrives while the process drains after SIGTERM. */
export const RESTARTING = 'The desk is restarting — try again in a moment.';

/** When each interaction not yet acknowledged reached this process (hrtime), by interaction id. */
const arrivals = new Map<string, bigint>();

/** Interactions that reached the desk and whose acknowledgement has not been sent yet. */
const unsent = new Set<string>();
/** When the last interaction reached the desk, and the one before it (performance.now()). */
let lastArrival = Number.NEGATIVE_INFINITY;
let arrivalBefore = Number.NEGATIVE_INFINITY;
/** Work waiting for every acknowledgement under way to be sent (see `acksSent`). */
let waiting: Array<() => void> = [];

function wakeIfAllSent(): void {
  if (unsent.size > 0 || waiting.length === 0) return;
  const wake = waiting;
  waiting = [];
  for (const w of wake) w();
}

/** The interaction reached the desk: its acknowledgement is timed from here. */
export function arrived(interactionId: string): void {
  arrivals.set(interactionId, process.hrtime.bigint());
  unsent.add(interactionId);
  arrivalBefore = lastArrival;
  lastArrival = performance.now();
}

/** Its acknowledgement (the interaction callback) is leaving for Discord now. */
export function callbackSent(interactionId: string): void {
  if (unsent.delete(interactionId)) wakeIfAllSent();
}

/** How long work after a defer waits for other interactions' acknowledgements at most. */
export const ACKS_FIRST_MAX_WAIT_MS = 1_500;
/**
 * Two interactions this close together make a burst, and a burst is over once none arrived for this long (within
 * one they come a few milliseconds apart, in chunks that a busy connection delivers tens of milliseconds apart).
 */
export const BURST_QUIET_MS = 100;

/** Resolves when no acknowledgement is waiting to be sent, or after `ms`. */
function allSentOr(ms: number): Promise<void> {
  if (unsent.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      waiting = waiting.filter((w) => w !== done);
      resolve();
    }, ms);
    waiting.push(done);
  });
}

/**
 * Resolves once every interaction that has reached the desk has had its acknowledgement sent and, in a burst, none
 * has arrived for `BURST_QUIET_MS`; or after `maxMs`. A handler awaits it after its own defer and before its heavy work (a card
 * read and its rendering), so under a burst the acknowledgements go out first, as from a bot that only defers, and
 * the cards follow (Discord allows 3 s for the acknowledgement, 15 minutes for the reply). A lone interaction
 * does not wait.
 */
export async function acksSent(maxMs = ACKS_FIRST_MAX_WAIT_MS): Promise<void> {
  const until = performance.now() + maxMs;
  for (;;) {
    const now = performance.now();
    if (now >= until) return;
    if (unsent.size > 0) await allSentOr(until - now);
    else if (now - lastArrival >= BURST_QUIET_MS || lastArrival - arrivalBefore >= BURST_QUIET_MS) return;
    else await new Promise((r) => setTimeout(r, Math.min(BURST_QUIET_MS - (now - lastArrival), until - now)));
  }
}

/** Its acknowledgement (the interaction callback) was sent: the seconds since it arrived, told once. */
export function acknowledged(interactionId: string): number | undefined {
  const t0 = arrivals.get(interactionId);
  if (t0 === undefined) return undefined;
  arrivals.delete(interactionId);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** Handling ended; an interaction never acknowledged (autocomplete, a failure) stops being timed. */
export function finished(interactionId: string): void {
  arrivals.delete(interactionId);
  if (unsent.delete(interactionId)) wakeIfAllSent();
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

  /** Where each interaction's outcome is counted (desk_interactions_total), when metrics are kept. */
  constructor(readonly metrics?: Pick<DeskMetrics, 'interactions'>) {}

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
