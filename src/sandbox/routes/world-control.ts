// World controls for tests and local tools, mounted with the other /_sandbox routes (control mode only).
import type { Route } from '../core/http.js';
import { ApiError, ok } from '../core/reply.js';
import { isBookie } from '../world/books.js';
import { closingOf } from '../world/closing.js';
import { iso } from '../world/dates.js';
import { finishingOrder, type Race } from '../world/racing.js';
import { optionalString, requireInRange } from './validate.js';

export const worldControlRoutes: Route[] = [
  {
    // Moves prices now: {factor, bookie?, epk?, race_key?, market?, selection?}; live prices at once, cards from the next scrape.
    method: 'POST',
    path: '/_sandbox/world/drift',
    auth: 'none',
    handler: ({ sb, body }) => {
      const world = sb.world;
      const factor = requireInRange(body, 'factor', { min: 0.01, max: 100 });
      const bookie = optionalString(body, 'bookie');
      const epk = optionalString(body, 'epk');
      const raceKey = optionalString(body, 'race_key');
      const market = optionalString(body, 'market');
      const selection = optionalString(body, 'selection');
      const drift = world.forceDrift({
        factor,
        ...(bookie ? { bookie } : {}),
        ...(epk ? { epk } : {}),
        ...(raceKey ? { raceKey } : {}),
        ...(market ? { market } : {}),
        ...(selection ? { selection } : {}),
      });
      return ok({ drift: { ...drift, at: iso(drift.atMs) } });
    },
  },
  {
    // What the world knows about one event: status, and per book its site_event_id and when it links.
    method: 'GET',
    path: '/_sandbox/world/event',
    auth: 'none',
    handler: ({ sb, query }) => {
      const world = sb.world;
      const epk = query.get('epk') ?? '';
      const ev = world.findEvent(epk);
      if (!ev) throw new ApiError(404, { detail: `Unknown event '${epk}': send an event_id from GET /odds/v1/events` });
      const now = world.nowMs();
      return ok({
        epk: ev.epk,
        status: world.status(ev, now),
        start_time: iso(ev.startMs),
        books: ev.links.map((l) => ({
          bookie: l.bookie,
          site_event_id: l.siteEventId,
          linked: l.linkedFromMs <= now,
          links_at: Number.isFinite(l.linkedFromMs) ? iso(l.linkedFromMs) : null,
        })),
      });
    },
  },
  {
    // The recorded close of an event (epk) or race (racing key) per book: the card read just before the off.
    method: 'GET',
    path: '/_sandbox/world/closing',
    auth: 'none',
    handler: ({ sb, query }) => {
      const epk = query.get('epk') ?? '';
      if (epk === '') {
        throw new ApiError(400, {
          detail: "Query parameter 'epk' is required: an event_id or a racing key",
          field: 'epk',
        });
      }
      const bookie = query.get('bookie') || undefined;
      if (bookie !== undefined && !isBookie(bookie)) {
        throw new ApiError(400, { detail: `Unknown bookie '${bookie}'`, field: 'bookie' });
      }
      const closing = closingOf(sb.world, epk, bookie);
      if (closing.kind === 'unknown') {
        throw new ApiError(404, {
          detail: `Unknown event '${epk}': send an event_id from GET /odds/v1/events or a racing key <track>/<race_num>/<race_type>/<country>/<date>`,
          field: 'epk',
        });
      }
      if (closing.kind === 'not_off') {
        throw new ApiError(409, {
          detail: `'${epk}' has not gone off yet: its close is the card read just before the off (${iso(closing.offMs)}); advance the clock past it`,
          off_at: iso(closing.offMs),
        });
      }
      return ok(closing);
    },
  },
  {
    // Runs a race now and says how it finished: {race_key?}; without one, the next race holding an open bet (the
    // playground's "Run next race with bets"). Its bets settle as at the race's own result.
    method: 'POST',
    path: '/_sandbox/world/race',
    auth: 'none',
    handler: ({ sb, body }) => {
      const asked = optionalString(body, 'race_key');
      const race = asked ? sb.world.raceByKey(asked) : nextRaceWithBets(sb.world, sb.ledger.openBets());
      if (!race) {
        throw asked
          ? new ApiError(404, {
              detail: `Unknown race '${asked}': send a racing key <track>/<race_num>/<race_type>/<country>/<date>`,
              field: 'race_key',
            })
          : new ApiError(409, { detail: 'No race holds an open bet: place one with /bet-racing or /multi first.' });
      }
      const { settled } = sb.world.settle(sb.ledger, race.key);
      const order = finishingOrder(sb.world.seed, race).map((number, i) => ({
        place: i + 1,
        number,
        runner: race.runners.find((r) => r.number === number)?.name ?? `#${number}`,
      }));
      const { key, track, race_num, race_type, date } = race;
      return ok({ race: { race_key: key, track, race_num, race_type, date }, order, settled });
    },
  },
];

/** The earliest race that an open bet is on. */
function nextRaceWithBets(
  world: { raceByKey(key: string): Race | undefined },
  open: ReadonlyArray<{ race_key?: string | undefined }>,
): Race | undefined {
  const races = open.flatMap((b) => {
    const race = b.race_key ? world.raceByKey(b.race_key) : undefined;
    return race ? [race] : [];
  });
  return races.sort((a, b) => a.startMs - b.startMs)[0];
}
