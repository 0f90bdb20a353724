import { z } from 'zod';
import type { APIPromise } from '../api-promise.js';
import type { RequestOptions } from '../request-options.js';
import {
  type Session,
  SessionCommandRequest,
  SessionCommandResult,
  SessionList,
  StopSessionRequest,
  StopSessionResult,
} from '../schemas/sessions.js';
import type { ResourceContext } from './context.js';

const NoBody = z.undefined();

/** Sessions: listing is a read; start, restart and stop change state and are never retried. */
export class Sessions {
  constructor(private readonly ctx: ResourceContext) {}

  /** POST /api/session_ids: every session of the key's account. */
  list(options?: RequestOptions): APIPromise<Session[]> {
    return this.ctx
      .post('/api/session_ids', NoBody, undefined, SessionList, { idempotent: true }, options)
      .map((r) => r.sessions);
  }

  /** POST /api/start_session: publishes a launch command to the session's client. */
  start(req: SessionCommandRequest, options?: RequestOptions): APIPromise<SessionCommandResult> {
    return this.ctx.post(
      '/api/start_session',
      SessionCommandRequest,
      req,
      SessionCommandResult,
      { idempotent: false },
      options,
    );
  }

  /** POST /api/restart_session: cancels, then relaunches. */
  restart(req: SessionCommandRequest, options?: RequestOptions): APIPromise<SessionCommandResult> {
    return this.ctx.post(
      '/api/restart_session',
      SessionCommandRequest,
      req,
      SessionCommandResult,
      { idempotent: false },
      options,
    );
  }

  /** POST /v3/stop_session (never blocked by subscription status). */
  stop(req: StopSessionRequest, options?: RequestOptions): APIPromise<StopSessionResult> {
    return this.ctx.post(
      '/v3/stop_session',
      StopSessionRequest,
      req,
      StopSessionResult,
      { idempotent: false },
      options,
    );
  }
}
