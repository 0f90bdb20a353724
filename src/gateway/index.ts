// The library's public face: what a syndicate developer imports. The files beside this one (client, errors,
// resources, schemas, jobs, webhooks, receipts, the card limiter) are what it is made of and may be read as its
// reference; src/gateway/internal/ (transport, deadlines, retries, redaction, request and response checks, the
// signature) is how it works and is no one else's to import (test/unit/architecture/part-directions.test.ts).
export { APIPromise, type ResponseInfo, type WithResponse } from './api-promise.js';
export { type AmbiguousReason, type GuardedCard, guardCardIds, type IdClash } from './card-ids.js';
export { DEFAULT_TIMEOUT_MS, GatewayClient, type GatewayClientOptions } from './client.js';
export { errorFromResponse } from './error-map.js';
export * from './errors.js';
export type { DeprecationNotice, QueryValue } from './internal/transport.js';
export {
  type JobHandle,
  type JobOutcome,
  JobTracker,
  type PollerOptions,
  type WaitOptions,
} from './jobs.js';
export {
  type AdmissionOptions,
  type LimiterClock,
  MarketsLimiter,
  type MarketsLimiterOptions,
  type QueuedInfo,
  type ReadLane,
} from './markets-limiter.js';
export {
  type BetOutcome,
  betOutcomeOf,
  type PlacedBet,
  type PlacedSelection,
  placedSelectionOf,
  type UnplacedBet,
} from './receipts.js';
export type { RequestOptions } from './request-options.js';
export type { PromoJobHandle } from './resources/account-promos.js';
export { type EventsPageQuery, EventsPager, type EventsPagerOptions } from './resources/events.js';
export type { CardCache, MarketsGetOptions } from './resources/markets.js';
export type {
  PendingPriceCheck,
  PriceCheckJob,
  PriceCheckJobs,
  ResolvedPriceCheck,
} from './resources/price-checks.js';
export * from './schemas/index.js';
export { type SharedCardBudget, sharedGate } from './shared-card-budget.js';
export {
  CORRELATION_HEADER,
  DEFAULT_WEBHOOK_MAX_DEPTH,
  DEFAULT_WEBHOOK_TOLERANCE_MS,
  jsonDepth,
  type ParseWebhookOptions,
  parseWebhook,
  SIGNATURE_HEADER,
  signWebhook,
  verifyWebhookSignature,
  WebhookKeyError,
  WebhookPayloadError,
  WebhookSignatureError,
} from './webhooks.js';
