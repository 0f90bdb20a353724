// /_sandbox control routes: mounted only with `control: true`; no key. For tests and local tools.

import { connectClient } from '../accounts/launches.js';
import type { Session } from '../accounts/types.js';
import { parseFaultConfig } from '../core/faults.js';
import type { Route } from '../core/http.js';
import { ApiError, ok } from '../core/reply.js';
import type { Sandbox } from '../core/sandbox.js';
import { checkDocument, heldSnapshot, restoreDocument, restoreSnapshot, takeSnapshot } from '../core/snapshot.js';
import { resetSandbox } from '../core/state.js';
import { limitControlRoutes } from './limit-control.js';
import { optionalBool, optionalString, requireInRange, requireMoney, requireString } from './validate.js';
import { watchControlRoutes } from './watch-control.js';
import { worldControlRoutes } from './world-control.js';

/** Longest single clock step: a month of sandbox time (the events window); more in one call is refused. */
export const MAX_ADVANCE_MS = 31 * 24 * 60 * 60 * 1000;

/** How far the clock may be moved past its start: a year of simulated fixtures stays quick to list. */
export const CLOCK_HORIZON_MS = 366 * 24 * 60 * 60 * 1000;

export const controlRoutes: Route[] = [
  {
    method: 'GET',
    path: '/_sandbox/state',
    auth: 'none',
    handler: ({ sb }) =>
      ok({
        now: sb.clock.now().toISOString(),
        seed: sb.seed,
        speed: sb.clock.speed,
        bets: sb.ledger.bets(),
        jobs: sb.jobs.snapshot(),
        webhookDeliveries: sb.jobs.webhooks.deliveries,
        sessions: sb.accounts.all().flatMap((a) =>
          a.sessions.map((s) => ({
            account: a.id,
            session_id: s.session_id,
            status: s.status,
            revoked: s.revoked,
            client_online: s.clientOnline,
            pending_launch: s.pendingLaunch,
          })),
        ),
        balances: sb.accounts.bookAccounts().map((b) => ({ account_id: b.account_id, bookie: b.bookie, cash: b.cash })),
        faults: sb.faults.config,
        counters: { ...sb.counters, jobs: sb.jobs.stats.submitted },
      }),
  },
  {
    method: 'POST',
    path: '/_sandbox/clock/advance',
    auth: 'none',
    handler: ({ sb, body }) => {
      const ms = requireInRange(body, 'ms', { min: 1, max: MAX_ADVANCE_MS, unit: 'ms (1 ms to 31 days per step)' });
      const left = sb.clock.startMs + CLOCK_HORIZON_MS - sb.clock.nowMs();
      if (ms > left) {
        throw new ApiError(400, {
          detail: `Field 'ms' would move the clock past ${new Date(sb.clock.startMs + CLOCK_HORIZON_MS).toISOString()}, a year after the sandbox's start (its world holds no later fixtures); at most ${Math.max(0, Math.floor(left))} ms are left: restart the sandbox to go further`,
          field: 'ms',
        });
      }
      sb.clock.advance(ms);
      return ok({ now: sb.clock.now().toISOString() });
    },
  },
  {
    method: 'POST',
    path: '/_sandbox/settle',
    auth: 'none',
    handler: ({ sb, body }) => {
      const epk = optionalString(body, 'epk');
      try {
        return ok(sb.world.settle(sb.ledger, epk));
      } catch (err) {
        // The world refuses an unknown event key: say so instead of a 500.
        throw new ApiError(404, { detail: (err as Error).message, field: 'epk' });
      }
    },
  },
  {
    method: 'POST',
    path: '/_sandbox/faults',
    auth: 'none',
    handler: ({ sb, body }) => {
      try {
        sb.faults.set(parseFaultConfig(body));
      } catch (err) {
        throw new ApiError(400, { detail: (err as Error).message });
      }
      return ok({ faults: sb.faults.config });
    },
  },
  {
    method: 'POST',
    path: '/_sandbox/reset',
    auth: 'none',
    handler: async ({ sb }) => {
      await resetSandbox(sb);
      return ok({ reset: true, now: sb.clock.now().toISOString() });
    },
  },
  {
    // {} → {snapshot_id}; {"document": true} also returns the whole state as a JSON document.
    method: 'POST',
    path: '/_sandbox/snapshot',
    auth: 'none',
    handler: ({ sb, body }) => {
      const withDocument = optionalBool(body, 'document') === true;
      const { snapshot_id, document } = takeSnapshot(sb);
      return ok({ snapshot_id, now: document.now, ...(withDocument ? { document } : {}) });
    },
  },
  {
    // {"snapshot_id": "..."} or {"document": {...}}: the whole state back as it was, clock included.
    method: 'POST',
    path: '/_sandbox/restore',
    auth: 'none',
    handler: ({ sb, body }) => {
      const id = optionalString(body, 'snapshot_id');
      if (id !== undefined) {
        const snap = heldSnapshot(sb, id);
        if (!snap) {
          throw new ApiError(404, {
            detail: `No snapshot '${id}' in this sandbox (ids last until it stops); send the document instead`,
            field: 'snapshot_id',
          });
        }
        restoreSnapshot(sb, snap.document, snap.works);
      } else if (body.document !== undefined) {
        restoreDocument(sb, checkDocument(sb, body.document));
      } else {
        throw new ApiError(400, {
          detail: 'Send {"snapshot_id": "..."} from POST /_sandbox/snapshot, or {"document": {...}}',
          field: 'snapshot_id',
        });
      }
      return ok({ restored: true, now: sb.clock.now().toISOString() });
    },
  },
  {
    // The session's client machine connects: a waiting launch runs, or a revoked session stops.
    method: 'POST',
    path: '/_sandbox/clients/connect',
    auth: 'none',
    handler: ({ sb, body }) => {
      const session = clientSession(sb, body);
      const did = connectClient(sb, session);
      return ok({ session_id: session.session_id, client_online: true, did, status: session.status });
    },
  },
  {
    method: 'POST',
    path: '/_sandbox/clients/disconnect',
    auth: 'none',
    handler: ({ sb, body }) => {
      const session = clientSession(sb, body);
      session.clientOnline = false;
      return ok({ session_id: session.session_id, client_online: false, status: session.status });
    },
  },
  {
    // A member's money arrives: {session_id, amount} credits the session's account and lists a `deposit`.
    method: 'POST',
    path: '/_sandbox/deposit',
    auth: 'none',
    handler: ({ sb, body }) => {
      const session = clientSession(sb, body);
      const amount = requireMoney(body, 'amount');
      const deposit_id = sb.ledger.deposit(session.account_id, amount);
      return ok({
        deposit_id,
        session_id: session.session_id,
        bookie: session.bookie,
        username: session.username,
        cash: sb.ledger.available(session.account_id),
      });
    },
  },
  {
    // {mode: completed | pending | failed}: how the bookmaker answers the next withdrawals.
    method: 'POST',
    path: '/_sandbox/withdrawals/mode',
    auth: 'none',
    handler: ({ sb, body }) => {
      const mode = requireString(body, 'mode');
      if (mode !== 'completed' && mode !== 'pending' && mode !== 'failed') {
        throw new ApiError(400, { detail: "Field 'mode' must be completed, pending or failed", field: 'mode' });
      }
      sb.ledger.withdrawalMode = mode;
      return ok({ mode });
    },
  },
  {
    // {withdrawal_id?, status: completed | failed}: a pending withdrawal (with no id: every one) is settled by the
    // bookmaker.
    method: 'POST',
    path: '/_sandbox/withdrawals/resolve',
    auth: 'none',
    handler: ({ sb, body }) => {
      const id = optionalString(body, 'withdrawal_id');
      const status = requireString(body, 'status');
      if (status !== 'completed' && status !== 'failed') {
        throw new ApiError(400, { detail: "Field 'status' must be completed or failed", field: 'status' });
      }
      if (id === undefined) {
        const ids = sb.ledger.pendingWithdrawals().filter((w) => sb.ledger.resolveWithdrawal(w, status));
        return ok({ withdrawal_ids: ids, status });
      }
      if (!sb.ledger.resolveWithdrawal(id, status)) {
        throw new ApiError(404, { detail: `No pending withdrawal '${id}'`, field: 'withdrawal_id' });
      }
      return ok({ withdrawal_id: id, status });
    },
  },
  ...worldControlRoutes,
  ...watchControlRoutes,
  ...limitControlRoutes,
];

function clientSession(sb: Sandbox, body: Record<string, unknown>): Session {
  const id = requireString(body, 'session_id');
  const session = sb.accounts.sessionById(id);
  if (!session) throw new ApiError(404, { detail: `No session '${id}'; see GET /_sandbox/state`, field: 'session_id' });
  return session;
}
