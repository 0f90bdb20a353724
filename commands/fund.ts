import {
  AttachmentBuilder,
  type ChatInputCommandInteraction,
  type Interaction,
  InteractionContextType,
  MessageFlags,
  PermissionFlagsBits,
  SlashCommandBuilder,
} from 'discord.js';
import { attribution } from '../src/bot/analytics/attribution.js';
import { DEFAULT_SKILL_MIN_BETS } from '../src/bot/analytics/skill.js';
import { mayApprove } from '../src/bot/betting/approvals.js';
import { accountSessionChoices, reasonChoices, sessionAccountOf } from '../src/bot/catalog/handlers/choices.js';
import type { BotContext, Command } from '../src/bot/context.js';
import { replyEphemeral, respondChoices } from '../src/bot/discord/interact.js';
import { type FundPeriod, fundFacts, periodOf } from '../src/bot/fund/fund-facts.js';
import { loadFundReport } from '../src/bot/fund/fund-report.js';
import { riskLines, setLimits, voteResume } from '../src/bot/fund/fund-risk.js';
import { type CashoutAsk, FEE_MANAGER_UNSET, UNIT_SCALE } from '../src/bot/fund/model/fund.js';
import { CASHOUT_UNDEALT, isIn, STATES } from '../src/bot/fund/model/fund-states.js';
import { type LimitName, limitLines, parseLimit } from '../src/bot/fund/model/risk-limits.js';
import { chartDollars, formatUnitPrice } from '../src/bot/fund/model/unit-price.js';
import {
  askText,
  cashoutRequestView,
  fundCsv,
  membersView,
  statementView,
  strikeView,
} from '../src/bot/fund/views/fund.js';
import { fundReportView, REPORT_CHART_FILE } from '../src/bot/fund/views/report.js';
import { tipstersView } from '../src/bot/fund/views/tipsters.js';
import { LIMITS } from '../src/bot/model/limits.js';
import { matchText } from '../src/bot/model/match-text.js';
import { formatMoney, parseCents } from '../src/bot/model/money.js';
import { type GuildSettings, getSettings } from '../src/bot/settings/guild-settings.js';
import { isTreasurer } from '../src/bot/settings/handlers/permissions.js';

const DAY_MS = 86_400_000;

const PERIOD_CHOICES = (['week', 'month', 'quarter', 'year', 'all'] as const).map((p) => ({ name: p, value: p }));

export const data = new SlashCommandBuilder()
  .setName('fund')
  .setDescription("The syndicate's bank: members' units at NAV, contributions, strikes and cash-outs")
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((s) =>
    s
      .setName('contribute')
      .setDescription("Record a member's contribution (treasurer): units are issued at the next strike")
      .addUserOption((o) => o.setName('member').setDescription('Whose money it is').setRequired(true))
      .addNumberOption((o) =>
        o
          .setName('amount')
          .setDescription('Dollars deposited, e.g. 250 or 99.50')
          .setRequired(true)
          .setMinValue(0.01)
          .setMaxValue(1_000_000),
      )
      .addStringOption((o) =>
        o
          .setName('session')
          .setDescription('The session the money was deposited into')
          .setRequired(true)
          .setAutocomplete(true),
      )
      .addStringOption((o) => o.setName('reference').setDescription('A bank or transfer reference').setMaxLength(80)),
  )
  .addSubcommand((s) =>
    s
      .setName('cashout')
      .setDescription('Ask to cash out: an amount, a number of units, or all (redeemed at the next strike)')
      .addNumberOption((o) => o.setName('amount').setDescription('Dollars').setMinValue(0.01))
      .addNumberOption((o) => o.setName('units').setDescription('Units').setMinValue(0.000001))
      .addBooleanOption((o) => o.setName('all').setDescription('Everything you hold')),
  )
  .addSubcommand((s) => s.setName('strike').setDescription('Strike NAV now and deal what is waiting (treasurer)'))
  .addSubcommand((s) =>
    s
      .setName('accounts')
      .setDescription("The fund's bookmaker accounts: list, add or remove one (treasurer)")
      .addStringOption((o) =>
        o
          .setName('action')
          .setDescription('list (default), add or remove')
          .addChoices(
            { name: 'list', value: 'list' },
            { name: 'add', value: 'add' },
            { name: 'remove', value: 'remove' },
          ),
      )
      .addStringOption((o) =>
        o.setName('session').setDescription('A session of the account (add, remove)').setAutocomplete(true),
      )
      .addUserOption((o) =>
        o.setName('opening_member').setDescription("Cash already in it is this member's opening contribution (add)"),
      )
      .addNumberOption((o) =>
        o
          .setName('float')
          .setDescription("Dollars in it that are not the fund's, kept out of NAV (add)")
          .setMinValue(0)
          .setMaxValue(1_000_000),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('cancel')
      .setDescription('Cancel a contribution or cash-out not yet dealt (treasurer)')
      .addStringOption((o) =>
        o
          .setName('id')
          .setDescription('The contribution or cash-out: pick it from the list')
          .setRequired(true)
          .setAutocomplete(true),
      )
      .addStringOption((o) =>
        o.setName('reason').setDescription('Why, for the ledger').setRequired(true).setMaxLength(200),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('withdrawal')
      .setDescription('Settle an unresolved cash-out withdrawal by hand (treasurer)')
      .addStringOption((o) =>
        o
          .setName('attempt')
          .setDescription('The unresolved withdrawal: pick it from the list')
          .setRequired(true)
          .setAutocomplete(true),
      )
      .addStringOption((o) => o.setName('withdrawal_id').setDescription('The bookmaker withdrawal that was its own'))
      .addBooleanOption((o) => o.setName('none').setDescription('It was never made')),
  )
  .addSubcommand((s) =>
    s
      .setName('explain')
      .setDescription("Accept a move the cash bridge cannot name as the fund's (treasurer)")
      .addStringOption((o) => o.setName('transaction').setDescription("The book's transaction id").setRequired(true))
      .addStringOption((o) =>
        o.setName('reason').setDescription('What the money is, for the ledger').setRequired(true).setMaxLength(200),
      ),
  )
  .addSubcommand((s) => s.setName('me').setDescription('Your units, their value, your profit and return'))
  .addSubcommand((s) =>
    s
      .setName('nav')
      .setDescription('NAV per unit over time, as a chart')
      .addIntegerOption((o) =>
        o.setName('days').setDescription('The last N days (default 90)').setMinValue(1).setMaxValue(3650),
      ),
  )
  .addSubcommand((s) => s.setName('members').setDescription("Everyone's units and value, summing to NAV (treasurer)"))
  .addSubcommand((s) => s.setName('export').setDescription('Contributions, cash-outs and strikes as CSV (treasurer)'))
  .addSubcommand((s) =>
    s
      .setName('tipsters')
      .setDescription("Who made the fund's money: P&L, ROI and CLV per tipster, summing to the fund's P&L")
      .addStringOption((o) =>
        o
          .setName('period')
          .setDescription('Bets settled in the last week, month (default), quarter, year, or all')
          .addChoices(...PERIOD_CHOICES),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('report')
      .setDescription("The fund's report: NAV change, P&L by tipster, league and book, CLV, limits, a chart")
      .addStringOption((o) =>
        o
          .setName('period')
          .setDescription('Bets settled in the last week (default), month, quarter, year, or all')
          .addChoices(...PERIOD_CHOICES),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('limits')
      .setDescription("The fund's risk limits: drawdown stop, daily loss, share of NAV per event (treasurer sets)")
      .addStringOption((o) =>
        o.setName('drawdown').setDescription('Stop betting this % below the high-water mark, e.g. 15 (or off)'),
      )
      .addStringOption((o) =>
        o.setName('daily_loss').setDescription('Most the fund may lose in a day, dollars, e.g. 500 (or off)'),
      )
      .addStringOption((o) =>
        o.setName('event_share').setDescription('Most of NAV on one event, all markets, %, e.g. 10 (or off)'),
      )
      .addStringOption((o) =>
        o.setName('quorum').setDescription('Approvers needed to resume after a drawdown stop, 1 to 5 (default 2)'),
      ),
  )
  .addSubcommand((s) =>
    s.setName('resume').setDescription('Vote to resume betting after a drawdown stop (approvers; a quorum resumes)'),
  )
  .addSubcommand((s) =>
    s
      .setName('paid')
      .setDescription('Mark a withdrawn cash-out paid to the member (treasurer)')
      .addStringOption((o) =>
        o
          .setName('cashout')
          .setDescription('The withdrawn cash-out: pick it from the list')
          .setRequired(true)
          .setAutocomplete(true),
      ),
  );

const TREASURER_ONLY = new Set([
  'contribute',
  'strike',
  'members',
  'export',
  'paid',
  'accounts',
  'cancel',
  'withdrawal',
  'explain',
]);
const dollars = formatMoney;

/** One /fund call, as each subcommand sees it: the server's settings were read once, before it runs. */
interface FundCall {
  interaction: ChatInputCommandInteraction;
  ctx: BotContext;
  guildId: string;
  settings: GuildSettings;
  fund: BotContext['fund'];
}

const contribute = async ({ interaction, ctx, guildId, fund }: FundCall): Promise<void> => {
  const member = interaction.options.getUser('member', true);
  const amount = interaction.options.getNumber('amount', true);
  const amountCents = parseCents(amount);
  if (amountCents === undefined)
    return replyEphemeral(interaction, 'Amounts are dollars and whole cents, e.g. 250 or 99.50.');
  const c = await fund.contribute({
    guildId,
    memberId: member.id,
    amountCents,
    sessionId: interaction.options.getString('session', true).trim(),
    reference: interaction.options.getString('reference')?.trim() || null,
    actor: interaction.user.id,
  });
  const account = (await sessionAccountOf(ctx))(c.sessionId) ?? "the fund's account";
  return replyEphemeral(
    interaction,
    `Recorded: <@${c.memberId}> contributed ${dollars(c.amountCents)} into ${account}. Units are issued at the first strike after its deposit has reached the account (/fund strike); until then /fund cancel can undo it.`,
    'ok',
  );
};

const cashout = async ({ interaction, guildId, fund }: FundCall): Promise<void> => {
  const amount = interaction.options.getNumber('amount');
  const units = interaction.options.getNumber('units');
  const all = interaction.options.getBoolean('all') === true;
  if ([amount !== null, units !== null, all].filter(Boolean).length !== 1) {
    return replyEphemeral(interaction, 'Give exactly one of amount (dollars), units, or all: true.');
  }
  let ask: CashoutAsk;
  if (amount !== null) {
    const cents = parseCents(amount);
    if (cents === undefined)
      return replyEphemeral(interaction, 'Amounts are dollars and whole cents, e.g. 250 or 99.50.');
    ask = { kind: 'amount', cents };
  } else if (units !== null) {
    if (!Number.isFinite(units) || units <= 0) return replyEphemeral(interaction, 'Units are a positive number.');
    ask = { kind: 'units', units: Math.round(units * UNIT_SCALE) };
  } else ask = { kind: 'all' };
  const { cashout, needsApproval } = await fund.requestCashout({ guildId, memberId: interaction.user.id, ask });
  const view = cashoutRequestView(cashout, needsApproval);
  if (!needsApproval) {
    await interaction.editReply({ content: view.content ?? '', embeds: view.embeds, components: view.components });
    return;
  }
  // Above the tier: the ask goes to the channel for a checker's Approve; the member is told privately where.
  await interaction.editReply({
    content: 'Your cash-out is above the approval tier: it is asked in the channel below.',
  });
  const message = await interaction.followUp({
    content: view.content ?? '',
    embeds: view.embeds,
    components: view.components,
  });
  await fund.setCashoutMessage(cashout.cashoutId, interaction.channelId, message.id);
};

const accounts = async ({ interaction, guildId, fund }: FundCall): Promise<void> => {
  const action = interaction.options.getString('action') ?? 'list';
  const sessionId = interaction.options.getString('session')?.trim();
  if (action !== 'list' && !sessionId) {
    return replyEphemeral(interaction, `Name a session of the account to ${action} (session:).`);
  }
  if (action === 'add') {
    const float = interaction.options.getNumber('float');
    const floatCents = float === null ? 0 : parseCents(float);
    if (floatCents === undefined) {
      return replyEphemeral(interaction, 'A float is dollars and whole cents, from 0 to 1,000,000.');
    }
    const opening = interaction.options.getUser('opening_member');
    const r = await fund.addAccount({
      guildId,
      sessionId: sessionId as string,
      actor: interaction.user.id,
      floatCents,
      ...(opening ? { openingMemberId: opening.id } : {}),
    });
    const name = `${r.account.bookie}/${r.account.username}`;
    return replyEphemeral(
      interaction,
      `Added ${name} to the fund (it holds ${dollars(r.cashCents)}${r.account.floatCents ? `, of which ${dollars(r.account.floatCents)} is a float kept out of NAV` : ''}).${r.openingCents > 0 && opening ? ` ${dollars(r.openingCents)} is <@${opening.id}>'s opening contribution, dealt at the next strike.` : ''}`,
      'ok',
    );
  }
  if (action === 'remove') {
    const name = await fund.removeAccount({ guildId, sessionId: sessionId as string, actor: interaction.user.id });
    return replyEphemeral(interaction, `Removed ${name} from the fund.`, 'ok');
  }
  const list = await fund.accounts(guildId);
  if (list.length === 0) {
    return replyEphemeral(
      interaction,
      'The fund has no account yet. Add one with `/fund accounts action:add session:` (pick the account from the list); money already in it is the opening bank (opening_member:) or a float (float:).',
      'info',
    );
  }
  return replyEphemeral(
    interaction,
    `The fund's accounts:\n${list
      .map(
        (a) =>
          `• ${a.bookie}/${a.username}: ${a.cashCents === undefined ? 'balance unreadable' : dollars(a.cashCents)}${a.floatCents ? ` (float ${dollars(a.floatCents)} not the fund's)` : ''}; ${a.sessions.length === 0 ? 'no live session' : `${a.sessions.length} session${a.sessions.length === 1 ? '' : 's'}`}`,
      )
      .join('\n')}`,
    'info',
  );
};

const cancel = async ({ interaction, guildId, fund }: FundCall): Promise<void> => {
  const done = await fund.cancel({
    guildId,
    id: interaction.options.getString('id', true),
    actor: interaction.user.id,
    reason: interaction.options.getString('reason', true),
  });
  const what =
    done.kind === 'contribution'
      ? `<@${done.contribution.memberId}>'s contribution of ${dollars(done.contribution.amountCents)}`
      : `<@${done.cashout.memberId}>'s cash-out of ${askText(done.cashout.ask)}`;
  return replyEphemeral(interaction, `Cancelled ${what}. Nothing of it is dealt.`, 'ok');
};

const withdrawal = async ({ interaction, guildId, fund }: FundCall): Promise<void> => {
  const none = interaction.options.getBoolean('none') === true;
  const id = interaction.options.getString('withdrawal_id')?.trim() || null;
  if (none === (id !== null)) {
    return replyEphemeral(interaction, 'Give exactly one of withdrawal_id (the one that was its own) or none:true.');
  }
  const a = await fund.settleWithdrawal({
    guildId,
    attemptId: interaction.options.getString('attempt', true),
    withdrawalId: id,
    actor: interaction.user.id,
  });
  return replyEphemeral(
    interaction,
    isIn(STATES.withdrawalCompleted)(a)
      ? `Settled: the ${dollars(a.amountCents)} withdrawal was the bookmaker's withdrawal ${a.gatewayWithdrawalId}.`
      : `Settled: the ${dollars(a.amountCents)} withdrawal was never made; its cash-out is tried again.`,
    'ok',
  );
};

const explain = async ({ interaction, guildId, fund }: FundCall): Promise<void> => {
  const txn = interaction.options.getString('transaction', true).trim();
  const fresh = await fund.explain({
    guildId,
    txnId: txn,
    actor: interaction.user.id,
    reason: interaction.options.getString('reason', true),
  });
  return replyEphemeral(
    interaction,
    fresh ? `Accepted ${txn} as the fund's; the next strike counts it.` : `${txn} was already accepted.`,
    'ok',
  );
};

const strike = async ({ interaction, ctx, guildId, fund }: FundCall): Promise<void> => {
  const r = await fund.strike(guildId, { actor: interaction.user.id });
  if (!r.ok)
    return replyEphemeral(interaction, `Not struck: ${r.reason}. Nothing was dealt; try again when that is resolved.`);
  // The same contributions the #results post lists as waiting for their deposit.
  const unmatched = (await fund.contributions(guildId)).filter(
    (c) => isIn(STATES.contributionWaiting)(c) && !c.depositId && c.createdAt <= r.strike.at,
  );
  const accountOf = await sessionAccountOf(ctx);
  const read = new Map(r.strike.inputs.sessions.map((x) => [x.sessionId, x.account]));
  const view = strikeView(r.strike, unmatched, (id) => read.get(id) ?? accountOf(id));
  await interaction.editReply({ content: 'Struck.', embeds: view.embeds, components: [] });
};

const me = async ({ interaction, guildId, fund }: FundCall): Promise<void> => {
  const view = statementView(await fund.statement(guildId, interaction.user.id));
  await interaction.editReply({ content: '', embeds: view.embeds, components: [] });
};

const nav = async ({ interaction, ctx, guildId, settings, fund }: FundCall): Promise<void> => {
  const days = interaction.options.getInteger('days') ?? 90;
  const strikes = (await fund.strikes(guildId, ctx.now() - days * DAY_MS)).filter((s) => s.unitsAfter > 0);
  if (strikes.length === 0) return replyEphemeral(interaction, `No strike in the last ${days} days.`, 'info');
  // Loaded on the first chart only, as /stats does.
  const chart = await import('../src/bot/analytics/chart.js');
  const png = chart.renderNavChart({
    title: `NAV per unit · last ${days} day${days === 1 ? '' : 's'}`,
    timezone: settings.timezone,
    points: strikes.map((s) => ({ at: s.at, price: chartDollars(s.price) })),
  });
  const last = strikes.at(-1)!;
  await interaction.editReply({
    content: `${strikes.length} strike${strikes.length === 1 ? '' : 's'}; last ${formatUnitPrice(last.price)} a unit, NAV ${formatMoney(last.navAfterCents)}.`,
    files: [new AttachmentBuilder(png, { name: 'fund-nav.png' })],
  });
};

const members = async ({ interaction, guildId, fund }: FundCall): Promise<void> => {
  const v = await fund.valuation(guildId);
  const view = membersView({
    last: v.last,
    shares: v.shares,
    residualCents: v.residualCents,
    cashouts: await fund.cashouts(guildId),
    unresolved: await fund.unresolvedWithdrawals(guildId),
  });
  await interaction.editReply({ content: view.content ?? '', embeds: view.embeds, components: [] });
};

const exportCsv = async ({ interaction, ctx, guildId, fund }: FundCall): Promise<void> => {
  const contributions = await fund.contributions(guildId);
  const cashouts = await fund.cashouts(guildId);
  const csv = fundCsv({
    contributions,
    cashouts,
    strikes: await fund.strikes(guildId, 0),
    names: await namesOf(
      interaction,
      [...contributions, ...cashouts].map((x) => x.memberId),
    ),
    accountOf: await sessionAccountOf(ctx),
  });
  await interaction.editReply({
    content: "The fund's contributions, cash-outs and strikes.",
    files: [new AttachmentBuilder(Buffer.from(csv, 'utf8'), { name: 'fund.csv' })],
  });
};

const tipsters = async ({ interaction, ctx, guildId }: FundCall): Promise<void> => {
  const period = (interaction.options.getString('period') ?? 'month') as FundPeriod;
  const { since, label } = periodOf(period, ctx.now());
  const { facts, ...opts } = await fundFacts(ctx, guildId);
  const view = tipstersView(attribution(facts, { ...opts, ...(since === undefined ? {} : { since }) }), label);
  await interaction.editReply({ content: '', embeds: view.embeds, components: [] });
};

const report = async ({ interaction, ctx, guildId, settings }: FundCall): Promise<void> => {
  const period = (interaction.options.getString('period') ?? 'week') as FundPeriod;
  const { since, label } = periodOf(period, ctx.now());
  const { timezone } = settings;
  const report = await loadFundReport(ctx, guildId, {
    since: since ?? 0,
    until: ctx.now() + 1,
    label,
    timezone,
    minBets: DEFAULT_SKILL_MIN_BETS,
  });
  const chart = await import('../src/bot/analytics/chart.js');
  // The curve starts from nothing at the period's start, so one settled bet already draws a line.
  const first = report.curve[0];
  const points = first
    ? [{ n: 0, at: since ?? first.at, profitCents: 0, expectedCents: 0, drawdownCents: 0 }, ...report.curve]
    : [];
  const draw = points.length >= 2;
  const view = fundReportView(report, { chart: draw, onDemand: true });
  await interaction.editReply({
    content: '',
    embeds: view.embeds,
    components: [],
    files: draw
      ? [
          new AttachmentBuilder(chart.renderStatsChart({ title: `The fund's bets · ${label}`, points }), {
            name: REPORT_CHART_FILE,
          }),
        ]
      : [],
  });
};

const limits = async ({ interaction, ctx, guildId, settings }: FundCall): Promise<void> => {
  const changes: Partial<Record<LimitName, number | undefined>> = {};
  for (const name of ['drawdown', 'daily_loss', 'event_share', 'quorum'] as const) {
    const text = interaction.options.getString(name);
    if (text === null) continue;
    const parsed = parseLimit(name, text);
    if (!parsed.ok) return replyEphemeral(interaction, parsed.message);
    changes[name] = parsed.value;
  }
  const { timezone } = settings;
  if (Object.keys(changes).length > 0) {
    if (!isTreasurer(interaction, settings)) {
      return replyEphemeral(
        interaction,
        'Only a treasurer can change the limits: members with Manage Server, or the treasurer role an admin sets with /settings fund.',
      );
    }
    await setLimits(ctx, guildId, interaction.user.id, changes);
  }
  const lines = limitLines(await riskLines(ctx, guildId, timezone));
  return replyEphemeral(
    interaction,
    lines.length > 0
      ? `${Object.keys(changes).length > 0 ? 'Saved. ' : ''}The fund's risk limits:\n${lines.join('\n')}`
      : 'No risk limit is set. A treasurer sets them with /fund limits drawdown:15 daily_loss:500 event_share:10.',
    Object.keys(changes).length > 0 ? 'ok' : 'info',
  );
};

const resume = async ({ interaction, ctx, guildId, settings }: FundCall): Promise<void> => {
  const { approverRoleId } = settings;
  const member = interaction.member as { roles?: string[] | { cache?: Map<string, unknown> } } | null;
  const roles = Array.isArray(member?.roles) ? member.roles : [...(member?.roles?.cache?.keys() ?? [])];
  const manager = interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) === true;
  if (!mayApprove({ id: interaction.user.id, roles, manager }, approverRoleId)) {
    return replyEphemeral(
      interaction,
      `Only approvers can resume betting: ${approverRoleId ? `members with the <@&${approverRoleId}> role or Manage Server` : 'members with Manage Server'}.`,
    );
  }
  const r = await voteResume(ctx, guildId, interaction.user.id);
  const text = {
    not_stopped: 'Betting is not stopped: the drawdown stop is off. Nothing to resume.',
    duplicate: 'You have already voted to resume; another approver must vote too.',
    voted: '',
    resumed:
      "Resumed: the quorum agreed, betting on the fund's accounts is open again and the high-water mark restarts at the next strike.",
  }[r.kind];
  return replyEphemeral(
    interaction,
    r.kind === 'voted' ? `Your vote to resume is recorded: ${r.votes} of ${r.quorum}.` : text,
    r.kind === 'resumed' || r.kind === 'voted' ? 'ok' : 'info',
  );
};

const paid = async ({ interaction, guildId, fund }: FundCall): Promise<void> => {
  const c = await fund.markPaid(guildId, interaction.options.getString('cashout', true).trim(), interaction.user.id);
  return replyEphemeral(
    interaction,
    `Marked paid: <@${c.memberId}> ${askText({ kind: 'amount', cents: c.cents ?? 0 })}.`,
    'ok',
  );
};

/** Each subcommand of /fund by name, as /settings routes its own. */
const SUBCOMMANDS: Record<string, (call: FundCall) => Promise<void>> = {
  contribute,
  cashout,
  accounts,
  cancel,
  withdrawal,
  explain,
  strike,
  me,
  nav,
  members,
  export: exportCsv,
  tipsters,
  report,
  limits,
  resume,
  paid,
};

export const execute: Command['execute'] = async (interaction, ctx) => {
  const sub = interaction.options.getSubcommand();
  // Answers about one member are private; a cash-out above the tier is then asked in the channel, where a checker
  // can approve it.
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const guildId = interaction.guildId;
  if (!guildId) return replyEphemeral(interaction, 'The fund belongs to a server: run /fund there.');
  const settings = await getSettings(ctx.store, guildId);
  if (TREASURER_ONLY.has(sub) && !isTreasurer(interaction, settings)) {
    return replyEphemeral(
      interaction,
      'Only a treasurer can do that: members with Manage Server, or the treasurer role an admin sets with /settings fund.',
    );
  }
  await SUBCOMMANDS[sub]?.({ interaction, ctx, guildId, settings, fund: ctx.fund });
};

/** The names members are known by in this server (their server nickname, else their Discord name), by id. */
async function namesOf(interaction: Interaction, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await Promise.all(
    [...new Set(ids)].map(async (id) => {
      const member = interaction.guild?.members.cache.get(id);
      const user =
        member?.user ??
        interaction.client.users.cache.get(id) ??
        (/^\d{5,}$/.test(id) ? await interaction.client.users.fetch(id).catch(() => undefined) : undefined);
      const name = member?.displayName ?? user?.globalName ?? user?.username;
      if (name) out.set(id, name);
    }),
  );
  return out;
}

type FundChoice = { name: string; value: string };
const byName = (names: Map<string, string>, id: string) =>
  id === FEE_MANAGER_UNSET ? 'the manager' : (names.get(id) ?? 'a member');
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The fund's choices, each named for a person (book and user name, member name, amount), never by an id: sessions
 * for contribute and accounts; withdrawn cash-outs awaiting payment for paid; what is not yet dealt for cancel;
 * unresolved withdrawals for withdrawal. Only a treasurer is offered the fund's records.
 */
export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  const focused = interaction.options.getFocused(true);
  const typed = String(focused.value ?? '');
  if (focused.name === 'session') return respondChoices(interaction, await accountSessionChoices(ctx, typed));
  const guildId = interaction.guildId;
  if (!guildId || !isTreasurer(interaction, await getSettings(ctx.store, guildId)))
    return respondChoices(interaction, []);
  let rows: Array<{ memberId: string; text: (name: string) => string; value: string }> = [];
  if (focused.name === 'cashout') {
    rows = (await ctx.fund.cashouts(guildId)).filter(isIn(STATES.cashoutWithdrawn)).map((c) => ({
      memberId: c.memberId,
      text: (name) => `${name} · ${dollars(c.cents ?? 0)} · withdrawn, asked ${day(c.requestedAt)}`,
      value: c.cashoutId,
    }));
  } else if (focused.name === 'id') {
    const contributions = (await ctx.fund.contributions(guildId)).filter(isIn(STATES.contributionWaiting));
    const cashouts = (await ctx.fund.cashouts(guildId)).filter((c) => CASHOUT_UNDEALT.includes(c.state));
    rows = [
      ...contributions.map((c) => ({
        memberId: c.memberId,
        text: (name: string) => `contribution · ${name} · ${dollars(c.amountCents)} · ${day(c.createdAt)}`,
        value: c.contributionId,
      })),
      ...cashouts.map((c) => ({
        memberId: c.memberId,
        text: (name: string) => `cash-out · ${name} · ${askText(c.ask)} · ${day(c.requestedAt)}`,
        value: c.cashoutId,
      })),
    ];
  } else if (focused.name === 'attempt') {
    const cashouts = await ctx.fund.cashouts(guildId);
    rows = (await ctx.fund.unresolvedWithdrawals(guildId)).map((a) => ({
      memberId: cashouts.find((c) => c.cashoutId === a.cashoutId)?.memberId ?? '',
      text: (name) => `${dollars(a.amountCents)} withdrawal for ${name} · ${day(a.createdAt)}`,
      value: a.attemptId,
    }));
    // Discord would say only "No matching options": say why there is nothing to pick.
    if (rows.length === 0) {
      return respondChoices(
        interaction,
        reasonChoices(
          typed,
          'no cash-out withdrawal is unresolved: every one went through or failed, nothing to settle',
        ),
      );
    }
  }
  const names = await namesOf(
    interaction,
    rows.slice(0, LIMITS.autocompleteChoices).map((r) => r.memberId),
  );
  const choices: FundChoice[] = rows.map((r) => ({
    name: r.text(byName(names, r.memberId)).slice(0, LIMITS.choiceName),
    value: r.value,
  }));
  await respondChoices(
    interaction,
    matchText(choices, typed, (c) => `${c.name} ${c.value}`).slice(0, LIMITS.autocompleteChoices),
  );
};

export default { data, execute, autocomplete } satisfies Command;
