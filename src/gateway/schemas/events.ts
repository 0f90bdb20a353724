import { z } from 'zod';
import { checked } from '../internal/shape-check.js';
import { isoDay, openEnum } from './common.js';

const DAY_MS = 86_400_000;
export const MAX_WINDOW_DAYS = 31;

/** Inclusive count of event days from since to until (both YYYY-MM-DD). */
export function windowDays(since: string, until: string): number {
  return Math.round((Date.parse(`${until}T00:00:00Z`) - Date.parse(`${since}T00:00:00Z`)) / DAY_MS) + 1;
}

/** `prematch`, `in_play` or `finished`. */
export const EventStatus = z.enum(['prematch', 'in_play', 'finished'], {
  error: "must be 'prematch', 'in_play' or 'finished'",
});
/** `prematch`, `in_play` or `finished`. */
export type EventStatus = z.infer<typeof EventStatus>;

/** Query of GET /odds/v1/events (each call costs 1 token). */
export const EventsQuery = z
  .strictObject({
    /** Sport key. */
    sport: z.string().min(1).optional(),
    /** League key. */
    league: z.string().min(1).optional(),
    /** Country code. */
    country: z.string().min(1).optional(),
    /** One event day, YYYY-MM-DD; not combinable with since/until. */
    date: isoDay.optional(),
    /** First event day, inclusive (window at most 31 days). */
    since: isoDay.optional(),
    /** Last event day, inclusive. */
    until: isoDay.optional(),
    /** `prematch`, `in_play` or `finished` (finished without a window: the last 7 days). */
    status: EventStatus.optional(),
    /** Include futures and tournament markets. Default false. */
    include_outrights: z.boolean().optional(),
    /** Rows per page, 1 to 500 (at most 200 finished). Default 100. */
    limit: z.number().int('must be a whole number').min(1, 'must be 1 to 500').max(500, 'must be 1 to 500').optional(),
    /** next_cursor of the previous page, with the same filters. */
    cursor: z.string().min(1).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.date !== undefined && (q.since !== undefined || q.until !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['date'],
        message: 'cannot be combined with since/until: send either date (one day) or a since..until window',
      });
    }
    if (q.since !== undefined && q.until !== undefined) {
      const days = windowDays(q.since, q.until);
      if (days < 1) ctx.addIssue({ code: 'custom', path: ['until'], message: 'must not be before since' });
      else if (days > MAX_WINDOW_DAYS) {
        ctx.addIssue({
          code: 'custom',
          path: ['until'],
          message: `window since..until spans ${days} days; at most ${MAX_WINDOW_DAYS} are allowed (split it into pages of dates)`,
        });
      }
    }
    if (q.status === 'finished' && q.limit !== undefined && q.limit > 200) {
      ctx.addIssue({ code: 'custom', path: ['limit'], message: 'must be at most 200 when status is finished' });
    }
  });
/** Query of GET /odds/v1/events (each call costs 1 token). */
export type EventsQuery = z.input<typeof EventsQuery>;

/** A team of a fixture. */
export const Competitor = z.looseObject({
  /** Team id. */
  id: z.string().nullish(),
  /** Team name. */
  name: z.string(),
  /** `home` or `away`. */
  side: openEnum<'home' | 'away'>().nullish(),
  /** Logo URL, or null. */
  logo_url: z.string().nullish(),
});
/** A team of a fixture. */
export type Competitor = z.infer<typeof Competitor>;

/** Live or final score (business/enterprise plans; null on prematch rows and uncovered leagues). */
export const Score = z.looseObject({
  /** `scheduled`, `live` or `final`. */
  status: openEnum<'scheduled' | 'live' | 'final'>().optional(),
  /** Home score. */
  home_score: z.number().nullish(),
  /** Away score. */
  away_score: z.number().nullish(),
  /** Where the score came from. */
  source: z.string().nullish(),
  /** The source's game id. */
  source_game_id: z.string().nullish(),
});
/** Live or final score (business/enterprise plans; null on prematch rows and uncovered leagues). */
export type Score = z.infer<typeof Score>;

/** A listed event (GET /odds/v1/events). */
export const Event = z.looseObject({
  /** Opaque id (the epk for sports): stored and sent back verbatim, never constructed. */
  event_id: z.string(),
  /** Sport key. */
  sport: z.string(),
  /** League key. */
  league: z.string(),
  /** Country code. */
  country: z.string().optional(),
  /** Display name. */
  name: z.string(),
  /** Home team; null for an outright. */
  home: z.string().nullable().optional(),
  /** Away team; null for an outright. */
  away: z.string().nullable().optional(),
  /** Participants; empty for an outright. */
  participants: z.array(z.string()).optional(),
  /** Teams with ids, sides and logos; empty for an outright. */
  competitors: z.array(Competitor).optional(),
  /** Futures and tournament markets. */
  is_outright: z.boolean().optional(),
  /** Start time (ISO 8601). */
  start_time: z.string(),
  /** `prematch`, `in_play` or `finished`. */
  status: openEnum<EventStatus>(),
  /** Books listing the event (card read within the last hour); on a finished row, books that were bound. */
  books: z.array(z.string()),
  /** Score on in-play and finished rows, else null. */
  score: Score.nullish(),
  /** Finished rows: whether closing prices exist; null = could not be checked. */
  has_closing: z.boolean().nullish(),
  /** Finished rows: when it went off. */
  off_at: z.string().nullish(),
  /** `quorum` (two or more books), `single_witness` (one) or `scheduled` (none). */
  off_source: openEnum<'quorum' | 'single_witness' | 'scheduled'>().nullish(),
});
/** A listed event (GET /odds/v1/events). */
export type Event = z.infer<typeof Event>;

const EventsPageShape = z.looseObject({
  /** Rows on this page. */
  count: z.number(),
  /** More matched than limit. */
  truncated: z.boolean().optional(),
  /** Cursor of the next page (same filters); null on the last page. A short page may not be the last. */
  next_cursor: z.string().nullable().optional(),
  /** First event day of the window, when one applies. */
  since: z.string().nullish(),
  /** Last event day of the window, when one applies. */
  until: z.string().nullish(),
  /** Events in start-time order, live and finished together. */
  data: z.array(Event),
  /** When the page was generated. */
  generated_at: z.string().optional(),
});
/** Checked by a generated validator; safeParse returns the body itself (see shape-check.ts). */
export const EventsPage = checked(EventsPageShape);
/** One page of GET /odds/v1/events. */
export type EventsPage = z.infer<typeof EventsPageShape>;
