import { z } from 'zod';
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

  async list(): Promise<Session[]> {
    return (await this.ctx.post('/api/session_ids', NoBody, undefined, SessionList, { idempotent: true })).sessions;
  }

  start(req: SessionCommandRequest): Promise<SessionCommandResult> {
    return this.ctx.post('/api/start_session', SessionCommandRequest, req, SessionCommandResult, { idempotent: false });
  }

  restart(req: SessionCommandRequest): Promise<SessionCommandResult> {
    return this.ctx.post('/api/restart_session', SessionCommandRequest, req, SessionCommandResult, {
      idempotent: false,
    });
  }

  stop(req: StopSessionRequest): Promise<StopSessionResult> {
    return this.ctx.post('/v3/stop_session', StopSessionRequest, req, StopSessionResult, { idempotent: false });
  }
}
