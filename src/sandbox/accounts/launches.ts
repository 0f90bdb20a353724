// A session's launch on its client machine: started now when the client is online, or when it next connects.
import type { SandboxClock } from '../core/clock.js';
import type { Accounts } from './accounts.js';
import { releaseBalance } from './balances.js';
import type { Session } from './types.js';

/** Sandbox ms a launching session takes to become active (the spec does not show this move). */
export const LAUNCH_DELAY_MS = 2_000;

/** What a launch touches: the sessions and the clock that times it. */
export interface LaunchBooks {
  accounts: Accounts;
  clock: SandboxClock;
}

/** The connected client runs the launch: the session becomes active after the launch delay. */
export function runLaunch({ accounts, clock }: LaunchBooks, session: Session): void {
  accounts.launches.get(session.session_id)?.cancel();
  session.pendingLaunch = false;
  releaseBalance(session);
  accounts.setStatus(session, 'launching');
  const timer = clock.schedule(LAUNCH_DELAY_MS, () => {
    accounts.launches.delete(session.session_id);
    if (session.status === 'launching') accounts.setStatus(session, 'active');
  });
  accounts.launches.set(session.session_id, timer);
}

/**
 * The client connects: a revoked session stops (its waiting launch is dropped); otherwise a launch published
 * while it was away runs now. Answers what the client did.
 */
export function connectClient(sb: LaunchBooks, session: Session): 'stopped' | 'launched' | 'nothing' {
  session.clientOnline = true;
  if (session.revoked) {
    session.pendingLaunch = false;
    sb.accounts.setStatus(session, 'stopped');
    return 'stopped';
  }
  if (session.pendingLaunch) {
    runLaunch(sb, session);
    return 'launched';
  }
  return 'nothing';
}
