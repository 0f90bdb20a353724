import { z } from 'zod';

/**
 * A string field whose documented values are listed for autocompletion, while values the spec does not list yet
 * are still accepted (a newer gateway must not break an older client).
 */
export type Open<T extends string> = T | (string & {});
/** A response string typed as Open<T>; at runtime any string passes. */
export const openEnum = <T extends string>(): z.ZodType<Open<T>> => z.string() as unknown as z.ZodType<Open<T>>;

/** YYYY-MM-DD that is also a real calendar day (2026-02-30 is refused). */
export const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'must be a real calendar day (YYYY-MM-DD)');

export const nonEmpty = z.string().min(1, 'must not be empty');
export const positiveMoney = z.number().finite().positive('must be a positive number of dollars');
export const positiveOdds = z.number().finite().positive('must be positive decimal odds');
export const positiveInt = z.number().int('must be a whole number').positive('must be greater than 0');
export const callbackUrl = z
  .string()
  .regex(/^https?:\/\//, 'must be an http:// or https:// URL')
  .refine((s) => URL.canParse(s), 'must be a valid URL');
export const raceType = z.enum(['(R)', '(G)', '(H)'], { error: "must be '(R)', '(G)' or '(H)'" });
export const randomDelay = z
  .strictObject({
    /** Seconds; default 0. */
    min: z.number().nonnegative().optional(),
    /** Seconds; the delay applies only when max > 0. */
    max: z.number().nonnegative(),
  })
  // The gateway refuses min above a positive max with 400; say so before sending.
  .refine((d) => d.max === 0 || (d.min ?? 0) <= d.max, {
    message: 'min must not be above max (seconds)',
    path: ['min'],
  });

/** Session-scoped async body: the shared head of most v3 job submissions. */
export const sessionScoped = {
  /** The session to run the job on (must belong to the key's account). */
  session_id: nonEmpty,
  /** http(s) URL the gateway POSTs the signed result to when the job leaves pending; omit to poll only. */
  callback_url: callbackUrl.optional(),
};

/** Responses: tolerant reader. Numbers sometimes arrive as numeric strings in legacy shapes. */
export const numberish = z.union([z.number(), z.string()]);
export const nullableString = z.string().nullable();

/** How a sports outcome is named by text: shared by a sports bet and a sports price check (same matching). */
export const sportsSelectionFields = {
  /** League string (lowercase or preset name, e.g. `nba`, `NBA`). */
  competition: nonEmpty,
  /** Match name as the bookmaker shows it. */
  event: nonEmpty,
  /** Canonical market id, e.g. head_to_head, line, total_points, player props. */
  market: nonEmpty,
  /** home, away, over, under, a team or a player, depending on the market. */
  selection: nonEmpty,
  /** Preset sport/league key. */
  sport: z.string().optional(),
  /** Player of a player prop. */
  player: z.string().optional(),
  /** Line of an over/under or handicap (a numeric string for scorer thresholds). */
  line: numberish.optional(),
  /** Kickoff time; disambiguates repeat fixtures in a day. */
  start_time_iso: z.string().optional(),
  /** Event key (recommended): the bookmaker's own spelling of the event is attached when it resolves. */
  epk: z.string().optional(),
};
