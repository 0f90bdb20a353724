import { z } from 'zod';
import { nonEmpty } from './common.js';

export const Session = z.looseObject({
  session_id: z.string(),
  bookie: z.string(),
  username: z.string().optional(),
  active: z.boolean(),
  pc_id: z.string().nullish(),
});
export type Session = z.infer<typeof Session>;

export const SessionList = z.looseObject({ sessions: z.array(Session) });

export const SessionCommandRequest = z.strictObject({ session_id: nonEmpty });
export type SessionCommandRequest = z.infer<typeof SessionCommandRequest>;

export const SessionCommandResult = z.looseObject({
  status: z.string(),
  session_status: z.string().optional(),
  delivered: z.boolean().optional(),
  message: z.string().optional(),
});
export type SessionCommandResult = z.infer<typeof SessionCommandResult>;

export const StopSessionRequest = z.strictObject({ session_id: nonEmpty, revoke: z.boolean().optional() });
export type StopSessionRequest = z.infer<typeof StopSessionRequest>;

export const StopSessionResult = z.looseObject({
  status: z.string(),
  session_id: z.string().optional(),
  delivered: z.boolean().optional(),
});
export type StopSessionResult = z.infer<typeof StopSessionResult>;
