// Who holds which key, session and bookmaker account; session lookup with the spec's ownership rules.
import { holdBalance } from './balances.js';
import { takeBonusToken } from './bonus.js';
import { type ErrorStyle, sessionNotActive, sessionNotFound, sessionNotOwned } from './errors.js';
import { buildAccounts, buildBookAccounts } from './fixtures.js';
import type { Account, BonusToken, BookAccount, Session, SessionStatus } from './types.js';

export interface AccountsDump {
  sessions: Pick<
    Session,
    | 'session_id'
    | 'status'
    | 'revoked'
    | 'clientOnline'
    | 'pendingLaunch'
    | 'restricted'
    | 'balanceSeededAtMs'
    | 'balanceHeld'
  >[];
  books: BookAccount[];
}

export interface FindSessionOptions {
  /** Refuse a session that is not active (403 'Session is not active'). */
  requireActive?: boolean;
  /** Error body style; default 'detail'. */
  style?: ErrorStyle;
}

export class Accounts {
  private byKey = new Map<string, Account>();
  private bySession = new Map<string, { account: Account; session: Session }>();
  private books = new Map<string, BookAccount>();
  /** Pending launching → active moves, by session id (cancelled by stop and reset). */
  readonly launches = new Map<string, { cancel(): void }>();

  constructor(now: Date) {
    this.reset(now);
  }

  /** Rebuilds every fixture account (control route reset). */
  reset(now: Date): void {
    for (const t of this.launches.values()) t.cancel();
    this.launches.clear();
    const accounts = buildAccounts();
    this.byKey = new Map(accounts.map((a) => [a.key, a]));
    this.bySession = new Map(
      accounts.flatMap((a) => a.sessions.map((s) => [s.session_id, { account: a, session: s }])),
    );
    this.books = new Map(buildBookAccounts(accounts, now).map((b) => [b.account_id, b]));
    // A fixture session that is not running has no heartbeat: its cache holds what it read before the start.
    for (const { session } of this.bySession.values())
      if (!session.active) holdBalance(session, this.bookAccountOf(session), now.getTime());
  }

  /** Session states and bookmaker accounts as plain data (snapshot). */
  dump(): AccountsDump {
    const sessions = this.all().flatMap((a) =>
      a.sessions.map(
        ({ session_id, status, revoked, clientOnline, pendingLaunch, restricted, balanceSeededAtMs, balanceHeld }) => ({
          session_id,
          status,
          revoked,
          clientOnline,
          pendingLaunch,
          ...(restricted ? { restricted } : {}),
          ...(balanceSeededAtMs !== undefined ? { balanceSeededAtMs } : {}),
          ...(balanceHeld ? { balanceHeld } : {}),
        }),
      ),
    );
    return structuredClone({ sessions, books: this.bookAccounts() });
  }

  /** Puts back a dump; a session that was launching on a connected client launches again via `relaunch`. */
  load(d: AccountsDump, relaunch: (session: Session) => void): void {
    for (const t of this.launches.values()) t.cancel();
    this.launches.clear();
    for (const s of d.sessions) {
      const session = this.sessionById(s.session_id);
      if (!session) continue;
      this.setStatus(session, s.status);
      session.revoked = s.revoked;
      session.clientOnline = s.clientOnline;
      session.pendingLaunch = s.pendingLaunch;
      if (s.restricted) session.restricted = true;
      else delete session.restricted;
      if (s.balanceSeededAtMs !== undefined) session.balanceSeededAtMs = s.balanceSeededAtMs;
      else delete session.balanceSeededAtMs;
      if (s.balanceHeld) session.balanceHeld = { ...s.balanceHeld };
      else delete session.balanceHeld;
      if (s.status === 'launching' && s.clientOnline && !s.pendingLaunch) relaunch(session);
    }
    for (const b of structuredClone(d.books)) {
      const book = this.books.get(b.account_id);
      if (!book) continue;
      book.cash = b.cash;
      book.bonusTokens = b.bonusTokens;
      if (b.stakeLimits) book.stakeLimits = b.stakeLimits;
      else delete book.stakeLimits;
      if (b.usedSavers) book.usedSavers = b.usedSavers;
      else delete book.usedSavers;
    }
  }

  all(): Account[] {
    return [...this.byKey.values()];
  }

  byApiKey(key: string | undefined): Account | undefined {
    return key ? this.byKey.get(key) : undefined;
  }

  /**
   * The caller's session, or the spec's error: 404 not found, 403 session_not_owned,
   * 403 'Session is not active' when `requireActive`.
   */
  findSession(account: Account, session_id: string, opts: FindSessionOptions = {}): Session {
    const style = opts.style ?? 'detail';
    const hit = this.bySession.get(session_id);
    if (!hit) throw sessionNotFound(style);
    if (hit.account.id !== account.id) throw sessionNotOwned(style);
    if (opts.requireActive && !hit.session.active) throw sessionNotActive(style);
    return hit.session;
  }

  /** Any session by id, whoever owns it (internal use: jobs, state). */
  sessionById(session_id: string): Session | undefined {
    return this.bySession.get(session_id)?.session;
  }

  setStatus(session: Session, status: SessionStatus): void {
    session.status = status;
    session.active = status === 'active';
  }

  bookAccount(account_id: string): BookAccount {
    const book = this.books.get(account_id);
    if (!book) throw new Error(`no bookmaker account ${account_id}`);
    return book;
  }

  bookAccountOf(session: Session): BookAccount {
    return this.bookAccount(session.account_id);
  }

  bookAccounts(): BookAccount[] {
    return [...this.books.values()];
  }

  /**
   * Spends a bonus token of the session's account on a bet of `stake` (exact value first, else the largest
   * not above it) and marks it USED; undefined when none fits (the bet must then fail).
   */
  takeBonusToken(session: Session, stake: number): BonusToken | undefined {
    return takeBonusToken(this.bookAccountOf(session), stake);
  }

  /** The caller's active sessions on one bookmaker account. */
  activeSessionsOn(account: Account, account_id: string): Session[] {
    return account.sessions.filter((s) => s.account_id === account_id && s.active);
  }
}
