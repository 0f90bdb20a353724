import { z } from 'zod';

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
    min: z.number().nonnegative().optional(),
    max: z.number().nonnegative(),
  })
  // The gateway refuses min above a positive max with 400; say so before sending.
  .refine((d) => d.max === 0 || (d.min ?? 0) <= d.max, {
    message: 'min must not be above max (seconds)',
    path: ['min'],
  });

/** Session-scoped async body: the shared head of most v3 job submissions. */
export const sessionScoped = {
  session_id: nonEmpty,
  callback_url: callbackUrl.optional(),
};

/** Responses: tolerant reader. Numbers sometimes arrive as numeric strings in legacy shapes. */
export const numberish = z.union([z.number(), z.string()]);
export const nullableString = z.string().nullable();

/** How a sports outcome is named by text: shared by a sports bet and a sports price check (same matching). */
export const sportsSelectionFields = {
  competition: nonEmpty,
  event: nonEmpty,
  market: nonEmpty,
  selection: nonEmpty,
  sport: z.string().optional(),
  player: z.string().optional(),
  line: numberish.optional(),
  start_time_iso: z.string().optional(),
  epk: z.string().optional(),
};
