import { ButtonStyle, ComponentType } from 'discord.js';
import { encodeCustomId } from '../discord/custom-id.js';
import { COLOUR } from '../model/colours.js';
import { type CashoutAsk, FEE_MANAGER_UNSET, formatPrice, formatUnits, type Share } from '../model/fund.js';
import type { Cashout, Contribution, StrikeRecord, WithdrawalAttempt } from '../model/fund-records.js';
import { clip, fitView, LIMITS, type MessageView } from '../model/limits.js';
import { formatMoney } from '../model/odds.js';

const $ = (c: number) => formatMoney(c / 100);
const pct = (r: number | null) => (r === null ? '—' : `${(r * 100).toFixed(2)}%`);
const when = (ms: number) => `<t:${Math.floor(ms / 1000)}:f>`;

export function askText(ask: CashoutAsk): string {
  if (ask.kind === 'all') return 'all units';
  if (ask.kind === 'units') return `${formatUnits(ask.units)} units`;
  if (ask.kind === 'fee') return 'the performance fee';
  return $(ask.cents);
}

/** The strike's post in the results channel: NAV, units, price, and every input with its source. */
export function strikeView(s: StrikeRecord, unmatched: Contribution[] = []): MessageView {
  const i = s.inputs;
  const inputs = [
    ...i.sessions.map(
      (x) =>
        `Session ${x.sessionId}: balance ${$(x.balanceCents)} − bonus ${$(x.bonusCents)} = cash ${$(x.balanceCents - x.bonusCents)} (POST /v3/balance${x.retrievedAt ? `, as of ${x.retrievedAt}` : ''})`,
    ),
    `Open stake at cost: ${$(i.openStakeCents)} (${i.openBets} placed bet${i.openBets === 1 ? '' : 's'} not settled)`,
    `Withdrawn, not yet paid: ${$(i.withdrawnUnpaidCents)}`,
    `Owed to members and the manager (struck or crystallised, not paid): −${$(i.owedRedemptionsCents)}`,
    `Performance fee accrued this period: −${$(s.feeCents)} (worked out afresh; ${$(i.feesAccruedCents)} at the last strike)`,
    `Contributions awaiting dealing: −${$(i.pendingContributionsCents)}`,
  ];
  const dealt = [
    `NAV ${$(s.navCents)}${s.feeCents > 0 ? ` after a performance fee of ${$(s.feeCents)}` : ''} over ${formatUnits(s.unitsBefore)} units: **${formatPrice(s.price)}** a unit.`,
    `After dealing: NAV ${$(s.navAfterCents)}, ${formatUnits(s.unitsAfter)} units.`,
    ...(i.fee && i.fee.crystallisedCents > 0
      ? [
          `Performance fee crystallised: ${$(i.fee.crystallisedCents)} owed to the manager (paid by withdrawal, then /fund paid); ${$(i.fee.accruedAfterCents)} stays accrued. High-water mark ${formatPrice(i.fee.highWaterPrice)}.`,
        ]
      : []),
    ...(s.residualCents > 0
      ? [
          `Rounding: ${s.residualCents} cent${s.residualCents === 1 ? '' : 's'} shared out to the largest fractions (docs/fund.md).`,
        ]
      : []),
    ...(i.held ? [`Nothing dealt: ${i.held}.`] : []),
    ...(i.deferred.contributions + i.deferred.cashouts > 0
      ? [
          `${i.deferred.contributions} contribution(s) and ${i.deferred.cashouts} cash-out(s) wait for bets open when they were asked to settle (decision 1701).`,
        ]
      : []),
    ...(unmatched.length > 0
      ? [
          `Waiting for their deposit (not dealt, not in NAV until the gateway lists it): ${unmatched
            .map((c) => `<@${c.memberId}> ${$(c.amountCents)} on ${c.sessionId}`)
            .join('; ')}`,
        ]
      : []),
  ];
  return fitView({
    content: '',
    embeds: [
      {
        title: `Fund strike · ${s.dealingKey.startsWith('demand:') ? 'on demand' : s.dealingKey}`,
        description: clip(dealt.join('\n'), LIMITS.embedDescription),
        color: i.held ? COLOUR.refused : COLOUR.ok,
        fields: [{ name: 'Inputs', value: clip(inputs.join('\n'), LIMITS.fieldValue) }],
        footer: { text: `Strike ${s.strikeId}` },
        timestamp: new Date(s.at).toISOString(),
      },
    ],
    components: [],
  });
}

export interface FundStatement {
  units: number;
  valueCents: number;
  share: number;
  contributedCents: number;
  cashedOutCents: number;
  pendingCents: number;
  profitCents: number;
  returnRatio: number | null;
  perUnitReturn: number | null;
  residualCent: boolean;
  lastStrike: StrikeRecord | null;
  openCashouts: Cashout[];
}

export function statementView(s: FundStatement): MessageView {
  const lines = s.lastStrike
    ? [
        `**${formatUnits(s.units)}** units worth **${$(s.valueCents)}**${s.residualCent ? ' (includes one rounding cent)' : ''} at ${formatPrice(s.lastStrike.price)} a unit (strike ${when(s.lastStrike.at)}).`,
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
      },
    ],
    components: [],
  };
}

export function cashoutLine(c: Cashout): string {
  const amount = `${c.cents !== null ? $(c.cents) : askText(c.ask)}${c.ask.kind === 'fee' ? ' (performance fee)' : ''}`;
  const who = c.memberId === FEE_MANAGER_UNSET ? 'the manager' : `<@${c.memberId}>`;
  return `\`${c.cashoutId}\` ${who} ${amount}: ${c.state.replace('_', ' ')}${c.note ? ` (${c.note})` : ''}`;
}

export function membersView(v: {
  last: StrikeRecord | undefined;
  shares: Share[];
  residualCents: number;
  cashouts: Cashout[];
  /** Withdrawal attempts a treasurer must settle by hand (/fund withdrawal). */
  unresolved?: WithdrawalAttempt[];
}): MessageView {
  if (!v.last) return { content: 'The fund has not been struck yet.', embeds: [], components: [] };
  const rows = v.shares.map(
    (s) => `<@${s.memberId}>: ${formatUnits(s.units)} units, ${$(s.cents)}${s.residualCent ? ' (+1¢ rounding)' : ''}`,
  );
  const total = v.shares.reduce((a, s) => a + s.cents, 0);
  const open = v.cashouts.filter((c) => !['paid', 'rejected', 'cancelled'].includes(c.state));
  const unresolved = v.unresolved ?? [];
  return fitView({
    content: '',
    embeds: [
      {
        title: 'Fund members',
        description: clip(
          `${rows.join('\n') || 'No member holds units.'}\n\nTotal ${$(total)} = NAV ${$(v.last.navAfterCents)} at ${formatPrice(v.last.price)} a unit (strike ${when(v.last.at)}); rounding residual ${v.residualCents}¢.`,
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
                      .map((a) => `\`${a.attemptId}\` ${$(a.amountCents)} for \`${a.cashoutId}\`: ${a.note ?? ''}`)
                      .join('\n'),
                    LIMITS.fieldValue,
                  ),
                },
              ]
            : []),
        ],
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
  const decided =
    c.state === 'cancelled'
      ? `\nCancelled${c.note ? ` (${c.note.replace(/^cancelled: /, '')})` : ''}.`
      : c.state === 'awaiting_approval' || c.approvedBy === null
        ? ''
        : `\n${c.state === 'rejected' ? 'Rejected' : 'Approved'} by <@${c.approvedBy}>.`;
  return {
    content: '',
    embeds: [{ title: 'Fund cash-out', description: text + decided, color: COLOUR.ok, footer: { text: c.cashoutId } }],
    components:
      needsApproval && c.state === 'awaiting_approval'
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

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  const safe = /^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s) ? `'${s}` : s;
  return `"${safe.replaceAll('"', '""')}"`;
};

/** The fund as CSV: every contribution, cash-out and strike, one row each. */
export function fundCsv(d: { contributions: Contribution[]; cashouts: Cashout[]; strikes: StrikeRecord[] }): string {
  const head = ['kind', 'id', 'at', 'member', 'amount', 'units', 'state', 'strike', 'price', 'nav', 'detail'];
  const iso = (ms: number) => new Date(ms).toISOString();
  const rows = [
    ...d.strikes.map((s) => [
      'strike',
      s.strikeId,
      iso(s.at),
      '',
      (s.navAfterCents / 100).toFixed(2),
      formatUnits(s.unitsAfter),
      s.inputs.held ? 'held' : 'struck',
      s.dealingKey,
      formatPrice(s.price),
      (s.navCents / 100).toFixed(2),
      s.feeCents ? `fee ${(s.feeCents / 100).toFixed(2)}` : '',
    ]),
    ...d.contributions.map((c) => [
      'contribution',
      c.contributionId,
      iso(c.createdAt),
      c.memberId,
      (c.amountCents / 100).toFixed(2),
      c.units === null ? '' : formatUnits(c.units),
      c.state,
      c.strikeId ?? '',
      '',
      '',
      `${c.sessionId}${c.reference ? ` ${c.reference}` : ''}${c.depositId ? ` deposit ${c.depositId}` : ''}`,
    ]),
    ...d.cashouts.map((c) => [
      'cashout',
      c.cashoutId,
      iso(c.requestedAt),
      c.memberId,
      c.cents === null ? '' : (c.cents / 100).toFixed(2),
      c.units === null ? '' : formatUnits(c.units),
      c.state,
      c.strikeId ?? '',
      '',
      '',
      c.note ?? '',
    ]),
  ];
  return `${[head, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
