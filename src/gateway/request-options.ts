/**
 * Options every client method takes as its last argument.
 *
 * Deadline: `timeoutMs` is ONE deadline for the whole call, counted from the moment the method is called:
 * every attempt and the waits between retries (backoff and Retry-After). A retry that could not start before the
 * deadline is not started; the last error is thrown instead. The one exception is a card read's first wait in
 * the client's card-limit queue: that wait is bounded by `maxQueueMs` (and `signal`), and the deadline starts when
 * the read is first let through (a 429's pause after that counts against it).
 */
export interface RequestOptions {
  /** Aborts the call wherever it is (queued, waiting to retry, in flight); it rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** One deadline for the whole call in milliseconds, retries included. Default: the client's `timeoutMs` (10 000). */
  timeoutMs?: number | undefined;
  /**
   * Retries of a read after a transient failure (connection error, 429, 5xx). Default: the client's `maxRetries`
   * (2). State-changing calls (bets, promos, withdrawals, splits, session commands) are never retried once they
   * may have reached the gateway, whatever this says.
   */
  maxRetries?: number | undefined;
  /** Extra request headers (tracing and the like). `x-api-key` cannot be set here. */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Escape hatch for body fields this library does not know yet: added to the validated JSON body as they are.
   * A name the library already types is refused (set it through the typed request instead).
   */
  extraBody?: Readonly<Record<string, unknown>> | undefined;
  /** Escape hatch for query parameters this library does not know yet (GET endpoints), as for `extraBody`. */
  extraQuery?: Readonly<Record<string, string | number | boolean>> | undefined;
}
