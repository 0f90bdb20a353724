import { inspect } from 'node:util';

export interface GatewayErrorInit {
  status?: number | undefined;
  body?: unknown;
  method?: string | undefined;
  path?: string | undefined;
  correlationId?: string | undefined;
  /** Response headers (already stripped of the API key), when the gateway answered. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** The gateway's request id header (x-request-id), when it sent one. */
  requestId?: string | undefined;
  cause?: unknown;
}

/**
 * The constructor's init: a class that adds no fields takes it optionally, one that adds fields needs it (so a
 * required field left out is a type error).
 */
type InitArgs<Extra> = [keyof Extra] extends [never] ? [init?: GatewayErrorInit] : [init: GatewayErrorInit & Extra];

/** `T` where TypeScript must not infer it from (NoInfer, written so TypeScript before 5.4 reads it too). */
type Given<T> = [T][T extends unknown ? 0 : never];

/**
 * Base of every error the client throws. The transport builds these from redacted data only,
 * so the API key can never reach message, stack, toJSON or util.inspect.
 *
 * `Extra` is what a subclass's init adds to the base one. The subclass lists those fields in its static `fields`
 * (each with the value it takes when init leaves it out) and declares their types with `declare readonly`, which
 * emits no initializer that would overwrite the value this constructor copied.
 */
export class GatewayError<Extra extends object = object> extends Error {
  /** The fields a subclass adds to the base ones, in toJSON's order, each with its value when init leaves it out. */
  protected static readonly fields: Readonly<Record<string, unknown>> = {};
  override name = 'GatewayError';
  readonly status: number | undefined;
  readonly body: unknown;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly correlationId: string | undefined;
  /** Response headers, when the gateway answered (the API key stripped out). */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The gateway's request id (x-request-id header), when it sent one: quote it when reporting a problem. */
  readonly requestId: string | undefined;

  constructor(message: string, ...[init = {}]: InitArgs<Given<Extra>>) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.body = init.body;
    this.method = init.method;
    this.path = init.path;
    this.correlationId = init.correlationId;
    this.headers = init.headers;
    this.requestId = init.requestId;
    const given = init as Record<string, unknown>;
    for (const [field, absent] of Object.entries((this.constructor as typeof GatewayError).fields)) {
      (this as unknown as Record<string, unknown>)[field] = given[field] ?? absent;
    }
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      method: this.method,
      path: this.path,
      correlationId: this.correlationId,
      requestId: this.requestId,
      headers: this.headers,
      body: this.body,
      ...Object.fromEntries(
        Object.keys((this.constructor as typeof GatewayError).fields).map((f) => [
          f,
          (this as unknown as Record<string, unknown>)[f],
        ]),
      ),
    };
  }

  [inspect.custom](): string {
    return `${this.stack ?? `${this.name}: ${this.message}`}\n${inspect(this.toJSON(), { depth: 4 })}`;
  }
}

/** HTTP 4xx/5xx answered by the gateway. */
export class APIError<Extra extends object = object> extends GatewayError<Extra> {
  override name = 'APIError';
}

export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
/** 400 from place_bet: `{error: 'market not supported', market: 'each_way'}`. */
export class MarketNotSupportedError extends BadRequestError {
  override name = 'MarketNotSupportedError';
}
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
export class NoSubscriptionError extends PermissionDeniedError {
  override name = 'NoSubscriptionError';
}
export class SessionNotOwnedError extends PermissionDeniedError {
  override name = 'SessionNotOwnedError';
}
export class SessionNotActiveError extends PermissionDeniedError {
  override name = 'SessionNotActiveError';
}
export class BettingNotEnabledError extends PermissionDeniedError {
  override name = 'BettingNotEnabledError';
}
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
export class SessionNotFoundError extends NotFoundError {
  override name = 'SessionNotFoundError';
}
export class RaceNotFoundError extends NotFoundError {
  override name = 'RaceNotFoundError';
}
export class PromoNotFoundError extends NotFoundError {
  override name = 'PromoNotFoundError';
}
export class EventNotFoundError extends NotFoundError {
  override name = 'EventNotFoundError';
}
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
/** 409: the caller's site_event_id names a different match than the linked one; nothing was sent. */
export class SiteEventIdConflictError extends ConflictError {
  override name = 'SiteEventIdConflictError';
}
export class DeprecatedEndpointError extends APIError<{ use?: string | undefined }> {
  override name = 'DeprecatedEndpointError';
  protected static override readonly fields = { use: undefined };
  /** The successor the gateway names, e.g. 'POST /v3/place_bet'. */
  declare readonly use: string | undefined;
}
export class UnprocessableEntityError extends APIError<{ validTiers?: string[] | undefined }> {
  override name = 'UnprocessableEntityError';
  protected static override readonly fields = { validTiers: undefined };
  /** Sent with 422 for an unknown market-card tier. */
  declare readonly validTiers: string[] | undefined;
}
export class InvalidTierError extends UnprocessableEntityError {
  override name = 'InvalidTierError';
}
export class MarketRefBettingDisabledError extends UnprocessableEntityError {
  override name = 'MarketRefBettingDisabledError';
}
export class PromoNotPlaceableError extends UnprocessableEntityError {
  override name = 'PromoNotPlaceableError';
}
/** What a 429 or 503 adds to the base fields. */
interface RetryAfter {
  retryAfterMs?: number | undefined;
}
export class RateLimitError extends APIError<RetryAfter> {
  override name = 'RateLimitError';
  protected static override readonly fields = { retryAfterMs: undefined };
  /** The gateway's Retry-After, in milliseconds, when it sent one. */
  declare readonly retryAfterMs: number | undefined;
}
export class ServerError<Extra extends object = object> extends APIError<Extra> {
  override name = 'ServerError';
}
export class ServiceUnavailableError extends ServerError<RetryAfter> {
  override name = 'ServiceUnavailableError';
  protected static override readonly fields = { retryAfterMs: undefined };
  /** The gateway's Retry-After, in milliseconds, when it sent one. */
  declare readonly retryAfterMs: number | undefined;
}

/**
 * The client was closed (or is closing) while this call was queued, sleeping before a retry, or in flight.
 * For a state-changing call in flight, `mayHaveReachedServer` says whether to check its result before resending.
 */
export class ClientClosedError extends GatewayError<{ mayHaveReachedServer?: boolean }> {
  override name = 'ClientClosedError';
  protected static override readonly fields = { mayHaveReachedServer: false };
  declare readonly mayHaveReachedServer: boolean;
  constructor(what: string, init: GatewayErrorInit & { mayHaveReachedServer?: boolean; detail?: string } = {}) {
    const detail =
      init.detail ??
      (init.mayHaveReachedServer
        ? ' while the request was in flight; it may have reached the gateway, so check its result before sending it again'
        : '; nothing was sent');
    super(`${what}: the gateway client was closed${detail}. Create a new GatewayClient to continue.`, init);
  }
}

/**
 * A card read was refused before sending: the client's own card limit would hold it longer than the caller's
 * maxQueueMs. Nothing was sent; retry after `retryAfterMs`.
 */
export class CardLimitError extends GatewayError<{ retryAfterMs: number }> {
  override name = 'CardLimitError';
  protected static override readonly fields = { retryAfterMs: undefined };
  /** Estimated milliseconds until a slot frees. */
  declare readonly retryAfterMs: number;
}

/** The request failed below HTTP. `mayHaveReachedServer` false only when no byte can have been sent. */
export class NetworkError extends GatewayError<{ mayHaveReachedServer: boolean; code?: string | undefined }> {
  override name = 'NetworkError';
  protected static override readonly fields = { code: undefined, mayHaveReachedServer: undefined };
  declare readonly mayHaveReachedServer: boolean;
  declare readonly code: string | undefined;
}

/** The per-request deadline passed. For a state-changing call, re-poll or check before resubmitting. */
export class RequestTimeoutError extends GatewayError<{ mayHaveReachedServer: boolean; timeoutMs: number }> {
  override name = 'RequestTimeoutError';
  protected static override readonly fields = { timeoutMs: undefined, mayHaveReachedServer: undefined };
  declare readonly mayHaveReachedServer: boolean;
  declare readonly timeoutMs: number;
}

/**
 * The answer was larger than the client's `maxResponseBytes`: the client stopped reading it and closed the
 * connection instead of holding it all in memory. The request did reach the gateway.
 */
export class ResponseTooLargeError extends GatewayError<{ limitBytes: number }> {
  override name = 'ResponseTooLargeError';
  protected static override readonly fields = { limitBytes: undefined, mayHaveReachedServer: true };
  /** The limit in force (the client option maxResponseBytes). */
  declare readonly limitBytes: number;
  readonly mayHaveReachedServer = true;
}

/** The gateway answered 2xx with a body that does not match the documented shape. */
export class ResponseShapeError extends GatewayError<{ issues: string[]; jobCompleted?: boolean }> {
  override name = 'ResponseShapeError';
  protected static override readonly fields = { issues: undefined, jobCompleted: false };
  declare readonly issues: string[];
  /**
   * True when the body was a completed job's result: the job itself is done at the gateway (a bet may be placed),
   * so never resubmit it; read the result from `body` or from the gateway's transactions.
   */
  declare readonly jobCompleted: boolean;
}

/** Thrown before sending: the request object breaks a rule of the spec. `field` names the culprit. */
export class RequestValidationError extends GatewayError<{
  field: string;
  issues: { field: string; message: string }[];
}> {
  override name = 'RequestValidationError';
  protected static override readonly fields = { field: undefined, issues: undefined };
  declare readonly field: string;
  declare readonly issues: { field: string; message: string }[];
}
