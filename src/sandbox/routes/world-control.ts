// World controls for tests and local tools, mounted with the other /_sandbox routes (control mode only).
import type { Route } from '../core/http.js';
import { ApiError, ok } from '../core/reply.js';
import { isBookie } from '../world/books.js';
import { closingOf } from '../world/closing.js';
import { iso } from '../world/dates.js';
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
];
