// The check a desk runs when it starts on a restored store, before it takes a bet (decision 1980): the ledger's chain
// verified, then each session's history at the gateway against the store. What the gateway did after the backup was
// taken, the store does not know: a bet whose write-ahead record (or, when the member confirmed after the backup, whose
// slip) is in the copy is adopted the way the reconciler adopts one; a withdrawal the fund's redeemed cash-outs are
// owed is recorded as their attempt, completed or failed as the gateway says. So nothing the gateway already did is
// placed or withdrawn again. What cannot be tied to the copy's records is named in the results channel.
import { randomBytes } from 'node:crypto';
import { GatewayClient, type Transaction } from '../../gateway/index.js';
import { type BetRecord, BetRecordRepo, type FundClaim, matches, type SlipRecord, SlipRepo } from '../betting/index.js';
import type { BotConfig } from '../config/config.js';
import { createLogger, type Logger } from '../config/logger.js';
import { accountName, FundRepo, withdrawalStatus } from '../fund/index.js';
import type { GatewayPort } from '../gateway-port.js';
import { readTransactionsSince } from '../jobs/index.js';
import { chainStaged, Ledger, type VerifyResult, verifyText } from '../ledger/index.js';
import { COLOUR } from '../model/colours.js';
import { dayIn } from '../model/dates.js';
import { gatewayCents } from '../model/gateway-amounts.js';
import { clip, fitView, LIMITS, type MessageView } from '../model/limits.js';
import { formatMoney } from '../model/money.js';
import type { SlipPayload } from '../model/slip-rules.js';
import { Outbox } from '../outbox/index.js';
import { getSettings } from '../settings/index.js';
import { RESTORE_MARKER_KEY, type RestoreMarker, readRestoreMarker } from '../store/backup.js';
import { type BotStore, openStore } from '../store/index.js';

/** Clocks of the desk and the gateway may disagree by this much; the history is read back this much further. */
const CLOCK_SKEW_MS = 120_000;
/** How often a session's history is asked for before the check gives up (the desk then does not start). */
const READ_TRIES = 3;

export interface RestoreCheckDeps {
  store: BotStore;
  gateway: GatewayPort;
  /** Records the report's post in the results channel (sent once the bot's outbox runs). */
  outbox: Pick<Outbox, 'create'>;
  logger: Logger;
  now: () => number;
  /** The reconciler's safe window (RECONCILE_WINDOW_SECONDS): how long after a send its bet may still appear. */
  safeWindowMs: number;
  /** The wait before a history is asked for again, times the try's number (default 1 s). */
  retryMs?: number;
}

export interface RestoreReport {
  marker: RestoreMarker;
  verify: VerifyResult;
  /** The history was read back to here (epoch ms). */
  since: number;
  sessions: number;
  /** Sessions of the copy's records the gateway no longer lists as active: not read. */
  inactive: string[];
  /** Bets at the gateway in the window, and how many the store already knew. */
  gatewayBets: number;
  alreadyKnown: number;
  /** Adopted into a write-ahead record the copy held (sending, submitted, unknown). */
  adoptedRecords: number;
  /** Adopted into a slip the copy held open (the member confirmed it after the backup). */
  adoptedSlips: number;
  /** Withdrawals recorded as attempts of the redeemed cash-outs they were made for. */
  adoptedWithdrawals: number;
  /** What no record of the copy accounts for: named in the post for a person to look at. */
  unknownBets: Array<{ sessionId: string; tx: Transaction }>;
  unknownWithdrawals: Array<{ sessionId: string; tx: Transaction }>;
}

const cents = gatewayCents;
const placedAt = (t: Transaction) => Date.parse(String(t.placed_at ?? ''));

/**
 * The check as `npm start` runs it before the bot starts (src/bot/main.ts): its own store connection and gateway
 * client, the post recorded in the outbox for the bot to send once it is online. Nothing happens unless the store
 * carries the marker; `now` is the bot's clock.
 */
export async function checkRestoredStore(
  config: BotConfig,
  opts: { now?: () => number; logger?: Logger; retryMs?: number } = {},
): Promise<RestoreReport | undefined> {
  const now = opts.now ?? Date.now;
  const logger =
    opts.logger ?? createLogger({ level: config.logLevel, secrets: [config.gateway.apiKey, config.discord.token] });
  const store = await openStore(config.storeUrl);
  try {
    if (!(await readRestoreMarker(store))) return undefined;
    const { baseUrl, apiKey } = config.gateway;
    if (!baseUrl || !apiKey)
      throw new Error('a restored store is checked against the gateway: set GATEWAY_BASE_URL and GATEWAY_API_KEY');
    const gateway = new GatewayClient({ baseUrl, apiKey: apiKey.reveal(), poller: { intervalMs: 250 } });
    // Recorded only: a stopped outbox writes the row and sends nothing; the bot's own outbox sends it once online.
    const outbox = new Outbox({ store, poster: undefined as never, logger, now, owner: 'restore-check' });
    await outbox.stop();
    try {
      return await checkAfterRestore({
        store,
        gateway,
        outbox,
        logger,
        now,
        safeWindowMs: config.tunables.reconcileWindowMs,
        ...(opts.retryMs !== undefined ? { retryMs: opts.retryMs } : {}),
      });
    } finally {
      await gateway.close();
    }
  } finally {
    await store.close();
  }
}

/**
 * Runs the check when the store carries the "restored from" marker, and removes the marker once it is done (and its
 * post recorded); undefined when the store was not restored. Throws, leaving the marker for the next start, when a
 * session's history cannot be read: a desk that cannot tell what the gateway did after the backup must not bet.
 */
export async function checkAfterRestore(d: RestoreCheckDeps): Promise<RestoreReport | undefined> {
  if (!(await readRestoreMarker(d.store))) return undefined;
  // Shards of one desk start together: one of them checks, the others find the marker gone.
  return d.store.withLock('restore-check', async () => {
    const marker = await readRestoreMarker(d.store);
    if (!marker) return undefined;
    const report = await check(d, marker);
    await post(d, report);
    await d.store.kv.delete(RESTORE_MARKER_KEY);
    d.logger.info('checked the restored store against the gateway', {
      from: marker.from,
      ledgerIntact: report.verify.ok,
      adoptedRecords: report.adoptedRecords,
      adoptedSlips: report.adoptedSlips,
      adoptedWithdrawals: report.adoptedWithdrawals,
      unknownBets: report.unknownBets.length,
      unknownWithdrawals: report.unknownWithdrawals.length,
    });
    return report;
  });
}

async function check(d: RestoreCheckDeps, marker: RestoreMarker): Promise<RestoreReport> {
  const { store } = d;
  await chainStaged(store);
  const verify = await new Ledger(store).verify();
  const records = new BetRecordRepo(store);
  const open = await records.inStates(['sending', 'submitted', 'unknown']);
  // Back to the backup (its time, else the copy's newest write) and to every record and slip still open then: a slip
  // that had expired by then cannot have been confirmed after it.
  const [latest] = await store.query<{ at: number | null }>('SELECT MAX(at) AS at FROM ledger');
  const asOf = Math.min(marker.takenAt ?? Number.POSITIVE_INFINITY, Number(latest?.at ?? d.now()) || d.now());
  const slips = (await openSlips(store)).filter((s) => s.expiresAt > asOf - CLOCK_SKEW_MS);
  const since = Math.min(asOf, ...open.map((r) => r.createdAt), ...slips.map((s) => s.createdAt)) - CLOCK_SKEW_MS;
  // The key's active sessions: the desk can bet and withdraw only through those, and the gateway reads only their
  // histories. A session of the copy's records that is no longer active is named in the post, not read.
  const used = await store.query<{ session_id: string }>('SELECT DISTINCT session_id FROM bet_records');
  const listed = await d.gateway.sessions.list();
  const active = new Set(listed.filter((s) => s.active).map((s) => s.session_id));
  const usernames = new Map(listed.flatMap((s) => (s.username ? [[s.session_id, String(s.username)] as const] : [])));
  const sessionIds = [...active].sort();
  const inactive = [...new Set([...used.map((r) => r.session_id), ...slips.map((s) => s.payload.sessionId)])]
    .filter((s) => !active.has(s))
    .sort();
  const report: RestoreReport = {
    marker,
    verify,
    since,
    sessions: sessionIds.length,
    inactive,
    gatewayBets: 0,
    alreadyKnown: 0,
    adoptedRecords: 0,
    adoptedSlips: 0,
    adoptedWithdrawals: 0,
    unknownBets: [],
    unknownWithdrawals: [],
  };
  const fund = new FundRepo(store);
  const ownedWithdrawals = await fund.ownedWithdrawalIds();
  const known = new Set(
    (await store.query<{ bet_id: string }>('SELECT bet_id FROM bet_records WHERE bet_id IS NOT NULL')).map(
      (r) => r.bet_id,
    ),
  );
  // Twin sessions of one account list the same moves: each is judged once, under the first session that lists it.
  const seen = new Set<string>();
  const firstSeen = (t: Transaction) => {
    if (seen.has(t.id)) return false;
    seen.add(t.id);
    return true;
  };
  for (const sessionId of sessionIds) {
    const history = (await readHistory(d, sessionId, since)).filter((t) => placedAt(t) >= since && firstSeen(t));
    const bets = history.filter((t) => t.type === 'bet').sort((a, b) => placedAt(a) - placedAt(b));
    report.gatewayBets += bets.length;
    // The session's evidence, each piece used once (an adopted record or slip leaves these lists).
    const candidates = {
      records: open.filter((r) => r.sessionId === sessionId),
      slips: slips.filter((s) => s.payload.sessionId === sessionId),
      usernames,
    };
    for (const tx of bets) {
      if (known.has(tx.id)) {
        report.alreadyKnown++;
        continue;
      }
      const how = await adoptBet(d, records, tx, candidates);
      if (how === 'record') report.adoptedRecords++;
      else if (how === 'slip') report.adoptedSlips++;
      else report.unknownBets.push({ sessionId, tx });
      if (how) known.add(tx.id);
    }
    const withdrawals = history
      .filter((t) => t.type === 'withdrawal' && !ownedWithdrawals.has(t.id))
      .sort((a, b) => placedAt(a) - placedAt(b));
    for (const tx of withdrawals) {
      if (await adoptWithdrawal(d, fund, sessionId, tx)) {
        report.adoptedWithdrawals++;
        ownedWithdrawals.add(tx.id);
      } else report.unknownWithdrawals.push({ sessionId, tx });
    }
  }
  return report;
}

/** The session's history since `since`, asked for again a few times; a session that never answers stops the start. */
async function readHistory(d: RestoreCheckDeps, sessionId: string, since: number): Promise<Transaction[]> {
  for (let attempt = 1; ; attempt++) {
    const read = await readTransactionsSince(d.gateway, sessionId, since, d.now()).catch(() => undefined);
    if (read?.complete) return [...read.transactions];
    if (attempt >= READ_TRIES) {
      throw new Error(
        `the restore check could not read the whole history of session ${sessionId} at the gateway; the desk takes no bets until it can: start it again once the gateway answers`,
      );
    }
    await new Promise((r) => setTimeout(r, (d.retryMs ?? 1_000) * attempt));
  }
}

/** Slips nobody had confirmed when the backup was taken (no bet record claims them). */
async function openSlips(store: BotStore): Promise<Array<SlipRecord<SlipPayload>>> {
  const rows = await store.query<{ slip_id: string }>(
    'SELECT s.slip_id FROM slips s WHERE NOT EXISTS (SELECT 1 FROM bet_records b WHERE b.slip_id = s.slip_id)',
  );
  const repo = new SlipRepo(store);
  const out: Array<SlipRecord<SlipPayload>> = [];
  for (const r of rows) {
    const slip = await repo.get(r.slip_id);
    if (slip && slip.payload.kind !== 'promo') out.push(slip);
  }
  return out.sort((a, b) => a.createdAt - b.createdAt);
}

/**
 * Ties a gateway bet the store does not know to the copy's evidence: first a write-ahead record still open (the rule
 * the reconciler matches by), then a slip still open that the gateway's bet fits (session, stake, market, selection,
 * placed while the slip could be confirmed), claimed for its member at the bet's time and adopted at once.
 */
async function adoptBet(
  d: RestoreCheckDeps,
  records: BetRecordRepo,
  tx: Transaction,
  candidates: {
    records: BetRecord[];
    slips: Array<SlipRecord<SlipPayload>>;
    /** Each session's account user name at its book, from the key's session list. */
    usernames: ReadonlyMap<string, string>;
  },
): Promise<'record' | 'slip' | undefined> {
  const evidence = { betId: tx.id, odds: tx.odds ?? null, note: 'found in the book history after a restore' };
  const record = candidates.records.find((r) => r.betId === null && matches(r, tx, d.safeWindowMs));
  if (record) {
    const moved = await records.markAdopted(
      record.placementId,
      { ...evidence, odds: evidence.odds ?? record.odds },
      d.now(),
    );
    if (moved) {
      candidates.records.splice(candidates.records.indexOf(record), 1);
      return 'record';
    }
  }
  const at = placedAt(tx);
  const slip = candidates.slips.find((s) => slipFits(s, tx, at, d.safeWindowMs));
  if (!slip) return undefined;
  candidates.slips.splice(candidates.slips.indexOf(slip), 1);
  const settings = await getSettings(d.store, slip.guildId);
  // Whose the bet is, as the fund's gate decides it at a Confirm: the fund owning its account now, or none.
  const p = slip.payload;
  const username = p.account ?? candidates.usernames.get(p.sessionId);
  const owner = username ? await new FundRepo(d.store).accountOwner(p.bookie, username) : undefined;
  const fund: FundClaim | undefined = username
    ? {
        fundKey: owner?.guildKey ?? null,
        account: accountName({ bookie: p.bookie, username }),
        bookie: p.bookie,
        username,
      }
    : undefined;
  // The member's Confirm happened before the gateway took the bet: the claim is written as of then, under no cap
  // (the bet exists; a cap cannot refuse it now).
  const claimedAt = Math.max(slip.createdAt, Math.min(at, slip.expiresAt - 1));
  const claim = await records.claim({
    placementId: randomBytes(12).toString('base64url'),
    slipId: slip.slipId,
    userId: slip.userId,
    guildKey: slip.guildId ?? 'dm',
    day: dayIn(claimedAt, settings.timezone),
    stakeCents: slip.payload.stakeCents,
    dayLimitCents: Number.MAX_SAFE_INTEGER,
    ...(fund ? { fund } : {}),
    now: claimedAt,
  });
  if (claim.kind !== 'claimed') return undefined;
  const moved = await records.markAdopted(
    claim.record.placementId,
    { ...evidence, odds: evidence.odds ?? slip.payload.shownOdds ?? null },
    d.now(),
  );
  return moved ? 'slip' : undefined;
}

/** Whether a gateway bet is a slip's: the reconciler's rule, with the slip's life as the window it was sent in. */
function slipFits(slip: SlipRecord<SlipPayload>, tx: Transaction, at: number, safeWindowMs: number): boolean {
  const asRecord = {
    payload: slip.payload,
    stakeCents: slip.payload.stakeCents,
    createdAt: slip.createdAt,
    timeoutAt: null,
  } as unknown as BetRecord;
  return (
    Number.isFinite(at) &&
    at <= slip.expiresAt + safeWindowMs &&
    matches(asRecord, tx, safeWindowMs + (slip.expiresAt - slip.createdAt))
  );
}

/**
 * Records a withdrawal the copy's attempts do not own as the attempt of the fund's oldest redeemed cash-out on an
 * account of that session owed at least its amount, completed or failed as the gateway says: the desk would
 * otherwise withdraw that cash-out again.
 */
async function adoptWithdrawal(d: RestoreCheckDeps, fund: FundRepo, sessionId: string, tx: Transaction) {
  const amount = cents(tx.stake);
  const status = withdrawalStatus(tx);
  if (amount <= 0) return false;
  const guilds = await d.store.query<{ guild_key: string }>('SELECT guild_key FROM funds ORDER BY guild_key');
  for (const { guild_key: guildKey } of guilds) {
    for (const c of await fund.redeemedWaiting(guildKey)) {
      const owed = Number(c.cents ?? 0) - (await fund.withdrawnSoFar(c.cashoutId));
      if (owed < amount) continue;
      const at = d.now();
      const attempt = await fund.beginWithdrawal({ cashoutId: c.cashoutId, sessionId, at, amountCents: amount });
      if (!attempt) continue;
      // Tied to its withdrawal id, as an attempt whose job named it: one the bookmaker still holds pending stays
      // so, and the fund's beat follows it by that id in the history (completed or failed later).
      await fund.moveWithdrawal(
        attempt.attemptId,
        'markUnknown',
        { gatewayWithdrawalId: tx.id, bookmakerStatus: status, note: 'found in the book history after a restore' },
        at,
      );
      if (status !== 'pending') {
        await fund.moveWithdrawal(attempt.attemptId, status === 'failed' ? 'markFailed' : 'markCompleted', {}, at);
      }
      return true;
    }
  }
  return false;
}

/** The report once per server that has a results channel, through the outbox (sent when the bot is online). */
async function post(d: RestoreCheckDeps, report: RestoreReport): Promise<void> {
  const guilds = await d.store.query<{ g: string | null }>(
    `SELECT guild_key AS g FROM bet_records UNION SELECT guild_key AS g FROM funds
     UNION SELECT guild_id AS g FROM slips`,
  );
  const view = restoreView(report);
  for (const g of [...new Set(guilds.map((r) => r.g).filter((x): x is string => !!x && x !== 'dm'))].sort()) {
    const settings = await getSettings(d.store, g);
    if (!settings.resultsChannelId) continue;
    await d.outbox.create(`restore:${g}:${report.marker.from}:${report.since}`, settings.resultsChannelId, view);
  }
}

export function restoreView(r: RestoreReport): MessageView {
  const unknown = [
    ...r.unknownBets.map(
      ({ sessionId, tx }) =>
        `bet ${tx.id} (${sessionId}): ${formatMoney(cents(tx.stake))} placed ${String(tx.placed_at)}, no record or slip of the backup is its; name it with /fund explain if it is the fund's`,
    ),
    ...r.unknownWithdrawals.map(
      ({ sessionId, tx }) =>
        `withdrawal ${tx.id} (${sessionId}): ${formatMoney(cents(tx.stake))}, ${withdrawalStatus(tx)}, no cash-out of the backup is owed it`,
    ),
    ...r.inactive.map((sessionId) => `session ${sessionId}: not active at the gateway, so its history was not read`),
  ];
  const clean = r.verify.ok && unknown.length === 0;
  const head = r.marker.head ? `entry ${r.marker.head.seq}` : 'no entries';
  return fitView({
    content: '',
    embeds: [
      {
        title: `Restored from a backup · ${r.marker.from}`,
        description: clip(
          [
            `The desk started on a restored store (ledger head at the backup: ${head}) and checked it against the gateway before taking bets.`,
            verifyText(r.verify),
            `${r.gatewayBets} bet${r.gatewayBets === 1 ? '' : 's'} at the gateway from shortly before the backup on: ${r.alreadyKnown} already in the backup, ${r.adoptedRecords} adopted into their bet records, ${r.adoptedSlips} into the slips members confirmed after the backup.`,
            `Withdrawals the backup had no attempt for, recorded for the cash-outs they were made for: ${r.adoptedWithdrawals}.`,
            clean
              ? 'Nothing unaccounted for.'
              : `${unknown.length} move${unknown.length === 1 ? '' : 's'} unaccounted for.`,
          ].join('\n'),
          LIMITS.embedDescription,
        ),
        color: clean ? COLOUR.ok : COLOUR.refused,
        fields: unknown.length
          ? [{ name: 'Unaccounted for', value: clip(unknown.slice(0, 15).join('\n'), LIMITS.fieldValue) }]
          : [],
      },
    ],
    components: [],
  });
}
