import { ButtonStyle, ComponentType } from 'discord.js';
import { encodeCustomId } from '../../discord/custom-id.js';
import { COLOUR } from '../../model/colours.js';
import { discordTime } from '../../model/dates.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { formatMoney } from '../../model/money.js';
import { type CashoutAsk, FEE_MANAGER_UNSET, formatUnits } from '../model/fund.js';
import type { Cashout, Contribution, FundMembers, FundStatement, StrikeRecord } from '../model/fund-records.js';
import { isIn, STATES } from '../model/fund-states.js';
import { bpsText as bpsPercent } from '../model/risk-limits.js';
import { formatUnitPrice, plainUnitPrice } from '../model/unit-price.js';

const $ = (c: number) => formatMoney(c);
const pct = (r: number | null) => (r === null ? '—' : `${(r * 100).toFixed(2)}%`);
const when = discordTime;

/** How a strike's dealing reads: "on demand", or its dealing day. */
export function dealingText(dealingKey: string): string {
  return dealingKey.startsWith('demand:') ? 'on demand' : `dealing day ${dealingKey}`;
}

/** A footer for support naming the records a view lists (their ids are for support, not for reading). */
function supportFooter(ids: readonly string[]): { footer: { text: string } } | Record<string, never> {
  return ids.length ? { footer: { text: clip(`For support: ${ids.join(', ')}`, LIMITS.footer) } } : {};
}

export function askText(ask: CashoutAsk): string {
  if (ask.kind === 'all') return 'all units';
  if (ask.kind === 'units') return `${formatUnits(ask.units)} units`;
  if (ask.kind === 'fee') return 'the performance fee';
  if (ask.kind === 'share') return 'the tipster share';
  return $(ask.cents);
}

/** A session as the fund names it: its account (book and user name), never its id. */
export type AccountOfSession = (sessionId: string) => string | undefined;

/** The accounts a strike read, by the session it read each through (a twin session is not among them). */
function readAccounts(s: StrikeRecord): AccountOfSession {
  const read = new Map(s.inputs.sessions.map((x) => [x.sessionId, x.account]));
  return (id) => read.get(id);
}

/** When a balance was read, as Discord shows a time; '' when the gateway gave none. */
function readAt(iso: string | null): string {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(ms) ? `, read ${when(ms)}` : '';
}

const countOf = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The contributions a strike did not deal because their deposit has not arrived, each with its account. */
export function unmatchedLine(unmatched: readonly Contribution[], accountOf: AccountOfSession): string {
  if (unmatched.length === 0) return '';
  const rows = unmatched.map(
    (c) => `<@${c.memberId}> ${$(c.amountCents)} into ${accountOf(c.sessionId) ?? "one of the fund's accounts"}`,
  );
  return `Waiting for their deposit (not dealt, not in NAV until the bookmaker lists it): ${rows.join('; ')}.`;
}

/**
 * The strike's post in the results channel (and the treasurer's private reply): NAV, units, price, every input with
 * its source, and the contributions still waiting for their deposit. Accounts by book and user name; the strike's id
 * only in a footer for support.
 */
export function strikeView(
  s: StrikeRecord,
  unmatched: readonly Contribution[] = [],
  accountOf: AccountOfSession = readAccounts(s),
): MessageView {
  const i = s.inputs;
  const inputs = [
    ...i.sessions.map(
      (x) =>
        `${x.account ?? accountOf(x.sessionId) ?? 'An account of the fund'}: balance ${$(x.balanceCents)} - bonus ${$(x.bonusCents)}${x.floatCents ? ` - float ${$(x.floatCents)}` : ''} = cash ${$(x.balanceCents - x.bonusCents - (x.floatCents ?? 0))} (the bookmaker's balance${readAt(x.retrievedAt)})`,
    ),
    `Open stake at cost: ${$(i.openStakeCents)} (${i.openBets} placed bet${i.openBets === 1 ? '' : 's'} not settled)`,
    `Withdrawn, not yet paid: ${$(i.withdrawnUnpaidCents)}`,
    `Owed to members and the manager (struck or crystallised, not paid): ${$(-i.owedRedemptionsCents)}`,
    `Performance fee accrued this period: ${$(-s.feeCents)} (worked out afresh; ${$(i.feesAccruedCents)} at the last strike)`,
    ...(i.share
      ? [
          `Tipster share accrued this period: ${$(-i.share.accruedCents)} (${bpsPercent(i.share.rateBps)} of tipsters' gains above their marks${i.share.capped ? `, cut to the fund's own gain of ${$(i.share.fundGainCents)} above its mark` : ''})`,
        ]
      : []),
    // Money that buys units at this strike is not yet the members' NAV: said so, not "awaiting" on a post that deals it.
    `Contributions matched to their deposits, kept out of the NAV they buy units at: ${$(-i.pendingContributionsCents)}`,
  ];
  const dealt = [
    `NAV ${$(s.navCents)}${s.feeCents > 0 ? ` after a performance fee of ${$(s.feeCents)}` : ''}${i.share && i.share.accruedCents > 0 ? `${s.feeCents > 0 ? ' and' : ' after'} a tipster share of ${$(i.share.accruedCents)}` : ''} over ${formatUnits(s.unitsBefore)} units: **${formatUnitPrice(s.price)}** a unit.`,
    ...(i.dealt?.issued.length
      ? [
          `Units issued: ${i.dealt.issued.map((d) => `<@${d.memberId}> ${formatUnits(d.units)} for ${$(d.cents)}`).join('; ')} (at ${formatUnitPrice(s.price)} a unit).`,
        ]
      : []),
    ...(i.dealt?.redeemed.length
      ? [
          `Units redeemed: ${i.dealt.redeemed.map((d) => `<@${d.memberId}> ${formatUnits(d.units)} for ${$(d.cents)}`).join('; ')} (owed until withdrawn and paid).`,
        ]
      : []),
    `After dealing: NAV ${$(s.navAfterCents)}, ${formatUnits(s.unitsAfter)} units.`,
    ...(i.fee && i.fee.crystallisedCents > 0
      ? [
          `Performance fee crystallised: ${$(i.fee.crystallisedCents)} owed to the manager (paid by withdrawal, then /fund paid); ${$(i.fee.accruedAfterCents)} stays accrued. High-water mark ${formatUnitPrice(i.fee.highWaterPrice)}.`,
        ]
      : []),
    ...(i.share && i.share.crystallisedCents > 0
      ? [
          `Tipster share crystallised: ${i.share.tipsters
            .filter((l) => l.accruedCents > 0)
            .map((l) => `<@${l.memberId}> ${$(l.accruedCents)}`)
            .join(', ')} owed (paid by withdrawal, then /fund paid); each tipster's mark moves up to their P&L.`,
        ]
      : []),
    ...(s.residualCents > 0
      ? [
          `Rounding: ${s.residualCents} cent${s.residualCents === 1 ? '' : 's'} given to the members with the largest fractions of a cent, so that members' values add up to NAV exactly.`,
        ]
      : []),
    ...(i.held ? [`Nothing dealt: ${i.held}.`] : []),
    ...(i.deferred.contributions + i.deferred.cashouts > 0
      ? [
          `${countOf(i.deferred.contributions, 'contribution')} and ${countOf(i.deferred.cashouts, 'cash-out')} wait for the bets open when they were asked to settle; they are dealt at the first strike after.`,
        ]
      : []),
    ...(unmatched.length > 0 ? [unmatchedLine(unmatched, accountOf)] : []),
  ];
  return fitView({
    content: '',
    embeds: [
      {
        title: `Fund strike · ${dealingText(s.dealingKey)}`,
        description: clip(dealt.join('\n'), LIMITS.embedDescription),
        color: i.held ? COLOUR.refused : COLOUR.ok,
        fields: [{ name: 'Inputs', value: clip(inputs.join('\n'), LIMITS.fieldValue) }],
        footer: { text: `For support: strike ${s.strikeId}` },
        timestamp: new Date(s.at).toISOString(),
      },
    ],
    components: [],
  });
}

export function statementView(s: FundStatement): MessageView {
  const lines = s.lastStrike
    ? [
        `**${formatUnits(s.units)}** units worth **${$(s.valueCents)}**${s.residualCent ? ' (includes one rounding cent)' : ''} at ${formatUnitPrice(s.lastStrike.price)} a unit (strike ${when(s.lastStrike.at)}).`,
        `Share of the fund: ${(s.share * 100).toFixed(2)}%.`,
      ]
    : ['The fund has not been struck yet.'];
  return {
    content: '',
    embeds: [
      {
        title: 'Your share of the fund',
        description: lines.join('\n'),
        color: COLOUR.ok,
        fields: [
          { name: 'Contributed', value: $(s.contributedCents), inline: true },
          { name: 'Cashed out', value: $(s.cashedOutCents), inline: true },
          { name: 'Awaiting the next strike', value: $(s.pendingCents), inline: true },
          { name: 'Profit', value: $(s.profitCents), inline: true },
          { name: 'Return (money-weighted)', value: pct(s.returnRatio), inline: true },
          { name: 'Return per unit', value: pct(s.perUnitReturn), inline: true },
          ...(s.openCashouts.length
            ? [
                {
                  name: 'Cash-outs in progress',
                  value: clip(s.openCashouts.map(cashoutLine).join('\n'), LIMITS.fieldValue),
                },
              ]
            : []),
        ],
        ...supportFooter(s.openCashouts.map((c) => c.cashoutId)),
      },
    ],
    components: [],
  };
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * The first line of the monthly statement the results channel gets as a month opens, as a person would write it: "The
 * fund as November 2026 opens: every member's units and value at the last strike." (`month` is `2026-11`).
 */
export function monthlyStatementHeader(month: string): string {
  const [year, m] = month.split('-').map(Number);
  const name = m !== undefined && m >= 1 && m <= 12 ? `${MONTHS[m - 1]} ${year}` : month;
  return `The fund as ${name} opens: every member's units and value at the last strike.`;
}

/** The monthly statement in the results channel: its header, then every member's units and value. */
export function monthlyStatementView(month: string, members: FundMembers): MessageView {
  return { ...membersView(members), content: monthlyStatementHeader(month) };
}

/** A scheduled strike that could not be struck (results channel): why, and that it is tried again. */
export function strikeHeldView(dealingKey: string, reason: string): MessageView {
  return {
    content: `The fund's strike for ${dealingKey} is not struck yet: ${reason}. It is tried again at the next check.`,
    embeds: [],
    components: [],
  };
}

/** A cash-out as people read it: who, how much, where it stands, and the command that moves it on. */
export function cashoutLine(c: Cashout): string {
  const amount = `${c.cents !== null ? $(c.cents) : askText(c.ask)}${c.ask.kind === 'fee' ? ' (performance fee)' : c.ask.kind === 'share' ? ' (tipster share)' : ''}`;
  const who = c.memberId === FEE_MANAGER_UNSET ? 'the manager' : `<@${c.memberId}>`;
  const next = isIn(STATES.cashoutWithdrawn)(c) ? ': pay them, then /fund paid (pick it from the list)' : '';
  return `${who} ${amount}: ${c.state.replace('_', ' ')}${c.note ? ` (${c.note})` : ''}${next}`;
}

export function membersView(v: FundMembers): MessageView {
  if (!v.last) return { content: 'The fund has not been struck yet.', embeds: [], components: [] };
  const rows = v.shares.map(
    (s) => `<@${s.memberId}>: ${formatUnits(s.units)} units, ${$(s.cents)}${s.residualCent ? ' (+1¢ rounding)' : ''}`,
  );
  const total = v.shares.reduce((a, s) => a + s.cents, 0);
  const open = v.cashouts.filter((c) => !isIn(STATES.cashoutClosed)(c));
  const unresolved = v.unresolved ?? [];
  return fitView({
    content: '',
    embeds: [
      {
        title: 'Fund members',
        description: clip(
          `${rows.join('\n') || 'No member holds units.'}\n\nTotal ${$(total)} = NAV ${$(v.last.navAfterCents)} at ${formatUnitPrice(v.last.price)} a unit (strike ${when(v.last.at)}); rounding residual ${v.residualCents}¢.`,
          LIMITS.embedDescription,
        ),
        color: COLOUR.ok,
        fields: [
          ...(open.length
            ? [{ name: 'Cash-outs in progress', value: clip(open.map(cashoutLine).join('\n'), LIMITS.fieldValue) }]
            : []),
          ...(unresolved.length
            ? [
                {
                  name: 'Withdrawals to settle by hand (/fund withdrawal)',
                  value: clip(
                    unresolved
                      .map((a) => {
                        const c = v.cashouts.find((x) => x.cashoutId === a.cashoutId);
                        const whose = c
                          ? ` for ${c.memberId === FEE_MANAGER_UNSET ? 'the manager' : `<@${c.memberId}>`}`
                          : '';
                        return `${$(a.amountCents)}${whose}: ${a.note ?? 'no answer from the bookmaker'}`;
                      })
                      .join('\n'),
                    LIMITS.fieldValue,
                  ),
                },
              ]
            : []),
        ],
        ...supportFooter([
          ...open.map((c) => c.cashoutId),
          ...unresolved.map((a) => `${a.attemptId} (withdrawal of ${a.cashoutId})`),
        ]),
      },
    ],
    components: [],
  });
}

/** A cash-out asked above the tier: Approve / Reject for a checker other than the member. */
export function cashoutRequestView(c: Cashout, needsApproval: boolean): MessageView {
  const text = needsApproval
    ? `<@${c.memberId}> asks to cash out ${askText(c.ask)}. Above the tier: a treasurer or approver other than the member approves it; it is then redeemed at the next strike.`
    : `<@${c.memberId}> asks to cash out ${askText(c.ask)}. It is redeemed at the next strike.`;
  // Only people who acted are mentioned: a cash-out below the tier had no checker.
  const decided = isIn(STATES.cashoutCancelled)(c)
    ? `\nCancelled${c.note ? ` (${c.note.replace(/^cancelled: /, '')})` : ''}.`
    : isIn(STATES.cashoutAwaitingApproval)(c) || c.approvedBy === null
      ? ''
      : `\n${isIn(STATES.cashoutRejected)(c) ? 'Rejected' : 'Approved'} by <@${c.approvedBy}>.`;
  return {
    content: '',
    embeds: [
      {
        title: 'Fund cash-out',
        description: text + decided,
        color: COLOUR.ok,
        footer: { text: `For support: cash-out ${c.cashoutId}` },
      },
    ],
    components:
      needsApproval && isIn(STATES.cashoutAwaitingApproval)(c)
        ? [
            {
              type: ComponentType.ActionRow,
              components: [
                {
                  type: ComponentType.Button,
                  style: ButtonStyle.Success,
                  label: 'Approve',
                  custom_id: encodeCustomId('fund', 'approve', c.cashoutId),
                },
                {
                  type: ComponentType.Button,
                  style: ButtonStyle.Danger,
                  label: 'Reject',
                  custom_id: encodeCustomId('fund', 'reject', c.cashoutId),
                },
              ],
            },
          ]
        : [],
  };
}

/** A CSV cell (RFC 4180): quoted only when it holds a comma, quote or line break; a formula-like text is defused. */
const csvCell = (v: unknown) => {
  const text = v === null || v === undefined ? '' : String(v);
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** An integer at a fixed scale as a plain decimal a spreadsheet reads: no $ sign, no thousands separator. */
export function plainDecimal(scaled: number, decimals: number): string {
  const scale = 10 ** decimals;
  const abs = Math.abs(scaled);
  const frac = decimals ? `.${String(abs % scale).padStart(decimals, '0')}` : '';
  return `${scaled < 0 ? '-' : ''}${Math.floor(abs / scale)}${frac}`;
}
const plainCents = (c: number | null) => (c === null ? '' : plainDecimal(c, 2));
const plainUnits = (u: number | null) => (u === null ? '' : plainDecimal(u, 6));
const plainPrice = (p: number | null) => (p === null ? '' : plainUnitPrice(p));

/** The export's columns, in order. Money in dollars, units and prices to six decimals, all plain numbers. */
export const FUND_CSV_COLUMNS = [
  'kind',
  'id',
  'at',
  'member_id',
  'member_name',
  'amount',
  'units',
  'state',
  'strike_id',
  'dealing',
  'price',
  'nav_before',
  'nav_after',
  'fee',
  'account',
  'reference',
  'note',
] as const;

/**
 * The fund as CSV a spreadsheet reads cleanly: every contribution, cash-out and strike, one row each. A strike's
 * row gives NAV before dealing (what the price is worked out from) and after; a contribution's or cash-out's row the
 * strike that dealt it, its dealing and its price.
 */
export function fundCsv(d: {
  contributions: Contribution[];
  cashouts: Cashout[];
  strikes: StrikeRecord[];
  /** Member id → the name people know them by (absent: the id alone). */
  names?: ReadonlyMap<string, string>;
  accountOf?: AccountOfSession;
}): string {
  const iso = (ms: number) => new Date(ms).toISOString();
  const byId = new Map(d.strikes.map((s) => [s.strikeId, s]));
  const nameOf = (id: string) => (id === FEE_MANAGER_UNSET ? 'the manager' : (d.names?.get(id) ?? ''));
  const dealtBy = (strikeId: string | null) => {
    const s = strikeId ? byId.get(strikeId) : undefined;
    return {
      strike_id: strikeId ?? '',
      dealing: s ? dealingText(s.dealingKey) : '',
      price: s ? plainPrice(s.price) : '',
    };
  };
  type Row = Partial<Record<(typeof FUND_CSV_COLUMNS)[number], string>>;
  const rows: Row[] = [
    ...d.strikes.map((s) => ({
      kind: 'strike',
      id: s.strikeId,
      at: iso(s.at),
      units: plainUnits(s.unitsAfter),
      state: s.inputs.held ? 'held' : 'struck',
      strike_id: s.strikeId,
      dealing: dealingText(s.dealingKey),
      price: plainPrice(s.price),
      nav_before: plainCents(s.navCents),
      nav_after: plainCents(s.navAfterCents),
      fee: plainCents(s.feeCents),
    })),
    ...d.contributions.map((c) => ({
      kind: 'contribution',
      id: c.contributionId,
      at: iso(c.createdAt),
      member_id: c.memberId,
      member_name: nameOf(c.memberId),
      amount: plainCents(c.amountCents),
      units: plainUnits(c.units),
      state: c.state,
      ...dealtBy(c.strikeId),
      account: d.accountOf?.(c.sessionId) ?? '',
      reference: c.reference ?? '',
      note: [c.depositId ? `deposit ${c.depositId}` : '', c.note ?? ''].filter(Boolean).join('; '),
    })),
    ...d.cashouts.map((c) => ({
      kind: 'cashout',
      id: c.cashoutId,
      at: iso(c.requestedAt),
      member_id: c.memberId === FEE_MANAGER_UNSET ? '' : c.memberId,
      member_name: nameOf(c.memberId),
      amount: plainCents(c.cents),
      units: plainUnits(c.units),
      state: c.state,
      ...dealtBy(c.strikeId),
      note: c.note ?? '',
    })),
  ];
  const lines = [FUND_CSV_COLUMNS.join(','), ...rows.map((r) => FUND_CSV_COLUMNS.map((k) => csvCell(r[k])).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}
