import { z } from 'zod';
import { nonEmpty, openEnum } from './common.js';

/** A connected betting account at a bookmaker. */
export const Session = z.looseObject({
  /** Identifier of the session (UUID-style or numeric-looking string). */
  session_id: z.string(),
  /** Bookmaker identifier. */
  bookie: z.string(),
  /** Account login name at the bookmaker. */
  username: z.string().optional(),
  /** Whether the session can accept bets. */
  active: z.boolean(),
  /** Identifier of the client machine running the session. */
  pc_id: z.string().nullish(),
});
/** A connected betting account at a bookmaker. */
export type Session = z.infer<typeof Session>;

/** Body of POST /api/session_ids. */
export const SessionList = z.looseObject({
  /** Every session of the key's account. */
  sessions: z.array(Session),
});
/** Body of POST /api/session_ids. */
export type SessionList = z.infer<typeof SessionList>;

/** Body of POST /api/start_session and /api/restart_session. */
export const SessionCommandRequest = z.strictObject({
  /** The session to launch (must belong to the key's account). */
  session_id: nonEmpty,
});
/** Body of POST /api/start_session and /api/restart_session. */
export type SessionCommandRequest = z.infer<typeof SessionCommandRequest>;

/** `active`, `inactive` or `launching` (reported after a start or restart). */
export type SessionStatus = 'active' | 'inactive' | 'launching';

/** Answer of start and restart. */
export const SessionCommandResult = z.looseObject({
  /** `success` or `error`. */
  status: openEnum<'success' | 'error'>(),
  /** `launching` after a start or restart. */
  session_status: openEnum<SessionStatus>().optional(),
  /** False when no client is connected: the session starts once one connects. */
  delivered: z.boolean().optional(),
  /** The gateway's explanation when status is `error`. */
  message: z.string().optional(),
});
/** Answer of start and restart. */
export type SessionCommandResult = z.infer<typeof SessionCommandResult>;

/** Body of POST /v3/stop_session. */
export const StopSessionRequest = z.strictObject({
  /** The session to stop. */
  session_id: nonEmpty,
  /** With true an offline client stops on reconnect; the flag is cleared by the next start. Default false. */
  revoke: z.boolean().optional(),
});
/** Body of POST /v3/stop_session. */
export type StopSessionRequest = z.infer<typeof StopSessionRequest>;

/** Answer of POST /v3/stop_session. */
export const StopSessionResult = z.looseObject({
  /** `stopped`. */
  status: openEnum<'stopped'>(),
  /** The stopped session. */
  session_id: z.string().optional(),
  /** Whether a connected client received the stop. */
  delivered: z.boolean().optional(),
});
/** Answer of POST /v3/stop_session. */
export type StopSessionResult = z.infer<typeof StopSessionResult>;
