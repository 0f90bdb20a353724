import type { Catalog } from '../catalog/index.js';
import { UserFacingError } from '../model/user-facing-error.js';
import { type GuildSettings, getSettings } from '../settings/index.js';
import type { BotStore } from '../store/index.js';
import type { AccountHealth } from './account-health.js';

/** Where sessions are read from: the guild's chosen ones (settings) and the gateway's list (catalog). */
export interface SessionSource {
  store: BotStore;
  catalog: Catalog;
  /** Account health: the statuses read here are evidence (a session seen inactive is offline). */
  accounts?: Pick<AccountHealth, 'sessionsSeen'>;
}

/** Picks the session for a bookie: the admin's choice, else the first active one; refuses an inactive one. */
export async function sessionFor(
  d: SessionSource,
  guildId: string | null,
  bookie: string,
  known?: GuildSettings,
): Promise<string> {
  const settings = known ?? (await getSettings(d.store, guildId));
  const sessions = await d.catalog.loadSessions();
  await d.accounts?.sessionsSeen(sessions, null).catch(() => undefined);
  const chosen = settings.sessions[bookie];
  if (chosen !== undefined) {
    const s = sessions.find((x) => x.session_id === chosen);
    if (!s)
      throw new UserFacingError(
        `The session chosen for ${bookie} (${chosen}) no longer exists. An admin can pick another with /settings.`,
      );
    if (!s.active) {
      throw new UserFacingError(
        `The session chosen for ${bookie} (${chosen}) is inactive. Start it, or have an admin pick another with /settings.`,
      );
    }
    return chosen;
  }
  const active = sessions.find((s) => s.bookie === bookie && s.active);
  if (!active) {
    throw new UserFacingError(`No active session for ${bookie}. Start one (see /sessions), or bet with another book.`);
  }
  return active.session_id;
}

/** A session chosen for the best price (by /bet or /compare): still there, still active, on the slip's book. */
export async function chosenSession(
  catalog: Catalog,
  sessionId: string,
  bookie: string,
  again: string,
): Promise<string> {
  const s = (await catalog.loadSessions()).find((x) => x.session_id === sessionId);
  if (!s?.active || s.bookie !== bookie) {
    throw new UserFacingError(`The ${bookie} session this price was read at is no longer active. ${again}`);
  }
  return sessionId;
}

/** The account user name of a session, from the cached session list; undefined when it cannot be read now. */
export async function accountOf(catalog: Catalog, sessionId: string): Promise<string | undefined> {
  try {
    const sessions = (await catalog.peekSessions()) ?? (await catalog.loadSessions());
    return sessions.find((s) => s.session_id === sessionId)?.username || undefined;
  } catch {
    return undefined;
  }
}
