/**
 * A same-race multi's reads and request: the race's win prices at the books (one price check for every active
 * session), whether the legs' runners are still priced at Confirm, and the place_bet body (decision 1975).
 */

import type { RacingSameRaceMulti } from '../../gateway/index.js';
import type { GatewayPort } from '../gateway-port.js';
import type { BookWinPrices, LegPosition } from '../model/multi-fair.js';
import { positionWords } from '../model/multi-fair.js';
import type { MultiSlipInfo, RaceKey } from '../model/racing-bet.js';
import type { SlipPayload } from '../model/slip-rules.js';
import { UserFacingError } from '../model/user-facing-error.js';
import { waitForPriceCheck } from './price-wait.js';

/** The lowest target_odds a floor can be: a multi without min_odds takes the book's price, whatever it is. */
export const NO_FLOOR = 1.01;

const loose = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');
const callback = (url: string | undefined) => (url ? { callback_url: url } : {});

/** "Alpha win + Echo top 3". */
export const legsText = (m: { legs: ReadonlyArray<{ runner: string; position: LegPosition }> }): string =>
  m.legs.map((l) => `${l.runner} ${positionWords(l.position)}`).join(' + ');

/** One session's answer: its book and win prices by runner as the book names them, or why it has none. */
export interface RaceRead extends BookWinPrices {
  sessionId: string;
  error?: string;
}

/** The race's win prices at each session (one price check for all; a book that fails is read as empty). */
export async function raceWinPrices(
  gateway: GatewayPort,
  race: RaceKey,
  sessions: ReadonlyArray<{ session_id: string; bookie: string }>,
  callbackUrl: string | undefined,
  waitMs: number,
  /** Told of each book's answer as it comes (the runner autocomplete answers from the first). */
  onRead?: (read: RaceRead) => void,
): Promise<RaceRead[]> {
  const submission = await gateway.priceChecks.racing({
    session_ids: sessions.map((s) => s.session_id),
    category: 'racing',
    track: race.track,
    race_num: race.raceNum,
    race_type: race.raceType,
    date: race.date,
    ...callback(callbackUrl),
  });
  return Promise.all(
    submission.jobs.map(async (job, i) => {
      const session = sessions.find((s) => s.session_id === job.sessionId) ?? sessions[i];
      const base = { sessionId: session?.session_id ?? '', bookie: session?.bookie ?? '?', win: new Map() };
      const out = await waitForPriceCheck(job, session?.bookie, waitMs).catch(() => undefined);
      const result = (out?.status === 'completed' ? out.result : undefined) as
        | { status?: string; error?: unknown; selections?: Array<{ runner?: unknown; prices?: unknown }> }
        | undefined;
      if (result?.status !== 'success') {
        return { ...base, error: typeof result?.error === 'string' ? result.error : `price check ${out?.status}` };
      }
      const win = new Map<string, number>();
      for (const row of result.selections ?? []) {
        const prices = Array.isArray(row.prices) ? (row.prices as Array<{ market?: unknown; price?: unknown }>) : [];
        const price = prices.find((p) => p.market === 'win')?.price;
        if (typeof row.runner === 'string' && typeof price === 'number' && price > 1) win.set(row.runner, price);
      }
      onRead?.({ ...base, win });
      return { ...base, win };
    }),
  );
}

/** The runner as the book names it, and its win price there; undefined when the book does not price it. */
export function bookRunner(read: BookWinPrices, runner: string): { runner: string; price: number } | undefined {
  for (const [name, price] of read.win) if (loose(name) === loose(runner)) return { runner: name, price };
  return undefined;
}

/** At Confirm: every leg's runner is still priced at the book (a scratched runner refuses the multi). */
export async function multiStillPriced(
  gateway: GatewayPort,
  sessionId: string,
  multi: MultiSlipInfo,
  callbackUrl: string | undefined,
  waitMs: number,
): Promise<void> {
  const [read] = await raceWinPrices(gateway, multi, [{ session_id: sessionId, bookie: '' }], callbackUrl, waitMs);
  const missing = multi.legs.filter((l) => !read || !bookRunner(read, l.runner)).map((l) => l.runner);
  if (missing.length > 0) {
    throw new UserFacingError(
      `The book no longer prices ${missing.join(', ')} in ${multi.track} R${multi.raceNum}${read?.error ? ` (${read.error.slice(0, 200)})` : ''}. Make a new multi without ${missing.length === 1 ? 'it' : 'them'}.`,
    );
  }
}

/** The place_bet body of a multi slip: legs instead of runner and market, the member's floor as target_odds. */
export function multiBetRequest(
  p: SlipPayload,
  multi: MultiSlipInfo,
  stake: number,
  callbackUrl: string | undefined,
): RacingSameRaceMulti {
  return {
    session_id: p.sessionId,
    category: 'racing',
    track: multi.track,
    race_num: multi.raceNum,
    race_type: multi.raceType,
    date: multi.date,
    is_same_event_multi: true,
    legs: multi.legs.map((l) => ({ runner: l.runner, market: l.position })),
    stake,
    target_odds: p.minOdds ?? NO_FLOOR,
    ...(p.useBonusBet ? { use_bonus_bet: true } : {}),
    ...callback(callbackUrl),
  };
}
