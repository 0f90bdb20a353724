import type { Transaction } from '../../gateway/index.js';
import { FundRepo, fundEntryMismatches, matchSessionDeposits, withdrawalStatus } from '../fund/index.js';
import type { GatewayPort } from '../gateway-port.js';
import { readTransactionsSince } from '../jobs/index.js';
import { Ledger } from '../ledger/index.js';
import { BET_ENTRY_KINDS, BET_STATES, type BetState, checkBetEntries, isSettledStatus } from '../model/bet-states.js';
import { COLOUR } from '../model/colours.js';
import { dayIn, dayStart } from '../model/dates.js';
import { gatewayCents } from '../model/gateway-amounts.js';
import { clip, fitView, LIMITS, type MessageView } from '../model/limits.js';
import { formatMoney } from '../model/money.js';
import { sqlStates } from '../model/state-sets.js';
import type { DeskMetrics } from '../ops/metrics.js';
import type { Outbox } from '../outbox/index.js';
import { getSettings } from '../settings/index.js';
import type { BotStore } from '../store/index.js';
import {
  type BalanceCheck,
  balanceMismatch,
  compareBalance,
  deskBets,
  previousCheck,
  recordBalanceChecks,
} from './balance-check.js';

/** What the day's reconciliation found wrong, each naming the bet. */
export interface ReconMismatch {
  /**
   * unknown_bet, missed_settlement: the gateway against the ledger. missing_entry, extra_entry: a bet record's
   * ledger entries against its state (a move without its entry, an entry without its move).
   */
  kind:
    | 'unknown_bet'
    | 'missed_settlement'
    | 'balance'
    | 'missing_entry'
    | 'extra_entry'
    | 'fund_units'
    | 'fund_entries';
  sessionId: string;
  /** The bet named (the gateway's bet id, or the placement id for a ledger entry mismatch), or '' for a balance mismatch. */
  betId: string;
  detail: string;
}

export interface ReconSession {
  sessionId: string;
  gatewayBets: number;
  matched: number;
  /** The transactions could not be read (the job did not complete): nothing was judged for this session. */
  unread: boolean;
  /** The cash against what the desk's records imply; undefined when the balance could not be read. */
  balance?: BalanceCheck;
  /** Moves the gateway lists that the fund explains (matched deposits, the desk's withdrawals), by id. */
  fundExplained?: string[];
}

export interface ReconReport {
  day: string;
  /** Each session's book and account user name ("bookie_a · alpha_a"), the way the post names it. */
  accounts?: Record<string, string>;
  sessions: ReconSession[];
  mismatches: ReconMismatch[];
  /** The day's fund moves (deposits, withdrawals, contributions still unmatched), each in words; none without a fund. */
  fundMoves?: Array<{ sessionId: string; text: string; matched: boolean }>;
}

/**
 * The ledger against each session's /v3/transactions for one day of the server's time zone: every bet the
 * gateway took that day must be a placement in the ledger, and every bet the book settled that day a settlement.
 * Sessions are those the desk has bet through and the key's active ones; the ledger is the whole desk's, so
 * another server's bets on a shared account are not reported as unknown.
 */
export async function reconcileDay(input: {
  store: BotStore;
  gateway: GatewayPort;
  callbackUrl: string | undefined;
  guildKey: string;
  day: string;
  timezone: string;
  now: number;
}): Promise<ReconReport> {
  const from = dayStart(input.day, input.timezone);
  if (from === undefined) throw new Error(`not a day: ${input.day}`);
  const to = dayStart(dayIn(from + 36 * 3_600_000, input.timezone), input.timezone) ?? from + 86_400_000;
  const entries = await new Ledger(input.store).allOfKinds(['placement', 'settlement']);
  const desk = deskBets(entries);
  const placementByBet = new Map<string, string>();
  const settledPlacements = new Set<string>();
  for (const e of entries) {
    if (e.kind === 'placement' && typeof e.data.betId === 'string') placementByBet.set(e.data.betId, e.ref);
    if (e.kind === 'settlement') settledPlacements.add(e.ref);
  }
  const used = await input.store.query<{ session_id: string }>(
    'SELECT DISTINCT session_id FROM bet_records WHERE guild_key = ?',
    input.guildKey,
  );
  const listed = await input.gateway.sessions.list();
  const active = listed.filter((s) => s.active).map((s) => s.session_id);
  const sessions = [...new Set([...used.map((r) => r.session_id), ...active])].sort();
  const report: ReconReport = {
    day: input.day,
    accounts: Object.fromEntries(listed.map((s) => [s.session_id, `${s.bookie} · ${s.username}`])),
    sessions: [],
    mismatches: await entryMismatches(input.store, input.guildKey, from, to),
  };
  const fundRepo = new FundRepo(input.store);
  const hasFund = (await fundRepo.fund(input.guildKey)) !== undefined;
  if (hasFund) report.fundMoves = [];
  const inDay = (iso: string | null | undefined) => {
    const t = Date.parse(String(iso ?? ''));
    return Number.isFinite(t) && t >= from && t < to;
  };
  for (const sessionId of sessions) {
    // The balance first, then the history: every move the balance holds is then in the history read.
    const previous = await previousCheck(input.store, sessionId);
    const balance = await input.gateway.balances.get({ session_id: sessionId }).catch(() => undefined);
    // Back to the previous check and to the desk's oldest bet still open then, so their settlements are read.
    const [open] = await input.store.query<{ since: number | null }>(
      `SELECT MIN(created_at) AS since FROM bet_records WHERE session_id = ?
         AND (state IN ${sqlStates(BET_STATES.open)} OR updated_at >= ?)`,
      sessionId,
      previous?.retrievedAt ?? from,
    );
    const since = Math.min(from, previous?.retrievedAt ?? from, Number(open?.since ?? from) || from);
    const read = await readTransactionsSince(input.gateway, sessionId, since, input.now, {
      callbackUrl: input.callbackUrl,
    });
    if (!read) {
      report.sessions.push({ sessionId, gatewayBets: 0, matched: 0, unread: true });
      continue;
    }
    const compared = balance
      ? compareBalance({ sessionId, balance, transactions: read.transactions, previous, desk, now: input.now })
      : undefined;
    // Rows beyond the largest read may hold moves since the previous check: not judged on part of the history.
    const check =
      compared && !read.complete && compared.notCompared === undefined
        ? { ...compared, impliedCents: null, notCompared: 'history_incomplete' as const }
        : compared;
    const fund = hasFund
      ? await fundMovesOn(fundRepo, input.guildKey, sessionId, read.transactions, { inDay, to })
      : undefined;
    if (fund) report.fundMoves?.push(...fund.moves);
    const explained = new Set(fund?.explained ?? []);
    const balanceDetail = check ? balanceMismatch(check, explained) : undefined;
    if (balanceDetail) report.mismatches.push({ kind: 'balance', sessionId, betId: '', detail: balanceDetail });
    const bets = read.transactions.filter((t: Transaction) => t.type === 'bet');
    const placedToday = bets.filter((t) => inDay(t.placed_at));
    let matched = 0;
    for (const tx of placedToday) {
      if (placementByBet.has(tx.id)) matched++;
      else {
        report.mismatches.push({
          kind: 'unknown_bet',
          sessionId,
          betId: tx.id,
          detail: `a ${formatMoney(gatewayCents(tx.stake))} bet at the gateway that the ledger has no placement for`,
        });
      }
    }
    for (const tx of bets.filter((t) => isSettledStatus(t.status) && inDay(t.settled_at))) {
      const placement = placementByBet.get(tx.id);
      if (placement !== undefined && !settledPlacements.has(placement)) {
        report.mismatches.push({
          kind: 'missed_settlement',
          sessionId,
          betId: tx.id,
          detail: `settled ${tx.status} at the book, but the ledger has no settlement for it`,
        });
      }
    }
    report.sessions.push({
      sessionId,
      gatewayBets: placedToday.length,
      matched,
      unread: false,
      ...(check ? { balance: check } : {}),
      ...(fund ? { fundExplained: fund.explained } : {}),
    });
  }
  if (hasFund) {
    // The fund's rows against each other: units issued less units redeemed are the units outstanding, and the
    // members' holdings add up to them.
    const u = await fundRepo.unitsCheck(input.guildKey);
    if (u.issued - u.redeemed !== u.outstanding || u.held !== u.outstanding) {
      report.mismatches.push({
        kind: 'fund_units',
        sessionId: '',
        betId: '',
        detail: `units issued ${u.issued} - redeemed ${u.redeemed} = ${u.issued - u.redeemed}, members hold ${u.held}, the fund reads ${u.outstanding} outstanding (in millionths of a unit)`,
      });
    }
    // The fund's ledger entries against its rows: units issued − cancelled = outstanding, each contribution's and
    // cash-out's entry, each withdrawal attempt's entries retracing its moves (decision 1903).
    for (const detail of fundEntryMismatches(await fundRepo.rowsAndEntries(input.guildKey))) {
      report.mismatches.push({ kind: 'fund_entries', sessionId: '', betId: '', detail });
    }
  }
  return report;
}

/**
 * A session's deposits and withdrawals made on the day, against the fund: a deposit matched to a contribution (the
 * match is made here too, as at a strike), a withdrawal the desk made for a cash-out or the fee, and what is not;
 * then the contributions recorded by the day's end that no deposit matches yet.
 */
async function fundMovesOn(
  repo: FundRepo,
  guildKey: string,
  sessionId: string,
  transactions: readonly Transaction[],
  day: { inDay: (iso: string | null | undefined) => boolean; to: number },
): Promise<{ moves: NonNullable<ReconReport['fundMoves']>; explained: string[] }> {
  await matchSessionDeposits(repo, guildKey, sessionId, transactions);
  const contributions = (await repo.contributions(guildKey)).filter((c) => c.sessionId === sessionId);
  const byDeposit = new Map(contributions.flatMap((c) => (c.depositId ? [[c.depositId, c] as const] : [])));
  const desk = await repo.withdrawalsByGatewayId(guildKey);
  const moves: NonNullable<ReconReport['fundMoves']> = [];
  const explained: string[] = [];
  const money = (t: Transaction) => formatMoney(gatewayCents(t.stake));
  for (const t of transactions.filter((x) => day.inDay(x.placed_at))) {
    if (t.type === 'deposit') {
      const c = byDeposit.get(t.id);
      if (c) explained.push(t.id);
      moves.push({
        sessionId,
        matched: c !== undefined,
        text: c
          ? `deposit ${money(t)} matched to <@${c.memberId}>'s contribution \`${c.contributionId}\``
          : `deposit ${money(t)} (${t.id}): no contribution recorded for it; a treasurer records it with /fund contribute`,
      });
    } else if (t.type === 'withdrawal') {
      const w = desk.get(t.id);
      if (w) explained.push(t.id);
      const status = withdrawalStatus(t);
      moves.push({
        sessionId,
        matched: w !== undefined,
        text: w
          ? `withdrawal ${money(t)} (${status}) for ${w.share ? `<@${w.memberId}>'s tipster share` : w.fee ? 'the performance fee' : `<@${w.memberId}>'s cash-out`} \`${w.cashoutId}\``
          : `withdrawal ${money(t)} (${t.id}, ${status}): not made by the desk`,
      });
    }
  }
  for (const c of contributions.filter((x) => !x.depositId && x.createdAt < day.to)) {
    moves.push({
      sessionId,
      matched: false,
      text: `contribution \`${c.contributionId}\` of <@${c.memberId}>, ${formatMoney(c.amountCents)}: no deposit of that amount on the session yet`,
    });
  }
  return { moves, explained };
}

/**
 * Every bet record of the guild last moved on the day, its ledger entries against its state: each move writes
 * its entry in the move's own transaction, so any mismatch here is named (a lost entry, one written without its
 * move, or a record changed outside the bot).
 */
async function entryMismatches(store: BotStore, guildKey: string, from: number, to: number): Promise<ReconMismatch[]> {
  const records = await store.query<{ placement_id: string; session_id: string; state: BetState }>(
    `SELECT placement_id, session_id, state FROM bet_records
     WHERE guild_key = ? AND updated_at >= ? AND updated_at < ? ORDER BY created_at`,
    guildKey,
    from,
    to,
  );
  if (records.length === 0) return [];
  const byRef = new Map<string, Array<{ seq: number; kind: string; from: BetState | null; to: BetState }>>();
  const entries = await new Ledger(store).forRefs(records.map((r) => r.placement_id));
  for (const e of entries.filter((x) => BET_ENTRY_KINDS.has(x.kind))) {
    const list = byRef.get(e.ref) ?? [];
    list.push({
      seq: e.seq,
      kind: e.kind,
      from: (e.data.from ?? null) as BetState | null,
      to: e.data.to as BetState,
    });
    byRef.set(e.ref, list);
  }
  return records.flatMap((r) =>
    checkBetEntries(r.state, byRef.get(r.placement_id) ?? []).map(
      (p): ReconMismatch => ({
        kind: p.problem,
        sessionId: r.session_id,
        betId: r.placement_id,
        detail: `the bet record is ${r.state}, but ${p.detail} in the ledger`,
      }),
    ),
  );
}

export function reconciliationView(r: ReconReport): MessageView {
  const bets = r.sessions.reduce((a, s) => a + s.gatewayBets, 0);
  const matched = r.sessions.reduce((a, s) => a + s.matched, 0);
  const unread = r.sessions.filter((s) => s.unread);
  const who = (sessionId: string) => r.accounts?.[sessionId] ?? sessionId;
  const clean = r.mismatches.length === 0 && unread.length === 0;
  const lines = r.mismatches
    .slice(0, 15)
    .map((m) => `${mismatchLabel(m)}${m.sessionId ? ` (${who(m.sessionId)})` : ''}: ${m.detail}`)
    .concat(r.mismatches.length > 15 ? [`… and ${r.mismatches.length - 15} more`] : []);
  return fitView({
    content: '',
    embeds: [
      {
        title: `Daily reconciliation · ${r.day}`,
        description: clip(
          `${matched} of ${bets} bet${bets === 1 ? '' : 's'} at the gateway matched the ledger. ${
            clean ? 'No mismatches.' : `${r.mismatches.length} mismatch${r.mismatches.length === 1 ? '' : 'es'}.`
          }`,
          LIMITS.embedDescription,
        ),
        color: clean ? COLOUR.ok : COLOUR.refused,
        fields: [
          ...(lines.length ? [{ name: 'Mismatches', value: clip(lines.join('\n'), LIMITS.fieldValue) }] : []),
          ...(r.fundMoves?.length
            ? [
                {
                  name: 'Fund moves',
                  value: clip(
                    r.fundMoves.map((m) => `${m.matched ? '✓' : '✗'} ${who(m.sessionId)}: ${m.text}`).join('\n'),
                    LIMITS.fieldValue,
                  ),
                },
              ]
            : []),
          {
            name: 'Accounts',
            value: clip(
              r.sessions
                .map((s) =>
                  s.unread
                    ? `${who(s.sessionId)}: transactions could not be read; checked again next run`
                    : `${who(s.sessionId)}: ${s.matched} of ${s.gatewayBets} matched; ${balanceLine(s.balance, s.fundExplained)}`,
                )
                .join('\n') || 'none',
              LIMITS.fieldValue,
            ),
          },
        ],
      },
    ],
    components: [],
  });
}

function mismatchLabel(m: ReconMismatch): string {
  if (m.kind === 'balance') return '**Balance**';
  if (m.kind === 'fund_units') return "**The fund's units**";
  if (m.kind === 'fund_entries') return "**The fund's entries against its rows**";
  if (m.kind === 'missing_entry') return `**Missing ledger entry** · bet ${m.betId}`;
  if (m.kind === 'extra_entry') return `**Extra ledger entry** · bet ${m.betId}`;
  return `**${m.betId}**`;
}

/** A session's balance in the report: compared, or why not. */
function balanceLine(c: BalanceCheck | undefined, fundExplained: readonly string[] = []): string {
  if (!c) return 'balance could not be read; compared next run';
  const cash = formatMoney(c.cashCents);
  if (c.notCompared === 'first') return `cash ${cash} recorded, compared from the next run`;
  if (c.notCompared === 'moved_after_read') return 'money moved after the balance was read; compared next run';
  if (c.notCompared === 'history_incomplete')
    return 'not compared: the history since the last check is longer than one read';
  if (c.listed.length > 0 && balanceMismatch(c, new Set(fundExplained)) === undefined && c.previous) {
    return `cash ${cash}, as the desk's records and the fund's moves imply`;
  }
  return c.impliedCents === c.cashCents && c.listed.length === 0
    ? `cash ${cash}, as the desk's records imply`
    : `cash ${cash}, ${formatMoney(c.impliedCents ?? 0)} implied`;
}

/** The report's balance checks, recorded once it is posted: each is where the next comparison starts. */
export function checksOf(r: ReconReport): BalanceCheck[] {
  return r.sessions.flatMap((s) => (s.balance ? [s.balance] : []));
}

/** When this desk's store was made (its first migration), or undefined when it does not say. */
async function storeBornAt(store: BotStore): Promise<number | undefined> {
  const rows = await store.query<{ t: number | string | null }>('SELECT MIN(applied_at) AS t FROM schema_migrations');
  const t = Number(rows[0]?.t ?? Number.NaN);
  return Number.isFinite(t) ? t : undefined;
}

/**
 * One beat of the daily reconciliation: for each server with a results channel whose report for yesterday (in its
 * time zone) is not posted yet, reconcile the day, post the report once and record the balance checks. A server
 * whose sessions could not all be read is tried again on the next beat. A day over before the desk's store was made
 * is not reported: a new desk's first beat posted a report of the day before it ran, which held nothing of it.
 */
export async function reconcileYesterday(d: {
  guildIds: Iterable<string>;
  store: BotStore;
  gateway: GatewayPort;
  outbox: Pick<Outbox, 'has' | 'create'>;
  callbackUrl: string | undefined;
  now: number;
  metrics?: Pick<DeskMetrics, 'reconciliationMismatches'>;
}): Promise<void> {
  const born = await storeBornAt(d.store);
  for (const guildId of d.guildIds) {
    const settings = await getSettings(d.store, guildId);
    if (!settings.resultsChannelId) continue;
    const todayStarted = dayStart(dayIn(d.now, settings.timezone), settings.timezone);
    if (born !== undefined && todayStarted !== undefined && todayStarted <= born) continue;
    const day = dayIn(d.now - 86_400_000, settings.timezone);
    const key = `recon:${guildId}:${day}`;
    if (await d.outbox.has(`create:${key}`)) continue;
    const report = await reconcileDay({
      store: d.store,
      gateway: d.gateway,
      callbackUrl: d.callbackUrl,
      guildKey: guildId,
      day,
      timezone: settings.timezone,
      now: d.now,
    });
    if (report.sessions.some((s) => s.unread)) continue;
    await d.outbox.create(key, settings.resultsChannelId, reconciliationView(report));
    for (const m of report.mismatches) d.metrics?.reconciliationMismatches.inc({ kind: m.kind });
    await recordBalanceChecks(d.store, guildId, checksOf(report), d.now);
  }
}
