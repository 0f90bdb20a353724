// The common shape of session-scoped async endpoints: check the session, accept the job, answer 202.
import type { Session } from '../accounts/types.js';
import type { Ctx } from '../core/http.js';
import { accepted, type Reply } from '../core/reply.js';
import { requireString } from './validate.js';

/** The caller's active session named by `session_id` in the body (400 / 404 / 403 otherwise). */
export function activeSession(ctx: Ctx): Session {
  const id = requireString(ctx.body, 'session_id');
  return ctx.sb.accounts.findSession(ctx.account, id, { requireActive: true });
}

/** The check of a body that names only a session: `session_id` (sample mode runs it too). */
export function checkSessionBody(ctx: Ctx): void {
  requireString(ctx.body, 'session_id');
}

export function submitSessionJob(
  ctx: Ctx,
  session: Session,
  work: () => unknown | Promise<unknown>,
  extra?: Record<string, unknown>,
): Reply {
  return accepted(
    ctx.sb.jobs.submit({
      account: ctx.account,
      path: ctx.path,
      session,
      callbackUrl: ctx.body.callback_url,
      ...(extra ? { extra } : {}),
      work,
    }),
  );
}
