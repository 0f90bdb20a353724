import type { APIEmbedField } from 'discord.js';
import { type BalanceRecord, betOutcomeOf, type Session } from '../../../gateway/index.js';
import type { JobRecord } from '../../jobs/index.js';
import { COLOUR } from '../../model/colours.js';
import { DEFAULT_MARGIN_METHOD, METHOD_LABEL } from '../../model/fair-price.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { centsFromDollars, formatMoney } from '../../model/money.js';
import { formatOdds } from '../../model/odds.js';
import { plural } from '../../model/plural.js';
import { type StoredStake, storedStakeCents } from '../../model/slip-rules.js';
import type { GuildSettings } from '../../settings/index.js';
import { approvalPolicy } from '../model/approval-policy.js';
import { DEFAULT_KELLY_FRACTION } from '../model/kelly.js';

const field = (name: string, value: string, inline = false): APIEmbedField => ({
  name: clip(name || '–', LIMITS.fieldName),
  value: clip(value || '–', LIMITS.fieldValue),
  inline,
});

/** A session as people read it: its account at the book and the end of its id, never the whole UUID. */
export function sessionName(s: { session_id: string; username?: string | null }): string {
  return `${s.username || 'unnamed account'} (session …${s.session_id.slice(-4)})`;
}

export function sessionsView(sessions: Session[]): MessageView {
  const rows = sessions
    .slice(0, LIMITS.embedFields)
    .map((s) =>
      field(
        `${s.bookie} · ${sessionName(s)}`,
        `${s.active ? '🟢 active' : '⚪ inactive'}${s.pc_id ? ` · ${s.pc_id}` : ''}`,
      ),
    );
  return fitView({
    embeds: [
      {
        title: 'Sessions',
        description:
          sessions.length === 0
            ? 'This API key has no sessions.'
            : `${plural(sessions.length, 'session')} on this desk's key.`,
        color: COLOUR.info,
        fields: rows,
        ...(sessions.length > LIMITS.embedFields
          ? { footer: { text: `${sessions.length - LIMITS.embedFields} more not shown` } }
          : {}),
      },
    ],
    components: [],
  });
}

export function balancesView(rows: Array<{ session: Session; balance?: BalanceRecord; error?: string }>): MessageView {
  return fitView({
    embeds: [
      {
        title: 'Balances',
        color: COLOUR.info,
        description: rows.length === 0 ? 'No active session for that book. See /sessions.' : undefined,
        fields: rows
          .slice(0, LIMITS.embedFields)
          .map(({ session, balance, error }) =>
            field(
              `${session.bookie} · ${sessionName(session)}`,
              balance
                ? `**${formatMoney(centsFromDollars(balance.balance))}** total · ${formatMoney(centsFromDollars(balance.withdrawable_balance ?? 0))} withdrawable · ${formatMoney(centsFromDollars(balance.bonus_balance ?? 0))} bonus${balance.retrieved_at ? ` · as of <t:${Math.floor(Date.parse(balance.retrieved_at) / 1000)}:R>` : ''}`
                : `unavailable: ${error ?? 'unknown error'}`,
            ),
          ),
      },
    ],
    components: [],
  });
}

const STATE: Record<string, string> = { pending: '⏳ pending', resolved: '✅ resolved', posted: '✅ done' };

function outcomeText(job: JobRecord): string {
  const o = job.outcome as { status?: string; result?: Record<string, unknown> } | null;
  if (!o) return 'waiting for the result';
  if (o.status !== 'completed') return `gateway reported ${o.status}`;
  if (job.kind === 'bet') {
    const bet = betOutcomeOf(o.result);
    if (bet.placed) return `placed · bet ${bet.betId}`;
    return bet.unreadable ? `unreadable · ${bet.message}` : `refused · ${bet.message ?? 'no reason given'}`;
  }
  return o.result?.success === false ? 'failed' : 'completed';
}

export function jobsView(jobs: JobRecord[]): MessageView {
  return fitView({
    embeds: [
      {
        title: 'Jobs',
        color: COLOUR.info,
        description: jobs.length === 0 ? 'No jobs yet. Bets you confirm show up here.' : 'Most recent first.',
        fields: jobs.slice(0, LIMITS.embedFields).map((j) => {
          const ctx = j.context as { slip?: { selectionLabel?: string; bookie?: string } & StoredStake };
          const what = ctx.slip
            ? `${ctx.slip.selectionLabel ?? ''} · ${formatMoney(storedStakeCents(ctx.slip))} · ${ctx.slip.bookie ?? ''}`
            : j.kind;
          return field(
            `${j.kind} · job …${j.correlationId.slice(-8)}`,
            `${STATE[j.state] ?? j.state} · ${outcomeText(j)}\n${what} · <t:${Math.floor(j.createdAt / 1000)}:R>`,
          );
        }),
      },
    ],
    components: [],
  });
}

const cap = (capCents: number | undefined, pct?: number) =>
  [capCents === undefined ? undefined : formatMoney(capCents), pct === undefined ? undefined : `${pct}% of the bank`]
    .filter(Boolean)
    .join(' or ') || 'none';

/** The bank slips size from, as the desk reads it now (a fund's NAV at its last strike, else the set bank). */
export interface BankInUse {
  cents: number;
  source: 'nav' | 'set';
  asOf: Date;
}

export function settingsView(
  s: GuildSettings,
  defaults: { perBetCents: number; perDayCents: number },
  bank: BankInUse | null = setBank(s),
  /** How a chosen session is named: its account (e.g. "alpha_b"), not its UUID. */
  sessionLabel: (sessionId: string) => string = (id) => `session …${id.slice(-4)}`,
  /** The fund's accounts (`bookie/username`); empty with no fund. */
  fundAccounts: readonly string[] = [],
): MessageView {
  const sessions = Object.entries(s.sessions);
  return fitView({
    embeds: [
      {
        title: 'Desk settings',
        color: COLOUR.info,
        fields: [
          field('Results channel', s.resultsChannelId ? `<#${s.resultsChannelId}>` : 'the channel of each bet', true),
          field(
            'Role allowed to bet',
            s.betRoleId ? `<@&${s.betRoleId}>` : 'none set: betting closed (Manage Server only)',
            true,
          ),
          field('Time zone', s.timezone, true),
          field(
            'Approvals',
            (() => {
              const a = approvalPolicy(s);
              return [
                `up to ${formatMoney(a.t1Cents)}: none`,
                `up to ${formatMoney(a.t2Cents)}: one approver`,
                `above: two approvers`,
                `approvers: ${a.approverRoleId ? `<@&${a.approverRoleId}>` : 'Manage Server'}`,
                `proposals expire after ${Math.round((a.expiryMs / 60_000) * 100) / 100} min`,
              ].join('\n');
            })(),
          ),
          field('Per-bet limit', cap(s.maxStakePerBetCents ?? defaults.perBetCents, s.maxStakePerBetPct), true),
          field(
            'Per-day limit (per user)',
            cap(s.maxStakePerDayCents ?? defaults.perDayCents, s.maxStakePerDayPct),
            true,
          ),
          field(
            'Exposure caps (all members and accounts)',
            [
              `per event: ${cap(s.maxPerEventCents, s.maxPerEventPct)}`,
              `per market: ${cap(s.maxPerMarketCents, s.maxPerMarketPct)}`,
              `per account a day: ${cap(s.maxPerSessionDayCents)}`,
              `syndicate a day: ${cap(s.maxPerSyndicateDayCents)}`,
              `per runner of a race (singles and multi legs): ${cap(s.maxPerRunnerCents)}`,
            ].join('\n'),
          ),
          field('Staking', stakingText(s, bank, fundAccounts)),
          field(
            'Sessions by book',
            sessions.length === 0
              ? 'first active session of each book'
              : sessions.map(([b, id]) => `${b}: ${sessionLabel(id)}`).join('\n'),
          ),
          field(
            'Fund',
            [
              `accounts: ${fundAccounts.length ? fundAccounts.join(', ') : 'none yet (/fund accounts action:add)'}`,
              `treasurers: ${s.fundTreasurerRoleId ? `<@&${s.fundTreasurerRoleId}> and Manage Server` : 'Manage Server'}`,
              `dealing: ${s.fundSchedule ?? 'on demand only (/fund strike)'}`,
              `cash-outs above ${formatMoney(s.fundCashoutTierCents ?? 50_000)} need approval`,
              `smallest cash-out ${formatMoney(s.fundMinCashoutCents ?? 1000)} (all: any amount)`,
              `performance fee: ${feeText(s)}`,
              `tipster share: ${shareText(s)}`,
            ].join('\n'),
          ),
        ],
      },
    ],
    components: [],
  });
}

export interface PriceRow {
  label: string;
  prices: Array<{ market: string; price: number | null }>;
}

export function priceView(input: {
  title: string;
  subtitle: string;
  books: Array<{ bookie: string; rows?: PriceRow[]; error?: string }>;
}): MessageView {
  return fitView({
    embeds: [
      {
        title: clip(input.title, LIMITS.embedTitle),
        description: clip(input.subtitle, LIMITS.embedDescription),
        color: COLOUR.info,
        fields: input.books
          .slice(0, LIMITS.embedFields)
          .map((b) =>
            field(
              b.bookie,
              b.rows
                ? b.rows.length === 0
                  ? 'no prices'
                  : b.rows
                      .map(
                        (r) =>
                          `${r.label}: ${r.prices.map((p) => `${p.market} ${p.price === null ? '–' : `**${formatOdds(p.price)}**`}`).join(' · ')}`,
                      )
                      .join('\n')
                : `no price: ${b.error ?? 'failed'}`,
            ),
          ),
        footer: { text: 'Live prices from the price check; they move.' },
      },
    ],
    components: [],
  });
}

/** The bank, the Kelly fraction, the stake unit and the margin method, as /settings shows them. */
function setBank(s: GuildSettings): BankInUse | null {
  return s.bankCents === undefined ? null : { cents: s.bankCents, source: 'set', asOf: new Date(s.bankSetAt ?? 0) };
}

/** Which bank slips and share caps use now, and where it comes from. */
function bankText(s: GuildSettings, bank: BankInUse | null, fundAccounts: readonly string[]): string {
  if (bank?.source !== 'nav' && fundAccounts.length > 0) {
    const until =
      bank === null
        ? 'until then none (no suggested stakes, no share caps)'
        : `until then the set ${formatMoney(bank.cents)}`;
    return `the fund's NAV from its first strike (not struck yet; ${until})`;
  }
  if (bank === null) return 'not set (no suggested stakes, no share caps)';
  if (bank.source === 'set') return `${formatMoney(bank.cents)} (set with /settings bank)`;
  const when = `<t:${Math.floor(bank.asOf.getTime() / 1000)}:f>`;
  // With the fund's accounts named, the next line says what the set bank sizes (bets outside the fund).
  const unused =
    s.bankCents === undefined || fundAccounts.length > 0
      ? ''
      : `; the set ${formatMoney(s.bankCents)} applies only while the fund holds nothing`;
  return `the fund's NAV, ${formatMoney(bank.cents)} at its strike of ${when}${unused}`;
}

/** The performance fee: its rate, how often it crystallises, and whom it is owed to (decision 1704). */
function feeText(s: GuildSettings): string {
  const period = s.fundFeePeriod ?? 'month';
  if (!s.fundFeePercent) {
    const chosen = [
      s.fundFeePeriod ? `period ${period}` : '',
      s.fundFeeManagerId ? `manager <@${s.fundFeeManagerId}>` : '',
    ].filter(Boolean);
    return `off (turn it on with /settings fund fee_percent:20, any rate up to 50${chosen.length ? `; ${chosen.join(', ')} kept` : ''})`;
  }
  const manager = s.fundFeeManagerId
    ? `<@${s.fundFeeManagerId}>`
    : 'no one yet (name them with /settings fund fee_manager:)';
  return `${s.fundFeePercent}% above the high-water mark, crystallised each ${period}, owed to ${manager}`;
}

/** The tipster share: its rate and what caps it (decision 1923). */
function shareText(s: GuildSettings): string {
  if (!s.fundSharePercent) return 'off (turn it on with /settings fund share_percent:20, any rate up to 50)';
  return `${s.fundSharePercent}% of each tipster's attributed profit above their own mark, capped by the fund's gain above its mark, crystallised each ${s.fundFeePeriod ?? 'month'} with the fee`;
}

function stakingText(s: GuildSettings, bank: BankInUse | null, fundAccounts: readonly string[]): string {
  return [
    `bank: ${bankText(s, bank, fundAccounts)}`,
    ...(fundAccounts.length > 0
      ? [
          `bets through other accounts are outside the fund: sized from ${s.bankCents === undefined ? 'no bank (no suggested stakes, no share caps)' : `the set ${formatMoney(s.bankCents)}`}; best price routes only among the fund's accounts`,
        ]
      : []),
    `suggested stake: ${s.kellyFraction ?? DEFAULT_KELLY_FRACTION} Kelly, in units of ${formatMoney(s.stakeUnitCents ?? 100)}`,
    `fair price: ${METHOD_LABEL[s.marginMethod ?? DEFAULT_MARGIN_METHOD]}`,
  ].join('\n');
}
