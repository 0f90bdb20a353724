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
