import {
  ChannelType,
  type ChatInputCommandInteraction,
  InteractionContextType,
  MessageFlags,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type SlashCommandNumberOption,
} from 'discord.js';
import { SetBank, setBankOf } from '../src/bot/betting/bank.js';
import { approvalPolicy } from '../src/bot/betting/model/approval-policy.js';
import { settingsView } from '../src/bot/betting/views/desk.js';
import { accountSessionChoices, sessionsForChoices } from '../src/bot/catalog/handlers/choices.js';
import type { BotContext, Command } from '../src/bot/context.js';
import { replyEphemeral, respondChoices } from '../src/bot/discord/interact.js';
import { type FeePeriod, parseSchedule } from '../src/bot/fund/model/fund.js';
import { MARGIN_METHODS, type MarginMethod } from '../src/bot/model/fair-price.js';
import { matchText } from '../src/bot/model/match-text.js';
import { parseCents } from '../src/bot/model/money.js';
import type { StakeLimits } from '../src/bot/model/slip-rules.js';
import {
  exposureCaps,
  type GuildSettings,
  getSettings,
  isValidTimezone,
  stakeLimits,
  updateSettings,
} from '../src/bot/settings/guild-settings.js';
import { isAdmin } from '../src/bot/settings/handlers/permissions.js';
import { zoneChoices } from '../src/bot/settings/handlers/zone-choices.js';

export const data = new SlashCommandBuilder()
  .setName('settings')
  .setDescription('Desk settings for this server (admins)')
  .setContexts(InteractionContextType.Guild)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addSubcommand((s) => s.setName('show').setDescription('Show the current settings'))
  .addSubcommand((s) =>
    s
      .setName('results-channel')
      .setDescription('Where bet results and settlements are posted')
      .addChannelOption((o) =>
        o.setName('channel').setDescription('A text channel').setRequired(true).addChannelTypes(ChannelType.GuildText),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('bet-role')
      .setDescription('Only members with this role may bet (none set: only Manage Server can)')
      .addRoleOption((o) => o.setName('role').setDescription('The role; omit to close betting to Manage Server')),
  )
  .addSubcommand((s) =>
    s
      .setName('limits')
      .setDescription('Stake limits: per bet, per member a day, and exposure caps across every account')
      .addNumberOption((o) => o.setName('per_bet').setDescription('Most one bet may stake, in dollars').setMinValue(1))
      .addNumberOption((o) =>
        o.setName('per_day').setDescription('Most one member may stake a day, in dollars').setMinValue(1),
      )
      .addNumberOption((o) =>
        o.setName('per_event').setDescription('Most open stake on one event, all members (0: no cap)').setMinValue(0),
      )
      .addNumberOption((o) =>
        o.setName('per_market').setDescription('Most open stake on one market, all members (0: no cap)').setMinValue(0),
      )
      .addNumberOption((o) =>
        o
          .setName('per_session_day')
          .setDescription('Most stake through one bookmaker account a day (0: no cap)')
          .setMinValue(0),
      )
      .addNumberOption((o) =>
        o
          .setName('per_syndicate_day')
          .setDescription('Most stake of the whole syndicate a day (0: no cap)')
          .setMinValue(0),
      )
      .addNumberOption((o) =>
        o
          .setName('per_runner')
          .setDescription('Racing: most open stake on one runner, its singles and multi legs (0: no cap)')
          .setMinValue(0),
      )
      .addNumberOption((o) => pctOption(o, 'per_bet_pct', 'Most one bet may stake, % of the bank'))
      .addNumberOption((o) => pctOption(o, 'per_day_pct', 'Most one member may stake a day, % of the bank'))
      .addNumberOption((o) => pctOption(o, 'per_event_pct', 'Most open stake on one event, % of the bank'))
      .addNumberOption((o) => pctOption(o, 'per_market_pct', 'Most open stake on one market, % of the bank')),
  )
  .addSubcommand((s) =>
    s
      .setName('bank')
      .setDescription('The bank stakes and % caps are sized by, where no fund is open')
      .addNumberOption((o) =>
        o.setName('amount').setDescription('Dollars (0: clear it)').setRequired(true).setMinValue(0),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('staking')
      .setDescription('How the fair price and the suggested stake are worked out')
      .addStringOption((o) =>
        o
          .setName('margin_method')
          .setDescription("How each book's margin is removed")
          .addChoices(
            { name: 'multiplicative (default)', value: 'multiplicative' },
            { name: 'power', value: 'power' },
            { name: 'Shin', value: 'shin' },
          ),
      )
      .addNumberOption((o) =>
        o
          .setName('kelly_fraction')
          .setDescription('Share of full Kelly suggested, e.g. 0.25')
          .setMinValue(0.01)
          .setMaxValue(1),
      )
      .addNumberOption((o) =>
        o.setName('stake_unit').setDescription('Suggested stakes are multiples of this, dollars').setMinValue(0.01),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('approvals')
      .setDescription('Approval tiers: up to t1 no approval, up to t2 one approver, above t2 two')
      .addNumberOption((o) =>
        o.setName('t1').setDescription('Largest stake needing no approval, dollars').setMinValue(0),
      )
      .addNumberOption((o) =>
        o.setName('t2').setDescription('Largest stake needing one approver, dollars').setMinValue(0),
      )
      .addRoleOption((o) => o.setName('approver_role').setDescription('Who may approve (none: Manage Server)'))
      .addNumberOption((o) =>
        o
          .setName('expiry_minutes')
          .setDescription('Minutes a proposal waits for approvers (default 10)')
          .setMinValue(0.25)
          .setMaxValue(1440),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('session')
      .setDescription('Which session bets on a book use')
      .addStringOption((o) => o.setName('bookie').setDescription('The book').setRequired(true).setAutocomplete(true))
      .addStringOption((o) =>
        o.setName('session').setDescription('The session id (omit: first active one)').setAutocomplete(true),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('timezone')
      .setDescription('Time zone for days in /events and daily limits')
      .addStringOption((o) =>
        o.setName('zone').setDescription('IANA zone, e.g. Australia/Sydney').setRequired(true).setAutocomplete(true),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('fund')
      .setDescription('The fund: treasurer role, dealing days, cash-out tier, fee, tipster share, opening price')
      .addRoleOption((o) => o.setName('treasurer_role').setDescription('Who may record contributions and strike'))
      .addStringOption((o) =>
        o.setName('schedule').setDescription('Dealing days: daily 18:00 or weekly mon 18:00 (server time; off: none)'),
      )
      .addNumberOption((o) =>
        o
          .setName('cashout_tier')
          .setDescription('Cash-outs above this many dollars need approval')
          .setMinValue(0)
          .setMaxValue(1_000_000),
      )
      .addNumberOption((o) =>
        o
          .setName('min_cashout')
          .setDescription('The smallest cash-out in dollars (default 10; all is always allowed)')
          .setMinValue(0)
          .setMaxValue(100_000),
      )
      .addNumberOption((o) =>
        o
          .setName('fee_percent')
          .setDescription('Performance fee on gain above the high-water mark (0: off)')
          .setMinValue(0)
          .setMaxValue(50),
      )
      .addStringOption((o) =>
        o
          .setName('fee_period')
          .setDescription('How often the accrued fee crystallises and is owed (default: month)')
          .addChoices(
            { name: 'month', value: 'month' },
            { name: 'quarter', value: 'quarter' },
            { name: 'year', value: 'year' },
          ),
      )
      .addUserOption((o) => o.setName('fee_manager').setDescription('Who a crystallised fee is owed to'))
      .addNumberOption((o) =>
        o
          .setName('share_percent')
          .setDescription(
            "Tipster share of each tipster's profit above their own mark, capped by the fund's gain (0: off)",
          )
          .setMinValue(0)
          .setMaxValue(50),
      )
      .addNumberOption((o) =>
        o
          .setName('opening_price')
          .setDescription('Unit price the first contribution buys at (default 1.00)')
          .setMinValue(0.01)
          .setMaxValue(10_000),
      ),
  );

/** A percentage of the bank, 0 lifting it. */
function pctOption(o: SlashCommandNumberOption, name: string, description: string) {
  return o.setName(name).setDescription(`${description} (0: none)`).setMinValue(0).setMaxValue(100);
}

/** Every limit in whole cents (null: no cap) and share of the bank, for the ledger's before and after. */
function limitsOf(s: GuildSettings, stake: StakeLimits) {
  const c = exposureCaps(s);
  return {
    perBetPct: s.maxStakePerBetPct ?? null,
    perDayPct: s.maxStakePerDayPct ?? null,
    perEventPct: s.maxPerEventPct ?? null,
    perMarketPct: s.maxPerMarketPct ?? null,
    perBetCents: stake.perBetCents,
    perDayCents: stake.perDayCents,
    perEventCents: c.perEventCents ?? null,
    perMarketCents: c.perMarketCents ?? null,
    perSessionDayCents: c.perSessionDayCents ?? null,
    perSyndicateDayCents: c.perSyndicateDayCents ?? null,
    perRunnerCents: c.perRunnerCents ?? null,
  };
}

/** What a subcommand did: the settings to show (and a warning to add), or a refusal saying what to do. */
type Outcome = { settings: GuildSettings; warning?: string } | { refuse: string };

/** One /settings call, as each subcommand sees it: the server's settings were read once, before it runs. */
interface SettingsCall {
  interaction: ChatInputCommandInteraction;
  ctx: BotContext;
  guildId: string;
  settings: GuildSettings;
}

const resultsChannel = async ({ interaction, ctx, guildId }: SettingsCall): Promise<Outcome> => {
  const channel = interaction.options.getChannel('channel', true);
  return { settings: await updateSettings(ctx.store, guildId, (s) => ({ ...s, resultsChannelId: channel.id })) };
};

const betRole = async ({ interaction, ctx, guildId }: SettingsCall): Promise<Outcome> => {
  const role = interaction.options.getRole('role');
  const settings = await updateSettings(ctx.store, guildId, (s) => {
    const { betRoleId: _drop, ...rest } = s;
    return role ? { ...rest, betRoleId: role.id } : rest;
  });
  return { settings };
};

const limits = async ({ interaction, ctx, guildId, settings }: SettingsCall): Promise<Outcome> => {
  const perBet = interaction.options.getNumber('per_bet') ?? undefined;
  const perDay = interaction.options.getNumber('per_day') ?? undefined;
  const capDollars = {
    maxPerEventCents: interaction.options.getNumber('per_event') ?? undefined,
    maxPerMarketCents: interaction.options.getNumber('per_market') ?? undefined,
    maxPerSessionDayCents: interaction.options.getNumber('per_session_day') ?? undefined,
    maxPerSyndicateDayCents: interaction.options.getNumber('per_syndicate_day') ?? undefined,
    maxPerRunnerCents: interaction.options.getNumber('per_runner') ?? undefined,
  };
  const shares = {
    maxStakePerBetPct: interaction.options.getNumber('per_bet_pct') ?? undefined,
    maxStakePerDayPct: interaction.options.getNumber('per_day_pct') ?? undefined,
    maxPerEventPct: interaction.options.getNumber('per_event_pct') ?? undefined,
    maxPerMarketPct: interaction.options.getNumber('per_market_pct') ?? undefined,
  };
  const noShares = Object.values(shares).every((v) => v === undefined);
  const noCaps = Object.values(capDollars).every((v) => v === undefined);
  if (perBet === undefined && perDay === undefined && noCaps && noShares) {
    return {
      refuse:
        'Give at least one limit: in dollars per_bet, per_day, per_event, per_market, per_session_day, per_syndicate_day or per_runner; as a % of the bank per_bet_pct, per_day_pct, per_event_pct or per_market_pct.',
    };
  }
  const wholeCents = [perBet, perDay, ...Object.values(capDollars)].every(
    (v) => v === undefined || parseCents(v) !== undefined,
  );
  if (!wholeCents) return { refuse: 'Limits are dollars and whole cents, e.g. 250 or 99.50.' };
  // Every dollar option is whole cents from here on.
  const inCents = (v: number | undefined) => (v === undefined ? undefined : (parseCents(v) ?? 0));
  const perBetCents = inCents(perBet);
  const perDayCents = inCents(perDay);
  const caps = Object.fromEntries(Object.entries(capDollars).map(([k, v]) => [k, inCents(v)])) as Record<
    keyof typeof capDollars,
    number | undefined
  >;
  const current = stakeLimits(settings, ctx.config.tunables);
  if ((perBetCents ?? current.perBetCents) > (perDayCents ?? current.perDayCents)) {
    return { refuse: 'The per-bet limit cannot be above the per-day limit. Raise per_day too.' };
  }
  const before = limitsOf(settings, current);
  const saved = await updateSettings(ctx.store, guildId, (s) => {
    const next: typeof s = {
      ...s,
      ...(perBetCents === undefined ? {} : { maxStakePerBetCents: perBetCents }),
      ...(perDayCents === undefined ? {} : { maxStakePerDayCents: perDayCents }),
    };
    // 0 lifts a cap; an option left out keeps the cap as it was.
    for (const [k, v] of Object.entries({ ...caps, ...shares }) as Array<
      [keyof typeof caps | keyof typeof shares, number | undefined]
    >) {
      if (v === undefined) continue;
      if (v === 0) delete next[k];
      else next[k] = v;
    }
    return next;
  });
  await ctx.ledger.append({
    at: ctx.now(),
    guildKey: guildId,
    kind: 'limit_change',
    ref: 'limits',
    actor: interaction.user.id,
    amountCents: null,
    data: { before, after: limitsOf(saved, stakeLimits(saved, ctx.config.tunables)) },
  });
  return { settings: saved };
};

const approvals = async ({ interaction, ctx, guildId, settings }: SettingsCall): Promise<Outcome> => {
  const t1 = interaction.options.getNumber('t1') ?? undefined;
  const t2 = interaction.options.getNumber('t2') ?? undefined;
  const role = interaction.options.getRole('approver_role');
  const minutes = interaction.options.getNumber('expiry_minutes') ?? undefined;
  if (t1 === undefined && t2 === undefined && !role && minutes === undefined) {
    return { refuse: 'Give at least one of t1, t2 (dollars), approver_role or expiry_minutes.' };
  }
  if ([t1, t2].some((v) => v !== undefined && parseCents(v) === undefined)) {
    return { refuse: 'Tiers are dollars and whole cents, e.g. 50 or 99.50.' };
  }
  const before = approvalPolicy(settings);
  const nextT1 = t1 === undefined ? before.t1Cents : (parseCents(t1) ?? 0);
  const nextT2 = t2 === undefined ? before.t2Cents : (parseCents(t2) ?? 0);
  if (nextT1 > nextT2) {
    return { refuse: 't1 cannot be above t2: stakes above t2 need two approvers. Raise t2 too.' };
  }
  const saved = await updateSettings(ctx.store, guildId, (s) => ({
    ...s,
    ...(t1 === undefined ? {} : { approvalT1Cents: nextT1 }),
    ...(t2 === undefined ? {} : { approvalT2Cents: nextT2 }),
    ...(role ? { approverRoleId: role.id } : {}),
    ...(minutes === undefined ? {} : { approvalMinutes: minutes }),
  }));
  await ctx.ledger.append({
    at: ctx.now(),
    guildKey: guildId,
    kind: 'limit_change',
    ref: 'approvals',
    actor: interaction.user.id,
    amountCents: null,
    data: {
      before: { ...before, approverRoleId: before.approverRoleId ?? null },
      after: { ...approvalPolicy(saved), approverRoleId: saved.approverRoleId ?? null },
    },
  });
  return { settings: saved };
};

const session = async ({ interaction, ctx, guildId }: SettingsCall): Promise<Outcome> => {
  const bookie = interaction.options.getString('bookie', true).trim();
  const sessionId = interaction.options.getString('session')?.trim();
  const sessions = await ctx.gateway.sessions.list();
  let warning: string | undefined;
  if (sessionId) {
    const s = sessions.find((x) => x.session_id === sessionId);
    if (!s || s.bookie !== bookie) {
      return { refuse: `No session ${sessionId.slice(0, 60)} for ${bookie}. See /sessions for the ids.` };
    }
    // Saved all the same (it may be started later), but said plainly: bets on it are refused until then.
    if (!s.active) {
      warning = `⚠️ ${s.username} (session …${sessionId.slice(-4)}) is inactive: bets on ${bookie} are refused until it is started. See /sessions.`;
    }
  } else if (!sessions.some((s) => s.bookie === bookie)) {
    return { refuse: `No session for "${bookie}" on this desk. See /sessions.` };
  } else if (!sessions.some((s) => s.bookie === bookie && s.active)) {
    warning = `⚠️ ${bookie} has no active session: bets on it are refused until one is started. See /sessions.`;
  }
  const settings = await updateSettings(ctx.store, guildId, (s) => {
    const next = { ...s.sessions };
    if (sessionId) next[bookie] = sessionId;
    else delete next[bookie];
    return { ...s, sessions: next };
  });
  return warning === undefined ? { settings } : { settings, warning };
};

const timezone = async ({ interaction, ctx, guildId }: SettingsCall): Promise<Outcome> => {
  const zone = interaction.options.getString('zone', true).trim();
  if (!isValidTimezone(zone)) {
    return { refuse: `"${zone.slice(0, 60)}" is not a time zone. Use an IANA name such as Australia/Sydney or UTC.` };
  }
  return { settings: await updateSettings(ctx.store, guildId, (s) => ({ ...s, timezone: zone })) };
};

const bank = async ({ interaction, ctx, guildId, settings }: SettingsCall): Promise<Outcome> => {
  const amount = interaction.options.getNumber('amount', true);
  if (parseCents(amount) === undefined)
    return { refuse: 'The bank is dollars and whole cents, e.g. 10000 or 2500.50.' };
  const saved = await SetBank.set(ctx.store, guildId, amount === 0 ? undefined : parseCents(amount), ctx.now());
  await ctx.ledger.append({
    at: ctx.now(),
    guildKey: guildId,
    kind: 'limit_change',
    ref: 'bank',
    actor: interaction.user.id,
    amountCents: null,
    data: {
      before: { bankCents: setBankOf(settings)?.cents ?? null },
      after: { bankCents: setBankOf(saved)?.cents ?? null },
    },
  });
  return { settings: saved };
};

const staking = async ({ interaction, ctx, guildId }: SettingsCall): Promise<Outcome> => {
  const method = interaction.options.getString('margin_method') ?? undefined;
  const fraction = interaction.options.getNumber('kelly_fraction') ?? undefined;
  const unit = interaction.options.getNumber('stake_unit') ?? undefined;
  if (method === undefined && fraction === undefined && unit === undefined) {
    return { refuse: 'Give at least one of margin_method, kelly_fraction (e.g. 0.25) or stake_unit (dollars).' };
  }
  if (method !== undefined && !MARGIN_METHODS.includes(method as MarginMethod)) {
    return { refuse: `margin_method is one of ${MARGIN_METHODS.join(', ')}.` };
  }
  if (unit !== undefined && parseCents(unit) === undefined) {
    return { refuse: 'stake_unit is dollars and whole cents, e.g. 1, 5 or 0.50.' };
  }
  const settings = await updateSettings(ctx.store, guildId, (s) => ({
    ...s,
    ...(method === undefined ? {} : { marginMethod: method as MarginMethod }),
    ...(fraction === undefined ? {} : { kellyFraction: fraction }),
    ...(unit === undefined ? {} : { stakeUnitCents: parseCents(unit) ?? 0 }),
  }));
  return { settings };
};

const fund = async ({ interaction, ctx, guildId }: SettingsCall): Promise<Outcome> => {
  const role = interaction.options.getRole('treasurer_role');
  const schedule = interaction.options.getString('schedule')?.trim();
  const tier = interaction.options.getNumber('cashout_tier') ?? undefined;
  const fee = interaction.options.getNumber('fee_percent') ?? undefined;
  const opening = interaction.options.getNumber('opening_price') ?? undefined;
  const feePeriod = (interaction.options.getString('fee_period') ?? undefined) as FeePeriod | undefined;
  const manager = interaction.options.getUser('fee_manager');
  const minCashout = interaction.options.getNumber('min_cashout') ?? undefined;
  const share = interaction.options.getNumber('share_percent') ?? undefined;
  const given = [role, schedule, tier, fee, opening, feePeriod, manager ?? undefined, minCashout, share];
  if (given.every((x) => x === undefined || x === null)) {
    return {
      refuse:
        'Give at least one of treasurer_role, schedule, cashout_tier, min_cashout, fee_percent, fee_period, fee_manager, share_percent or opening_price.',
    };
  }
  // Checked here whatever Discord sent: a value past an option's bounds is refused with the allowed range.
  const ranges: Array<[string, number | undefined, number, number]> = [
    ['cashout_tier', tier, 0, 1_000_000],
    ['min_cashout', minCashout, 0, 100_000],
    ['fee_percent', fee, 0, 50],
    ['share_percent', share, 0, 50],
    ['opening_price', opening, 0.01, 10_000],
  ];
  for (const [name, v, lo, hi] of ranges) {
    if (v !== undefined && !(Number.isFinite(v) && v >= lo && v <= hi && parseCents(v) !== undefined)) {
      return {
        refuse: `${name} must be from ${lo.toLocaleString('en-US')} to ${hi.toLocaleString('en-US')}${name.endsWith('_percent') ? ' percent, with at most two decimals (e.g. 12.5)' : ' dollars, in whole cents'}.`,
      };
    }
  }
  const off = schedule !== undefined && /^(none|off)$/i.test(schedule);
  if (schedule !== undefined && !off) {
    const parsed = parseSchedule(schedule);
    if ('error' in parsed) return { refuse: parsed.error };
  }
  if (opening !== undefined && (await ctx.fund.fund(guildId))) {
    return { refuse: 'The fund is open: its opening price is fixed. Units now deal at the price of each strike.' };
  }
  const settings = await updateSettings(ctx.store, guildId, (s) => {
    const next = {
      ...s,
      ...(role ? { fundTreasurerRoleId: role.id } : {}),
      ...(schedule !== undefined && !off ? { fundSchedule: schedule } : {}),
      ...(tier === undefined ? {} : { fundCashoutTierCents: parseCents(tier) ?? 0 }),
      ...(minCashout === undefined ? {} : { fundMinCashoutCents: parseCents(minCashout) ?? 0 }),
      ...(fee === undefined ? {} : { fundFeePercent: fee }),
      ...(feePeriod === undefined ? {} : { fundFeePeriod: feePeriod }),
      ...(manager ? { fundFeeManagerId: manager.id } : {}),
      ...(share === undefined ? {} : { fundSharePercent: share }),
      ...(opening === undefined ? {} : { fundOpeningPriceCents: parseCents(opening) ?? 0 }),
    };
    if (off) delete next.fundSchedule;
    return next;
  });
  return { settings };
};

/** Each subcommand of /settings by name; `show` changes nothing. */
const SUBCOMMANDS: Record<string, (call: SettingsCall) => Promise<Outcome>> = {
  show: async ({ settings }) => ({ settings }),
  'results-channel': resultsChannel,
  'bet-role': betRole,
  limits,
  approvals,
  session,
  timezone,
  bank,
  staking,
  fund,
};

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const guildId = interaction.guildId;
  if (!guildId) return replyEphemeral(interaction, 'Settings belong to a server: run /settings there.');
  // Discord hides the command from others by default permission; check again, admins can override that.
  if (!isAdmin(interaction)) {
    return replyEphemeral(interaction, 'Only members with Manage Server can change the desk settings.');
  }
  const sub = interaction.options.getSubcommand();
  const settings = await getSettings(ctx.store, guildId);
  const run = SUBCOMMANDS[sub] ?? SUBCOMMANDS.show!;
  const outcome = await run({ interaction, ctx, guildId, settings });
  if ('refuse' in outcome) return replyEphemeral(interaction, outcome.refuse);
  // The bank slips size from now: with a fund holding money, its NAV at the last strike, not the set one.
  const bank = await ctx.bank.bankFor(guildId);
  const listed = Object.keys(outcome.settings.sessions).length > 0 ? await sessionsForChoices(ctx) : [];
  const sessionLabel = (id: string) => {
    const s = listed.find((x) => x.session_id === id);
    return s ? `${s.username} (session …${id.slice(-4)}${s.active ? '' : ', inactive'})` : `session …${id.slice(-4)}`;
  };
  const view = settingsView(
    outcome.settings,
    {
      perBetCents: ctx.config.tunables.defaultMaxStakePerBetCents,
      perDayCents: ctx.config.tunables.defaultMaxStakePerDayCents,
    },
    bank,
    sessionLabel,
    [...((await ctx.bank.fundAccounts?.(guildId)) ?? [])],
  );
  const content = sub === 'show' ? '' : outcome.warning ? `Saved. ${outcome.warning}` : 'Saved.';
  await interaction.editReply({ content, embeds: view.embeds, components: [] });
};

export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  const focused = interaction.options.getFocused(true);
  if (focused.name === 'zone') return respondChoices(interaction, zoneChoices(focused.value, ctx.now()));
  const sessions = await sessionsForChoices(ctx);
  if (focused.name === 'bookie') {
    const books = [...new Set(sessions.map((s) => s.bookie))].sort();
    return respondChoices(
      interaction,
      matchText(books, focused.value, (b) => b).map((b) => ({ name: b, value: b })),
    );
  }
  await respondChoices(
    interaction,
    await accountSessionChoices(ctx, focused.value, interaction.options.getString('bookie')),
  );
};

export default { data, execute, autocomplete } satisfies Command;
