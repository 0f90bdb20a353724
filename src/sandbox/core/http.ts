// Types shared by every route module: what a handler receives and how a route is declared.
import type { IncomingHttpHeaders } from 'node:http';
import type { Account } from '../accounts/types.js';
import type { Reply } from './reply.js';
import type { Sandbox } from './sandbox.js';

/**
 * 'subscription' (default): a valid key and an active subscription.
 * 'key-only': a valid key; exempt from the subscription check (stop_session).
 * 'none': no key at all (control routes).
 */
export type RouteAuth = 'subscription' | 'key-only' | 'none';

export interface Ctx {
  method: string;
  path: string;
  query: URLSearchParams;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are checked field by field with routes/validate.ts
  body: any;
  headers: IncomingHttpHeaders;
  /** Resolved from the key; for auth 'none' routes a placeholder with no sessions. */
  account: Account;
  sb: Sandbox;
}

export interface Route {
  method: 'GET' | 'POST';
  path: string;
  auth?: RouteAuth;
  /**
   * State-changing: needs betting permission (403 'API key does not have permission for this operation').
   * 'betting' answers the place_promo flavour instead: 403 'Betting is not enabled for this API key'.
   */
  write?: boolean | 'betting';
  /** Answers the spec's 202 job envelope: the generic sample is then an envelope, and the reply waits ~100 ms. */
  async?: boolean;
  /**
   * 'session-op': every 400, a malformed body included, answers the session operations' `{status: error, message}`.
   * Default: `{detail}`.
   */
  errorStyle?: 'session-op';
  /**
   * The body checks that need no account (the 400s). Sample mode runs them before answering, so a sample is
   * refused where the real call would be; the handler makes the same checks with the same readers.
   */
  check?(ctx: Ctx): void;
  handler(ctx: Ctx): Reply | Promise<Reply>;
  /** Same-shaped example for the sandbox header and the demo key; default: a generic sample. */
  sample?(ctx: Ctx): Reply | Promise<Reply>;
}
