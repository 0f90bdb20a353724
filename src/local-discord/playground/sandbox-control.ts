// The page's "Sandbox" panel: the embedded sandbox's clock, moved on and settled through its control routes.
// The sandbox clock runs at real speed, so without these a person would wait hours to see a result.
import { z } from 'zod';
import { ApiError } from './api.js';

const HOUR_MS = 3_600_000;
/** A month at most per press: enough to finish any fixture event, small enough to stay a deliberate step. */
const MAX_ADVANCE_MS = 31 * 24 * HOUR_MS;

const advanceBody = z.object({
  ms: z
    .number({ error: '"ms" is required: how far to move the sandbox clock, in milliseconds (3600000 is an hour)' })
    .int({ error: '"ms" must be a whole number of milliseconds' })
    .positive({ error: '"ms" must be more than 0: the sandbox clock only moves forward' })
    .max(MAX_ADVANCE_MS, { error: `"ms" must be at most ${MAX_ADVANCE_MS} (31 days) per step` }),
});

/** How the sandbox's bookmakers answer the next withdrawals: at once, held pending, or refused. */
export const WITHDRAWAL_MODES = ['completed', 'pending', 'failed'] as const;
export type WithdrawalMode = (typeof WITHDRAWAL_MODES)[number];

/** The selection of the latest watch the bot holds (from the bot, when the playground runs one). */
export interface WatchedSelection {
  epk: string;
  market: string;
  /** Null: a value watch on a whole market. */
  selection: string | null;
  /** The selection as members read it ("Sacramento Kings"), when the watch names one. */
  selectionLabel?: string | null;
  /** The watch's one book, or null for any of `books`. */
  bookie: string | null;
  books: string[];
  rule: { kind: string; target?: number; direction?: string };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export interface SandboxClockView {
  /** The sandbox clock's time, ISO 8601. */
  now: string;
  /** Sandbox milliseconds per real millisecond (1: real time). */
  speed: number;
}

/** Talks to the embedded sandbox's /_sandbox routes on the page's behalf; exists only when those are on. */
export class SandboxControl {
  constructor(
    private readonly sandboxUrl: string,
    /** Told every clock reading, so the bot's clock can follow a move at once. */
    private readonly onClock: (view: { now: string; speed?: number }) => void = () => {},
    /** Told after events were settled, so the bot reads the settlements at once instead of at its next look. */
    private readonly onSettled: () => Promise<void> = async () => {},
    /** The latest watch's selection: what the price and steam buttons move. */
    private readonly latestWatch: () => Promise<WatchedSelection | undefined> = async () => undefined,
    /** Whether the account is one of the fund's (undefined: not known here, the page words both next steps). */
    private readonly fundHolds?: (account: { bookie: string; username: string }) => Promise<boolean>,
  ) {}

  /**
   * Moves the latest watch's price at its book (a price watch: just past its target; otherwise 25 % longer) from the
   * sandbox's next scrape, and moves the clock there so the bot's next read sees it.
   */
  async movePrice(): Promise<SandboxClockView & { moved: string }> {
    const w = await this.#watched();
    const bookie = w.bookie ?? w.books[0];
    if (!bookie) throw new ApiError(409, 'The latest watch names no book to move.');
    const { target, direction } = w.rule;
    const body =
      w.rule.kind === 'price' && typeof target === 'number'
        ? { price: round2(direction === 'below' ? target * 0.97 : target * 1.03) }
        : { factor: 1.25 };
    const { move } = (await this.#call('POST', '/_sandbox/world/price', {
      bookie,
      epk: w.epk,
      market: w.market,
      selection: w.selection,
      ...body,
    })) as { move: { price: number; scrape_at: string } };
    const view = await this.#toScrape(move.scrape_at);
    return { ...view, moved: `${w.name} at ${bookie} is ${move.price.toFixed(2)} from the next scrape` };
  }

  /** A steam move on the latest watch's selection: every one of its books 20 % shorter at the next scrape. */
  async steam(): Promise<SandboxClockView & { moved: string }> {
    const w = await this.#watched();
    const { steam } = (await this.#call('POST', '/_sandbox/world/steam', {
      epk: w.epk,
      market: w.market,
      selection: w.selection,
      factor: 0.8,
      ...(w.books.length >= 2 ? { books: w.books } : {}),
    })) as { steam: { books: { bookie: string; at: string }[] } };
    const last = steam.books
      .map((b) => b.at)
      .sort()
      .at(-1)!;
    const view = await this.#toScrape(last);
    return { ...view, moved: `${w.name} 20 % shorter at ${steam.books.map((b) => b.bookie).join(', ')}` };
  }

  async #watched(): Promise<WatchedSelection & { selection: string; name: string }> {
    const w = await this.latestWatch();
    if (!w || w.selection === null) {
      throw new ApiError(
        409,
        'No watch on one selection of an event still to start: add one with /watch price, value or moves naming a selection; the button moves it.',
      );
    }
    return { ...w, selection: w.selection, name: w.selectionLabel ?? w.selection };
  }

  /** Moves the clock a second past `at` (a scrape), when it is still ahead. */
  async #toScrape(at: string): Promise<SandboxClockView> {
    const now = await this.clock();
    const ms = Date.parse(at) + 1_000 - Date.parse(now.now);
    return ms > 0 ? { ...(await this.#move(Math.ceil(ms))), speed: now.speed } : now;
  }

  async clock(): Promise<SandboxClockView> {
    const state = (await this.#call('GET', '/_sandbox/state')) as { now: string; speed: number };
    this.onClock({ now: state.now, speed: state.speed });
    return { now: state.now, speed: state.speed };
  }

  /**
   * Moves the clock on (the panel's Advance buttons). Events that finished on the way were settled by the move, so
   * the bot reads the settlements before the panel answers, as after a settle: left to its own look (a minute
   * apart) the notices came 15-60 s after an Advance 1 day.
   */
  async advance(body: unknown): Promise<{ now: string }> {
    const moved = await this.#move(advanceBody.parse(body).ms);
    await this.onSettled();
    return moved;
  }

  async #move(ms: number): Promise<{ now: string }> {
    const moved = (await this.#call('POST', '/_sandbox/clock/advance', { ms })) as { now: string };
    this.onClock({ now: moved.now });
    return moved;
  }

  /** Finishes every started event now; `settled` counts the bets that settled. */
  async settle(): Promise<{ settled: number; now: string }> {
    const { settled } = (await this.#call('POST', '/_sandbox/settle', {})) as { settled: number };
    await this.onSettled();
    return { settled, ...(await this.clock()) };
  }

  /**
   * Runs the next race an open bet is on (a /bet-racing single, a /multi, a stack) and says how it finished, so a
   * multi visibly settles: the bot reads the settlements before the panel answers, as after a settle.
   */
  async runRace(): Promise<SandboxClockView & { said: string; settled: number }> {
    const done = (await this.#call('POST', '/_sandbox/world/race', {}, 'No race holds an open bet')) as {
      race: { track: string; race_num: number; race_type: string; date: string };
      order: Array<{ place: number; runner: string }>;
      settled: number;
    };
    await this.onSettled();
    const { race, order, settled } = done;
    const places = order
      .slice(0, 4)
      .map((o) => `${ORDINAL[o.place - 1]} ${o.runner}`)
      .join(', ');
    const bets = `${settled} bet${settled === 1 ? '' : 's'} settled: the notices follow in the results channel`;
    return {
      ...(await this.clock()),
      settled,
      said: `${race.track} R${race.race_num} (${race.race_type}, ${race.date}) has run: ${places}. ${bets}.`,
    };
  }

  /**
   * A member's money arriving: $100 into the first active session (the fund's cycle starts with a deposit the
   * treasurer then records with /fund contribute).
   */
  async deposit(): Promise<{
    deposit_id: string;
    session_id: string;
    bookie: string;
    username: string;
    /** The account is one of the fund's (absent: not known). */
    inFund?: boolean;
    now: string;
    speed: number;
  }> {
    const state = (await this.#call('GET', '/_sandbox/state')) as {
      sessions?: Array<{ session_id: string; status: string }>;
    };
    const session = state.sessions?.find((s) => s.status === 'active');
    if (!session) throw new ApiError(409, 'No active session to deposit into: start one with /sessions first.');
    const done = (await this.#call('POST', '/_sandbox/deposit', { session_id: session.session_id, amount: 100 })) as {
      deposit_id: string;
      bookie: string;
      username: string;
    };
    const inFund = await this.fundHolds?.({ bookie: done.bookie, username: done.username });
    return {
      deposit_id: done.deposit_id,
      session_id: session.session_id,
      bookie: done.bookie,
      username: done.username,
      ...(inFund === undefined ? {} : { inFund }),
      ...(await this.clock()),
    };
  }

  /**
   * The panel's withdrawal switch: the next mode in turn (at once → held pending → refused → at once), so a cash-out's
   * withdrawal can be left pending or failing and the treasurer's side of it tried (/fund members, /fund withdrawal).
   */
  async nextWithdrawalMode(): Promise<{ withdrawals: WithdrawalMode; said: string }> {
    const next = WITHDRAWAL_MODES[(WITHDRAWAL_MODES.indexOf(this.#withdrawals) + 1) % WITHDRAWAL_MODES.length]!;
    await this.#call('POST', '/_sandbox/withdrawals/mode', { mode: next });
    this.#withdrawals = next;
    return { withdrawals: next, said: WITHDRAWALS_SAID[next] };
  }

  /** Every withdrawal held pending completes at the bookmaker; how many did. */
  async completePendingWithdrawals(): Promise<{ completed: number; withdrawals: WithdrawalMode }> {
    const done = (await this.#call('POST', '/_sandbox/withdrawals/resolve', { status: 'completed' })) as {
      withdrawal_ids: string[];
    };
    return { completed: done.withdrawal_ids.length, withdrawals: this.#withdrawals };
  }

  /** What the bookmakers do with the next withdrawals (the sandbox starts answering them at once). */
  get withdrawals(): WithdrawalMode {
    return this.#withdrawals;
  }

  #withdrawals: WithdrawalMode = 'completed';

  /** `refusal`: what the panel says when the sandbox answers 409 (nothing to do), instead of a refusal's wording. */
  async #call(method: 'GET' | 'POST', path: string, body?: unknown, refusal?: string): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(new URL(path, this.sandboxUrl), {
        method,
        signal: AbortSignal.timeout(10_000),
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
    } catch (err) {
      throw new ApiError(502, `The sandbox did not answer (${(err as Error).message}): restart npm start.`);
    }
    const data = (await res.json().catch(() => ({}))) as { detail?: string };
    if (res.status === 409 && refusal) throw new ApiError(409, data.detail ?? refusal);
    if (!res.ok) {
      throw new ApiError(502, `The sandbox refused ${path} (${res.status}): ${data.detail ?? res.statusText}`);
    }
    return data;
  }
}

const ORDINAL = ['1st', '2nd', '3rd', '4th'];

/** What the panel says after the switch moved to a mode. */
const WITHDRAWALS_SAID: Record<WithdrawalMode, string> = {
  completed: 'Withdrawals complete at once again.',
  pending:
    "The bookmakers now hold each new withdrawal pending: a cash-out's withdrawal waits (/fund members says so) until you press Complete pending withdrawals.",
  failed:
    "The bookmakers now refuse each new withdrawal: a cash-out's withdrawal fails and waits to be tried again (/fund members says why).",
};

/** Why the panel's routes answer 404 when the playground runs against a gateway it does not control. */
export const NO_SANDBOX =
  'No sandbox controls here: they exist only when npm start runs the embedded sandbox (unset GATEWAY_BASE_URL).';
