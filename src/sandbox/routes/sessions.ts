// Sessions: list, start, restart, stop. Session operations answer errors as {status: 'error', message}.

import { holdBalance, seedBalance } from '../accounts/balances.js';
import { runLaunch } from '../accounts/launches.js';
import type { Session } from '../accounts/types.js';
import type { Ctx, Route } from '../core/http.js';
import { asSessionOpError, ok } from '../core/reply.js';
import { SAMPLE_SESSION } from '../core/samples.js';
import { optionalBool, requireString } from './validate.js';

function publicSession(s: Session) {
  return {
    session_id: s.session_id,
    bookie: s.bookie,
    username: s.username,
    active: s.active,
    pc_id: s.pc_id,
    status: s.status,
  };
}

/** Field checks in the session-op error style. */
function sessionOpField<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw asSessionOpError(err);
  }
}

const checkSessionId = (ctx: Ctx) => {
  sessionOpField(() => requireString(ctx.body, 'session_id'));
};

function launch(ctx: Ctx, session: Session) {
  session.revoked = false; // the flag is cleared by the next start
  seedBalance(session, ctx.sb.accounts.bookAccountOf(session), ctx.sb.clock.nowMs());
  if (!session.clientOnline) {
    // No client is connected: the command waits, and the session will not start until one connects.
    ctx.sb.accounts.launches.get(session.session_id)?.cancel();
    ctx.sb.accounts.setStatus(session, 'launching');
    session.pendingLaunch = true;
    return ok({ status: 'success', session_status: 'launching', delivered: false });
  }
  runLaunch(ctx.sb, session);
  return ok({ status: 'success', session_status: 'launching', delivered: true });
}

function startHandler(ctx: Ctx) {
  const id = sessionOpField(() => requireString(ctx.body, 'session_id'));
  return launch(ctx, ctx.sb.accounts.findSession(ctx.account, id, { style: 'session-op' }));
}

const launchSample = () => ok({ status: 'success', session_status: 'launching', delivered: true });

export const sessionRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/session_ids',
    handler: (ctx) => ok({ sessions: ctx.account.sessions.map(publicSession) }),
    sample: () => ok({ sessions: [{ ...SAMPLE_SESSION, active: true, pc_id: 'sample-pc-1', status: 'active' }] }),
  },
  {
    method: 'POST',
    path: '/api/start_session',
    errorStyle: 'session-op',
    check: checkSessionId,
    handler: startHandler,
    sample: launchSample,
  },
  // Restart cancels then relaunches; on a session that is not running it simply launches it.
  {
    method: 'POST',
    path: '/api/restart_session',
    errorStyle: 'session-op',
    check: checkSessionId,
    handler: startHandler,
    sample: launchSample,
  },
  {
    method: 'POST',
    path: '/v3/stop_session',
    auth: 'key-only',
    errorStyle: 'session-op',
    check: (ctx) => {
      checkSessionId(ctx);
      sessionOpField(() => optionalBool(ctx.body, 'revoke'));
    },
    handler: (ctx) => {
      const id = sessionOpField(() => requireString(ctx.body, 'session_id'));
      const revoke = sessionOpField(() => optionalBool(ctx.body, 'revoke')) ?? false;
      const session = ctx.sb.accounts.findSession(ctx.account, id, { style: 'session-op' });
      ctx.sb.accounts.launches.get(id)?.cancel();
      ctx.sb.accounts.launches.delete(id);
      holdBalance(session, ctx.sb.accounts.bookAccountOf(session), ctx.sb.clock.nowMs());
      ctx.sb.accounts.setStatus(session, 'stopped');
      session.revoked = revoke;
      // A connected client gets the cancel at once; an offline one only hears of it if revoked (on reconnect).
      if (session.clientOnline) session.pendingLaunch = false;
      return ok({ status: 'stopped', session_id: id, delivered: session.clientOnline });
    },
    sample: (ctx) =>
      ok({
        status: 'stopped',
        session_id: typeof ctx.body?.session_id === 'string' ? ctx.body.session_id : SAMPLE_SESSION.session_id,
        delivered: true,
      }),
  },
];
