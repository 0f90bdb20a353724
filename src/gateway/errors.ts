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
 * Base of every error the client throws. The transport builds these from redacted data only,
 * so the API key can never reach message, stack, toJSON or util.inspect.
 */
export class GatewayError extends Error {
  /** The fields a subclass adds to the base ones, shown by toJSON in this order (each subclass names its own). */
  protected static readonly fields: readonly string[] = [];
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

  constructor(message: string, init: GatewayErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.body = init.body;
    this.method = init.method;
    this.path = init.path;
    this.correlationId = init.correlationId;
    this.headers = init.headers;
    this.requestId = init.requestId;
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
        (this.constructor as typeof GatewayError).fields.map((f) => [
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
export class APIError extends GatewayError {
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
export class DeprecatedEndpointError extends APIError {
  override name = 'DeprecatedEndpointError';
  protected static override readonly fields = ['use'];
  /** The successor the gateway names, e.g. 'POST /v3/place_bet'. */
  readonly use: string | undefined;
  constructor(message: string, init: GatewayErrorInit & { use?: string | undefined }) {
    super(message, init);
    this.use = init.use;
  }
}
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError';
  protected static override readonly fields = ['validTiers'];
  /** Sent with 422 for an unknown market-card tier. */
  readonly validTiers: string[] | undefined;
  constructor(message: string, init: GatewayErrorInit & { validTiers?: string[] | undefined }) {
    super(message, init);
    this.validTiers = init.validTiers;
  }
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
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  protected static override readonly fields = ['retryAfterMs'];
  readonly retryAfterMs: number | undefined;
  constructor(message: string, init: GatewayErrorInit & { retryAfterMs?: number | undefined }) {
    super(message, init);
    this.retryAfterMs = init.retryAfterMs;
  }
}
export class ServerError extends APIError {
  override name = 'ServerError';
}
export class ServiceUnavailableError extends ServerError {
  override name = 'ServiceUnavailableError';
  protected static override readonly fields = ['retryAfterMs'];
  /** The gateway's Retry-After, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, init: GatewayErrorInit & { retryAfterMs?: number | undefined }) {
    super(message, init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * The client was closed (or is closing) while this call was queued, sleeping before a retry, or in flight.
 * For a state-changing call in flight, `mayHaveReachedServer` says whether to check its result before resending.
 */
export class ClientClosedError extends GatewayError {
  override name = 'ClientClosedError';
  protected static override readonly fields = ['mayHaveReachedServer'];
  readonly mayHaveReachedServer: boolean;
  constructor(what: string, init: GatewayErrorInit & { mayHaveReachedServer?: boolean; detail?: string } = {}) {
    const detail =
      init.detail ??
      (init.mayHaveReachedServer
        ? ' while the request was in flight; it may have reached the gateway, so check its result before sending it again'
        : '; nothing was sent');
    super(`${what}: the gateway client was closed${detail}. Create a new GatewayClient to continue.`, init);
    this.mayHaveReachedServer = init.mayHaveReachedServer ?? false;
  }
}

/**
 * A card read was refused before sending: the client's own card limit would hold it longer than the caller's
 * maxQueueMs. Nothing was sent; retry after `retryAfterMs`.
 */
export class CardLimitError extends GatewayError {
  override name = 'CardLimitError';
  protected static override readonly fields = ['retryAfterMs'];
  /** Estimated milliseconds until a slot frees. */
  readonly retryAfterMs: number;
  constructor(message: string, init: GatewayErrorInit & { retryAfterMs: number }) {
    super(message, init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** The request failed below HTTP. `mayHaveReachedServer` false only when no byte can have been sent. */
export class NetworkError extends GatewayError {
  override name = 'NetworkError';
  protected static override readonly fields = ['code', 'mayHaveReachedServer'];
  readonly mayHaveReachedServer: boolean;
  readonly code: string | undefined;
  constructor(message: string, init: GatewayErrorInit & { mayHaveReachedServer: boolean; code?: string | undefined }) {
    super(message, init);
    this.mayHaveReachedServer = init.mayHaveReachedServer;
    this.code = init.code;
  }
}

/** The per-request deadline passed. For a state-changing call, re-poll or check before resubmitting. */
export class RequestTimeoutError extends GatewayError {
  override name = 'RequestTimeoutError';
  protected static override readonly fields = ['timeoutMs', 'mayHaveReachedServer'];
  readonly mayHaveReachedServer: boolean;
  readonly timeoutMs: number;
  constructor(message: string, init: GatewayErrorInit & { mayHaveReachedServer: boolean; timeoutMs: number }) {
    super(message, init);
    this.mayHaveReachedServer = init.mayHaveReachedServer;
    this.timeoutMs = init.timeoutMs;
  }
}

/**
 * The answer was larger than the client's `maxResponseBytes`: the client stopped reading it and closed the
 * connection instead of holding it all in memory. The request did reach the gateway.
 */
export class ResponseTooLargeError extends GatewayError {
  override name = 'ResponseTooLargeError';
  protected static override readonly fields = ['limitBytes', 'mayHaveReachedServer'];
  /** The limit in force (the client option maxResponseBytes). */
  readonly limitBytes: number;
  readonly mayHaveReachedServer = true;
  constructor(message: string, init: GatewayErrorInit & { limitBytes: number }) {
    super(message, init);
    this.limitBytes = init.limitBytes;
  }
}

/** The gateway answered 2xx with a body that does not match the documented shape. */
export class ResponseShapeError extends GatewayError {
  override name = 'ResponseShapeError';
  protected static override readonly fields = ['issues', 'jobCompleted'];
  readonly issues: string[];
  /**
   * True when the body was a completed job's result: the job itself is done at the gateway (a bet may be placed),
   * so never resubmit it; read the result from `body` or from the gateway's transactions.
   */
  readonly jobCompleted: boolean;
  constructor(message: string, init: GatewayErrorInit & { issues: string[]; jobCompleted?: boolean }) {
    super(message, init);
    this.issues = init.issues;
    this.jobCompleted = init.jobCompleted ?? false;
  }
}

/** Thrown before sending: the request object breaks a rule of the spec. `field` names the culprit. */
export class RequestValidationError extends GatewayError {
  override name = 'RequestValidationError';
  protected static override readonly fields = ['field', 'issues'];
  readonly field: string;
  readonly issues: { field: string; message: string }[];
  constructor(
    message: string,
    init: GatewayErrorInit & { field: string; issues: { field: string; message: string }[] },
  ) {
    super(message, init);
    this.field = init.field;
    this.issues = init.issues;
  }
}
