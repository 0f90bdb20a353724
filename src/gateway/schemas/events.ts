import { z } from 'zod';
import { checked } from '../shape-check.js';
import { isoDay } from './common.js';

const DAY_MS = 86_400_000;
export const MAX_WINDOW_DAYS = 31;

/** Inclusive count of event days from since to until (both YYYY-MM-DD). */
export function windowDays(since: string, until: string): number {
  return Math.round((Date.parse(`${until}T00:00:00Z`) - Date.parse(`${since}T00:00:00Z`)) / DAY_MS) + 1;
}

export const EventStatus = z.enum(['prematch', 'in_play', 'finished'], {
  error: "must be 'prematch', 'in_play' or 'finished'",
});

export const EventsQuery = z
  .strictObject({
    sport: z.string().min(1).optional(),
    league: z.string().min(1).optional(),
    country: z.string().min(1).optional(),
    date: isoDay.optional(),
    since: isoDay.optional(),
    until: isoDay.optional(),
    status: EventStatus.optional(),
    include_outrights: z.boolean().optional(),
    limit: z.number().int('must be a whole number').min(1, 'must be 1 to 500').max(500, 'must be 1 to 500').optional(),
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
export type EventsQuery = z.input<typeof EventsQuery>;

export const Competitor = z.looseObject({
  id: z.string().nullish(),
  name: z.string(),
  side: z.string().nullish(),
  logo_url: z.string().nullish(),
});

export const Score = z.looseObject({
  status: z.string().optional(),
  home_score: z.number().nullish(),
  away_score: z.number().nullish(),
  source: z.string().nullish(),
  source_game_id: z.string().nullish(),
});

export const Event = z.looseObject({
  event_id: z.string(),
  sport: z.string(),
  league: z.string(),
  country: z.string().optional(),
  name: z.string(),
  home: z.string().nullable().optional(),
  away: z.string().nullable().optional(),
  participants: z.array(z.string()).optional(),
  competitors: z.array(Competitor).optional(),
  is_outright: z.boolean().optional(),
  start_time: z.string(),
  status: z.string(),
  books: z.array(z.string()),
  score: Score.nullish(),
  has_closing: z.boolean().nullish(),
  off_at: z.string().nullish(),
  off_source: z.string().nullish(),
});
export type Event = z.infer<typeof Event>;

const EventsPageShape = z.looseObject({
  count: z.number(),
  truncated: z.boolean().optional(),
  next_cursor: z.string().nullable().optional(),
  since: z.string().nullish(),
  until: z.string().nullish(),
  data: z.array(Event),
  generated_at: z.string().optional(),
});
/** Checked by a generated validator; safeParse returns the body itself (see shape-check.ts). */
export const EventsPage = checked(EventsPageShape);
export type EventsPage = z.infer<typeof EventsPageShape>;
