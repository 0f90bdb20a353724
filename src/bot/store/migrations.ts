import type { Dialect } from './dialect.js';

/**
 * The schema, one ordered list for both engines, in the portable DDL of dialect.ts. A migration is never
 * edited once released: change the schema by appending the next version. Each is applied in its own
 * transaction with its row in schema_migrations, at start, under a lock held across processes.
 */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

export const MIGRATIONS: Migration[] = [
  {
    // The schema as it stood before versioning: IF NOT EXISTS lets a store created back then adopt it as is.
    version: 1,
    name: 'slips, jobs, deliveries, posts, bets, stake usage',
    statements: [
      `CREATE TABLE IF NOT EXISTS slips (
         slip_id TEXT PRIMARY KEY, guild_id TEXT, channel_id TEXT NOT NULL, message_id TEXT,
         user_id TEXT NOT NULL, payload TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL)`,
      `CREATE INDEX IF NOT EXISTS slips_expiry ON slips(expires_at)`,
      `CREATE TABLE IF NOT EXISTS jobs (
         correlation_id TEXT PRIMARY KEY, kind TEXT NOT NULL, guild_id TEXT, channel_id TEXT, message_id TEXT,
         user_id TEXT, session_id TEXT, envelope TEXT NOT NULL, context TEXT NOT NULL, state TEXT NOT NULL,
         outcome TEXT, owner TEXT, lease_until INTEGER NOT NULL DEFAULT 0, timeout_at INTEGER,
         created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
      `CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state, lease_until)`,
      `CREATE TABLE IF NOT EXISTS webhook_deliveries (
         correlation_id TEXT PRIMARY KEY, body TEXT NOT NULL, received_at INTEGER NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS posts (post_key TEXT PRIMARY KEY, posted_at INTEGER NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS bets (
         bet_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, guild_id TEXT, channel_id TEXT, user_id TEXT,
         correlation_id TEXT, detail TEXT NOT NULL, state TEXT NOT NULL, placed_at INTEGER NOT NULL)`,
      `CREATE INDEX IF NOT EXISTS bets_open ON bets(state, session_id)`,
      `CREATE TABLE IF NOT EXISTS stake_usage (
         guild_id TEXT NOT NULL, user_id TEXT NOT NULL, day TEXT NOT NULL, total REAL NOT NULL,
         PRIMARY KEY (guild_id, user_id, day))`,
    ],
  },
  {
    // Leases where no advisory lock exists (SQLite): leader leases ('leader:…', work that must run in one
    // process at a time) and key locks ('lock:…', settings writes). PostgreSQL stores use advisory locks.
    version: 2,
    name: 'leases',
    statements: [
      `CREATE TABLE leases (
         name TEXT PRIMARY KEY, owner TEXT NOT NULL, lease_until INTEGER NOT NULL)`,
    ],
  },
  {
    // IF NOT EXISTS: stores made by the bot that kept these in its unversioned schema adopt them as they are.
    version: 3,
    name: 'bet records, outbox, quarantined deliveries',
    statements: [
      // A bet's life (docs/reliability.md): written when Confirm claims the slip, before place_bet leaves.
      // The day's stake hold is derived from the states, so a release is a state change and happens once.
      `CREATE TABLE IF NOT EXISTS bet_records (
         placement_id TEXT PRIMARY KEY, slip_id TEXT NOT NULL UNIQUE, guild_key TEXT NOT NULL, guild_id TEXT,
         channel_id TEXT NOT NULL, message_id TEXT, user_id TEXT NOT NULL, session_id TEXT NOT NULL,
         bookie TEXT NOT NULL, day TEXT NOT NULL, stake_cents INTEGER NOT NULL, payload TEXT NOT NULL,
         state TEXT NOT NULL, correlation_id TEXT, timeout_at INTEGER, bet_id TEXT UNIQUE, odds REAL,
         note TEXT, settled_status TEXT, pnl REAL, misses INTEGER NOT NULL DEFAULT 0,
         close_odds REAL, close_market TEXT, close_at INTEGER,
         created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
      `CREATE INDEX IF NOT EXISTS bet_records_state ON bet_records(state, session_id)`,
      `CREATE INDEX IF NOT EXISTS bet_records_day ON bet_records(guild_key, user_id, day)`,
      `CREATE INDEX IF NOT EXISTS bet_records_correlation ON bet_records(correlation_id)`,
      // Every Discord write that reports money: recorded first, retried until Discord accepts it.
      `CREATE TABLE IF NOT EXISTS outbox (
         outbox_key TEXT PRIMARY KEY, kind TEXT NOT NULL, channel_id TEXT NOT NULL, message_id TEXT,
         body TEXT NOT NULL, rank INTEGER NOT NULL, nonce TEXT, state TEXT NOT NULL,
         attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL, lease_until INTEGER NOT NULL DEFAULT 0,
         last_error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
      `CREATE INDEX IF NOT EXISTS outbox_due ON outbox(state, next_at)`,
      // Signed deliveries whose shape is wrong for their job: kept for a person to look at, never applied.
      `CREATE TABLE IF NOT EXISTS quarantined_deliveries (
         digest TEXT PRIMARY KEY, correlation_id TEXT NOT NULL, reason TEXT NOT NULL, body TEXT NOT NULL,
         received_at INTEGER NOT NULL)`,
    ],
  },
  {
    // The syndicate's controls (issue: closed by default, approvals, exposure caps, ledger): the event and
    // market of each bet record for the caps; the append-only hash-chained ledger; proposals (slips above the
    // approval tier, which hold their stake while open) and one approval per member per price round.
    version: 4,
    name: 'exposure columns, ledger, proposals, approvals',
    statements: [
      `ALTER TABLE bet_records ADD COLUMN epk TEXT`,
      `ALTER TABLE bet_records ADD COLUMN market_key TEXT`,
      `CREATE INDEX bet_records_event ON bet_records(guild_key, epk, market_key)`,
      `CREATE TABLE ledger (
         seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, guild_key TEXT NOT NULL, kind TEXT NOT NULL, ref TEXT NOT NULL,
         actor TEXT, amount_cents INTEGER, data TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL)`,
      `CREATE INDEX ledger_guild_at ON ledger(guild_key, at)`,
      `CREATE TABLE proposals (
         proposal_id TEXT PRIMARY KEY, slip_id TEXT NOT NULL UNIQUE, guild_key TEXT NOT NULL, guild_id TEXT,
         channel_id TEXT NOT NULL, message_id TEXT, user_id TEXT NOT NULL, session_id TEXT NOT NULL,
         bookie TEXT NOT NULL, epk TEXT NOT NULL, market_key TEXT NOT NULL, market_ref TEXT NOT NULL,
         day TEXT NOT NULL, stake_cents INTEGER NOT NULL, shown_odds REAL NOT NULL, needed INTEGER NOT NULL,
         round INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL, note TEXT, reminded INTEGER NOT NULL DEFAULT 0,
         remind_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, created_at INTEGER NOT NULL,
         updated_at INTEGER NOT NULL)`,
      `CREATE INDEX proposals_state ON proposals(state, expires_at)`,
      `CREATE INDEX proposals_scope ON proposals(guild_key, epk, market_key)`,
      `CREATE TABLE approvals (
         proposal_id TEXT NOT NULL, round INTEGER NOT NULL, approver_id TEXT NOT NULL, odds REAL NOT NULL,
         created_at INTEGER NOT NULL, PRIMARY KEY (proposal_id, round, approver_id))`,
    ],
  },
  {
    // The version-1 tables the outbox (posts) and bet records (bets, the day's stake) replaced; nothing reads them.
    version: 5,
    name: 'drop posts, bets, stake usage',
    statements: [`DROP TABLE IF EXISTS posts`, `DROP TABLE IF EXISTS bets`, `DROP TABLE IF EXISTS stake_usage`],
  },
  {
    // Account health (docs/accounts.md): what the gateway's answers said about each session, once per piece of
    // evidence (its key), and each session's last announced health state with the count of its changes.
    version: 6,
    name: 'account evidence, account states',
    statements: [
      `CREATE TABLE account_evidence (
         evidence_key TEXT PRIMARY KEY, session_id TEXT NOT NULL, bookie TEXT NOT NULL, guild_key TEXT,
         kind TEXT NOT NULL, sport TEXT, market TEXT, market_label TEXT, asked_cents INTEGER,
         accepted_cents INTEGER, error_class TEXT, error_text TEXT, status TEXT, at INTEGER NOT NULL)`,
      `CREATE INDEX account_evidence_session ON account_evidence(session_id, at)`,
      `CREATE TABLE account_states (
         session_id TEXT PRIMARY KEY, bookie TEXT NOT NULL, state TEXT NOT NULL, reasons TEXT NOT NULL,
         changes INTEGER NOT NULL, changed_at INTEGER NOT NULL)`,
    ],
  },
  {
    // The syndicate's bank (docs/fund.md): one fund per server, members' units, contributions, strikes,
    // cash-outs and the withdraw_balance attempts that pay them (written before the call, never resubmitted).
    version: 7,
    name: 'fund, members, contributions, strikes, cash-outs, withdrawals',
    statements: [
      `CREATE TABLE funds (
         guild_key TEXT PRIMARY KEY, opening_price_cents INTEGER NOT NULL, units INTEGER NOT NULL DEFAULT 0,
         high_water_price INTEGER NOT NULL DEFAULT 0, fees_accrued_cents INTEGER NOT NULL DEFAULT 0,
         last_strike_id TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
      `CREATE TABLE fund_members (
         guild_key TEXT NOT NULL, member_id TEXT NOT NULL, units INTEGER NOT NULL, joined_at INTEGER NOT NULL,
         PRIMARY KEY (guild_key, member_id))`,
      `CREATE TABLE fund_contributions (
         contribution_id TEXT PRIMARY KEY, guild_key TEXT NOT NULL, member_id TEXT NOT NULL,
         amount_cents INTEGER NOT NULL, session_id TEXT NOT NULL, reference TEXT, state TEXT NOT NULL,
         strike_id TEXT, units INTEGER, deposit_id TEXT, recorded_by TEXT NOT NULL,
         created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
      `CREATE INDEX fund_contributions_state ON fund_contributions(guild_key, state)`,
      `CREATE TABLE fund_strikes (
         strike_id TEXT PRIMARY KEY, guild_key TEXT NOT NULL, dealing_key TEXT NOT NULL, at INTEGER NOT NULL,
         gross_nav_cents INTEGER NOT NULL, fee_cents INTEGER NOT NULL, nav_cents INTEGER NOT NULL,
         units_before INTEGER NOT NULL, price INTEGER NOT NULL, nav_after_cents INTEGER NOT NULL,
         units_after INTEGER NOT NULL, residual_cents INTEGER NOT NULL, inputs TEXT NOT NULL, actor TEXT,
         UNIQUE (guild_key, dealing_key))`,
      `CREATE INDEX fund_strikes_at ON fund_strikes(guild_key, at)`,
      `CREATE TABLE fund_cashouts (
         cashout_id TEXT PRIMARY KEY, guild_key TEXT NOT NULL, member_id TEXT NOT NULL, ask TEXT NOT NULL,
         state TEXT NOT NULL, approved_by TEXT, strike_id TEXT, units INTEGER, cents INTEGER, note TEXT,
         channel_id TEXT, message_id TEXT, paid_by TEXT,
         requested_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
      `CREATE INDEX fund_cashouts_state ON fund_cashouts(guild_key, state)`,
      `CREATE TABLE fund_withdrawals (
         attempt_id TEXT PRIMARY KEY, cashout_id TEXT NOT NULL, guild_key TEXT NOT NULL, session_id TEXT NOT NULL,
         amount_cents INTEGER NOT NULL, state TEXT NOT NULL, correlation_id TEXT, bookmaker_status TEXT,
         gateway_withdrawal_id TEXT UNIQUE, note TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
      `CREATE INDEX fund_withdrawals_state ON fund_withdrawals(state)`,
    ],
  },
  {
    // Ledger entries written in a bet record's move transaction without the chain's lock, then chained into
    // `ledger` (and deleted here) in one short transaction under it (decision 1763).
    version: 8,
    name: 'staged ledger entries',
    statements: [
      `CREATE TABLE ledger_staged (
         stage_key TEXT PRIMARY KEY, at INTEGER NOT NULL, guild_key TEXT NOT NULL, kind TEXT NOT NULL,
         ref TEXT NOT NULL, actor TEXT, amount_cents INTEGER, data TEXT NOT NULL)`,
    ],
  },
  {
    // The fund owns named bookmaker accounts (bookie + username), each in at most one fund (decision 1800); a
    // contribution or cash-out can be cancelled with a reason (decision 1807).
    version: 9,
    name: 'fund accounts, cancellation notes',
    statements: [
      `CREATE TABLE fund_accounts (
         bookie TEXT NOT NULL, username TEXT NOT NULL, guild_key TEXT NOT NULL,
         float_cents INTEGER NOT NULL DEFAULT 0, added_by TEXT NOT NULL, added_at INTEGER NOT NULL,
         bridge_from INTEGER NOT NULL,
         PRIMARY KEY (bookie, username))`,
      `CREATE INDEX fund_accounts_guild ON fund_accounts(guild_key)`,
      `ALTER TABLE fund_contributions ADD COLUMN note TEXT`,
      `CREATE TABLE fund_explained (
         txn_id TEXT NOT NULL, guild_key TEXT NOT NULL, account TEXT NOT NULL, cents INTEGER NOT NULL,
         reason TEXT NOT NULL, actor TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (guild_key, txn_id))`,
    ],
  },
  {
    // Watches and their alerts (docs/decisions/1850-watch-read-scheduler.md): each watch's episodes (one alert
    // each, keyed by the episode's number), the alerts a Bet button opens a slip from, the watched cards' last
    // reads (freshness across processes) and the watched selections' prices as seen (odds in hundredths).
    version: 10,
    name: 'watches',
    statements: [
      `CREATE TABLE watches (
         watch_id TEXT PRIMARY KEY, guild_id TEXT NOT NULL, user_id TEXT NOT NULL, scope TEXT NOT NULL,
         channel_id TEXT NOT NULL, epk TEXT NOT NULL, event_name TEXT NOT NULL, starts_at INTEGER,
         books TEXT NOT NULL, market TEXT NOT NULL, selection TEXT, selection_label TEXT, bookie TEXT,
         rule TEXT NOT NULL, state TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`,
      `CREATE INDEX watches_state ON watches(state, guild_id)`,
      `CREATE TABLE watch_episodes (
         watch_id TEXT NOT NULL, episode_key TEXT NOT NULL, state TEXT NOT NULL, seq INTEGER NOT NULL,
         opened_at INTEGER, closed_at INTEGER, PRIMARY KEY (watch_id, episode_key))`,
      `CREATE TABLE watch_alerts (
         alert_id TEXT PRIMARY KEY, watch_id TEXT NOT NULL, guild_id TEXT NOT NULL, channel_id TEXT NOT NULL,
         payload TEXT NOT NULL, created_at INTEGER NOT NULL)`,
      `CREATE TABLE watch_cards (
         epk TEXT NOT NULL, bookie TEXT NOT NULL, read_at INTEGER NOT NULL, changed_at INTEGER,
         digest TEXT NOT NULL, PRIMARY KEY (epk, bookie))`,
      `CREATE TABLE watch_prices (
         epk TEXT NOT NULL, bookie TEXT NOT NULL, market TEXT NOT NULL, selection TEXT NOT NULL,
         seen_at INTEGER NOT NULL, odds INTEGER NOT NULL, PRIMARY KEY (epk, bookie, market, selection, seen_at))`,
    ],
  },
  {
    // Whose a bet is, decided once at its claim (decision 1950): `fund_key` names the server whose fund owned the
    // account the bet went through at that moment (NULL: outside every fund), `fund_account` that account
    // (`bookie/username`) and `fund_decided` 1 for every record claimed since (older records keep the rule by
    // dates). A bet outside the fund that settles into a fund account credits its return to the account's float,
    // once per bet (`fund_float_credits`).
    version: 11,
    name: 'fund bets decided at placement',
    statements: [
      `ALTER TABLE bet_records ADD COLUMN fund_key TEXT`,
      `ALTER TABLE bet_records ADD COLUMN fund_account TEXT`,
      `ALTER TABLE bet_records ADD COLUMN fund_decided INTEGER NOT NULL DEFAULT 0`,
      `CREATE INDEX bet_records_fund ON bet_records(fund_key, state)`,
      `CREATE TABLE fund_float_credits (
         placement_id TEXT PRIMARY KEY, guild_key TEXT NOT NULL, account TEXT NOT NULL, cents INTEGER NOT NULL,
         at INTEGER NOT NULL)`,
    ],
  },
  {
    // The outbox's lanes and leases (decision 1960): a row's lane (money, alert, the summary of folded alerts), an
    // alert's topic (its event), when its current nonce first went out, which pass holds its lease, and the summary
    // a folded alert is counted in.
    version: 12,
    name: 'outbox lanes',
    statements: [
      `ALTER TABLE outbox ADD COLUMN lane TEXT NOT NULL DEFAULT 'money'`,
      `ALTER TABLE outbox ADD COLUMN topic TEXT`,
      `ALTER TABLE outbox ADD COLUMN sent_at INTEGER`,
      `ALTER TABLE outbox ADD COLUMN lease_token TEXT`,
      `ALTER TABLE outbox ADD COLUMN folded_into TEXT`,
      `CREATE INDEX outbox_lane ON outbox(lane, channel_id, sent_at)`,
    ],
  },
  {
    // The fund's risk limits, its drawdown stop and the resume votes, one row per server (decision 1951): each move
    // commits in one transaction with its ledger entry. A server's keyv value from before is read until its first move.
    version: 13,
    name: 'risk states',
    statements: [
      `CREATE TABLE risk_states (guild_key TEXT PRIMARY KEY, state TEXT NOT NULL, updated_at INTEGER NOT NULL)`,
    ],
  },
  {
    // A bet's P&L in whole cents, like every other amount (decision 2015): each row's dollars converted once, to the
    // cents centsFromDollars made of them on every read (to the nearest cent, a half up: FLOOR(x + 0.5) rounds so on
    // both engines, where ROUND does not agree between them at the halves), then the dollars column dropped.
    version: 14,
    name: 'bet P&L in cents',
    statements: [
      `ALTER TABLE bet_records ADD COLUMN pnl_cents INTEGER`,
      `UPDATE bet_records SET pnl_cents = CAST(FLOOR(pnl * 100 + 0.5) AS INTEGER) WHERE pnl IS NOT NULL`,
      `ALTER TABLE bet_records DROP COLUMN pnl`,
    ],
  },
];

export const LATEST_VERSION = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);

/** A connection the migrator holds alone for the run (its own transaction statements go through it). */
export interface MigrationConnection {
  dialect: Dialect;
  exec(sql: string, ...params: unknown[]): Promise<Record<string, unknown>[]>;
  /** Serialises migrators across processes; released by unlock or when the connection ends. */
  lock(): Promise<void>;
  unlock(): Promise<void>;
  /** BEGIN for one migration (SQLite: BEGIN IMMEDIATE). */
  begin(): Promise<void>;
}

/** Applies every migration above the store's version (up to `upTo`); returns the versions applied. */
export async function migrate(
  db: MigrationConnection,
  now: () => number,
  upTo = LATEST_VERSION,
  list: Migration[] = MIGRATIONS,
): Promise<number[]> {
  const ordered = [...list].sort((a, b) => a.version - b.version);
  ordered.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migrations must be numbered 1, 2, 3…; found ${m.version} at ${i + 1}`);
  });
  const applied: number[] = [];
  await db.lock();
  try {
    await db.exec(
      db.dialect.ddl(`CREATE TABLE IF NOT EXISTS schema_migrations (
         version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`),
    );
    const rows = await db.exec('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((r) => Number(r.version)));
    const newest = Math.max(0, ...done);
    if (newest > ordered.length) {
      throw new Error(
        `the store is at schema version ${newest}, newer than this bot knows (${ordered.length}); run the newer bot or restore a backup`,
      );
    }
    for (const m of ordered) {
      if (m.version > upTo || done.has(m.version)) continue;
      await db.begin();
      try {
        // Another process may have applied it since the read above (SQLite has no lock before BEGIN).
        if ((await db.exec('SELECT version FROM schema_migrations WHERE version = ?', m.version)).length > 0) {
          await db.exec('COMMIT');
          continue;
        }
        for (const s of m.statements) await db.exec(db.dialect.ddl(s));
        await db.exec(
          'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
          m.version,
          m.name,
          now(),
        );
        await db.exec('COMMIT');
      } catch (err) {
        await db.exec('ROLLBACK').catch(() => undefined);
        throw new Error(`schema migration ${m.version} (${m.name}) failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(m.version);
    }
  } finally {
    await db.unlock();
  }
  return applied;
}
