/**
 * A refusal the member can act on, decided by a service (a rule, a limit, a book that did not answer): its message is
 * shown as is (ephemeral) by whoever speaks to Discord. It lives in the model so that the services that decide it
 * need nothing of Discord (decision 1930).
 */
export class UserFacingError extends Error {
  override name = 'UserFacingError';
  /** A refusal worth a log line of its own (e.g. a book that did not answer); without it none is written. */
  log?: { level: 'info' | 'warn'; line: string; fields: Record<string, unknown> };
}

/**
 * A book that takes no bets on the event's sport at all (its price check answered `not_offered`): said in words
 * with the books that do take it; an alert's Bet button routes to the best of those instead (decision 1996).
 */
export class SportNotTakenError extends UserFacingError {
  override name = 'SportNotTakenError';
  constructor(
    message: string,
    readonly bookie: string,
    readonly sport: string,
  ) {
    super(message);
  }
}
