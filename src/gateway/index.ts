export { GatewayClient, type GatewayClientOptions } from './client.js';
export { errorFromResponse } from './error-map.js';
export * from './errors.js';
export { type JobHandle, type JobOutcome, JobTracker, type PollerOptions } from './jobs.js';
export { type LimiterClock, MarketsLimiter, type MarketsLimiterOptions } from './markets-limiter.js';
export type { PriceCheckJobs } from './resources/price-checks.js';
export * from './schemas/index.js';
export type { DeprecationNotice, QueryValue } from './transport.js';
export {
  CORRELATION_HEADER,
  type ParseWebhookOptions,
  parseWebhook,
  SIGNATURE_HEADER,
  signWebhook,
  verifyWebhookSignature,
  WebhookPayloadError,
  WebhookSignatureError,
} from './webhooks.js';
