import {
  ApplicationCommandOptionType,
  ChannelType,
  type ChatInputCommandInteraction,
  InteractionContextType,
  MessageFlags,
  SlashCommandBuilder,
  type SlashCommandSubcommandBuilder,
} from 'discord.js';
import {
  findMarket,
  leagueListChoices,
  resolveEventOption,
  resolveRefOption,
  warmCaches,
} from '../src/bot/catalog/handlers/choices.js';
import { selectionMatches } from '../src/bot/catalog/model/compare.js';
import type { BotContext, Command } from '../src/bot/context.js';
import { replyEphemeral, respondChoices } from '../src/bot/discord/interact.js';
import { leagueName, parseLeagueList } from '../src/bot/model/leagues.js';
import { selectionName } from '../src/bot/model/markets.js';
import { UserFacingError } from '../src/bot/model/user-facing-error.js';
import { isAdmin } from '../src/bot/settings/handlers/permissions.js';
import {
  type LeagueValueRule,
  WATCH_RANGES,
  type WatchNumber,
  type WatchRule,
  watchChoice,
  watchNumber,
} from '../src/bot/watch/model/watch-rules.js';
import { booksTakingBets, leftOutText } from '../src/bot/watch/takers.js';
import {
  alertedText,
  freshnessText,
  ruleText,
  type WatchListRow,
  watchListView,
} from '../src/bot/watch/views/watch.js';
import type { Watch } from '../src/bot/watch/watches-repo.js';
import { autocomplete as betChoices } from './bet.js';

/** Personal watches a member may hold in one server: each costs card reads from the key's shared budget. */
export const MAX_PERSONAL_WATCHES = 25;

const eventAndMarket = (s: SlashCommandSubcommandBuilder) =>
  s
    .addStringOption((o) => o.setName('event').setDescription('The event').setRequired(true).setAutocomplete(true))
    .addStringOption((o) => o.setName('market').setDescription('The market').setRequired(true).setAutocomplete(true));

const selectionOption = (s: SlashCommandSubcommandBuilder, required: boolean) =>
  s.addStringOption((o) =>
    o
      .setName('selection')
      .setDescription(required ? 'The selection' : 'One selection (leave out: every selection of the market)')
      .setRequired(required)
      .setAutocomplete(true),
  );

const bookieOption = (s: SlashCommandSubcommandBuilder) =>
  s.addStringOption((o) =>
    o.setName('bookie').setDescription("One book (leave out: any of the event's books)").setAutocomplete(true),
  );

const deliverOption = (s: SlashCommandSubcommandBuilder) =>
  s.addStringOption((o) =>
    o
      .setName('deliver')
      .setDescription('channel (default): the alerts channel (else this one) with a mention; dm: a DM to you')
      .addChoices(
        { name: 'the alerts channel (else this one), with a mention', value: 'channel' },
        { name: 'DM', value: 'dm' },
      ),
  );

export const data = new SlashCommandBuilder()
  .setName('watch')
  .setDescription('Alerts on prices, value and line moves, posted once per move with a Bet button')
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((s) => {
    eventAndMarket(s);
    selectionOption(s, true);
    s.addNumberOption((o) =>
      o
        .setName('target')
        .setDescription('Decimal odds to alert at, e.g. 3.20')
        .setRequired(true)
        .setMinValue(WATCH_RANGES.target.min)
        .setMaxValue(WATCH_RANGES.target.max),
    );
    bookieOption(s);
    s.setName('price')
      .setDescription('Alert when a price reaches your target')
      .addStringOption((o) =>
        o
          .setName('direction')
          .setDescription('above (default): at or above the target; below: at or under it')
          .addChoices({ name: 'at or above', value: 'above' }, { name: 'at or below', value: 'below' }),
      );
    return deliverOption(s);
  })
  .addSubcommand((s) => {
    eventAndMarket(s);
    s.addNumberOption((o) =>
      o
        .setName('edge')
        .setDescription('Least edge over the fair price, in %, e.g. 3')
        .setRequired(true)
        .setMinValue(WATCH_RANGES.edge.min)
        .setMaxValue(WATCH_RANGES.edge.max),
    );
    selectionOption(s, false);
    bookieOption(s);
    s.setName('value')
      .setDescription('Alert when a book beats the fair price by your edge')
      .addBooleanOption((o) =>
        o.setName('server').setDescription("The server's watch, posted for everyone (Manage Server only)"),
      );
    return deliverOption(s);
  })
  .addSubcommand((s) => {
    eventAndMarket(s);
    selectionOption(s, true);
    s.setName('moves')
      .setDescription('Alert when the consensus price moves (steam: several books the same way)')
      .addNumberOption((o) =>
        o
          .setName('move')
          .setDescription('Least move, in %, e.g. 8')
          .setRequired(true)
          .setMinValue(WATCH_RANGES.move.min)
          .setMaxValue(WATCH_RANGES.move.max),
      )
      .addIntegerOption((o) =>
        o
          .setName('minutes')
          .setDescription('Within this many minutes (default 15)')
          .setMinValue(WATCH_RANGES.minutes.min)
          .setMaxValue(WATCH_RANGES.minutes.max),
      )
      .addIntegerOption((o) =>
        o
          .setName('steam_books')
          .setDescription('Only steam: at least this many books moved the same way')
          .setMinValue(WATCH_RANGES.steam_books.min)
          .setMaxValue(WATCH_RANGES.steam_books.max),
      );
    return deliverOption(s);
  })
  .addSubcommand((s) => s.setName('list').setDescription("Your watches and the server's, and how fresh each is"))
  .addSubcommand((s) =>
    s
      .setName('remove')
      .setDescription('Remove a watch by its id (from /watch list)')
      .addStringOption((o) => o.setName('id').setDescription('The watch id').setRequired(true)),
  )
  .addSubcommand((s) =>
    s
      .setName('server-rule')
      .setDescription("The server's value rule over whole leagues, posted in the alerts channel (Manage Server only)")
      .addStringOption((o) =>
        o
          .setName('leagues')
          .setDescription('Leagues, comma separated, e.g. nrl, afl')
          .setRequired(true)
          .setAutocomplete(true),
      )
      .addNumberOption((o) =>
        o
          .setName('edge')
          .setDescription('Least edge over the fair price, in %, e.g. 3')
          .setRequired(true)
          .setMinValue(WATCH_RANGES.edge.min)
          .setMaxValue(WATCH_RANGES.edge.max),
      )
      .addIntegerOption((o) =>
        o
          .setName('hours')
          .setDescription('Events starting within this many hours (default 24)')
          .setMinValue(WATCH_RANGES.hours.min)
          .setMaxValue(WATCH_RANGES.hours.max),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('alerts-channel')
      .setDescription('Where alerts are posted (Manage Server only)')
      .addChannelOption((o) =>
        o.setName('channel').setDescription('A text channel').setRequired(true).addChannelTypes(ChannelType.GuildText),
      ),
  );

/** The event, market and selection an interaction names, read from a card (the book's, else the event's first). */
async function resolveTarget(ctx: BotContext, i: ChatInputCommandInteraction, needSelection: boolean) {
  const epk = await resolveEventOption(ctx, i.options.getString('event', true));
  // An event outside the listing autocomplete holds (or after the cache expired): the window is read again once.
  const event = (await ctx.catalog.event(epk)) ?? (await warmCaches(ctx).then(() => ctx.catalog.event(epk)));
  if (!event) throw new UserFacingError('That event is not listed now. Pick one from the list.');
  const listed = event.books ?? [];
  const bookie = i.options.getString('bookie')?.trim() || null;
  if (bookie && !listed.includes(bookie)) {
    throw new UserFacingError(`${bookie} does not list ${event.name}. Its books: ${listed.join(', ')}.`);
  }
  // Only books that take bets on the event: an alert must lead to a bet (decision 1996).
  const offer = await booksTakingBets(ctx, event);
  const refused = offer.leftOut.find((l) => l.book === bookie);
  if (refused) {
    const others = offer.takers.length
      ? `Watch it at ${offer.takers.join(' or ')}, or leave out bookie to watch every book that takes it.`
      : `No book of ${event.name} takes bets on it now.`;
    throw new UserFacingError(`${bookie} ${refused.why}, so its alerts would lead to no bet. ${others}`);
  }
  const books = bookie ? listed : offer.takers;
  const readAt = bookie ?? books[0];
  if (!readAt) {
    throw new UserFacingError(
      offer.leftOut.length
        ? `No book of ${event.name} takes bets on it now: ${leftOutText(offer)}.`
        : `${event.name} has no books listing it now.`,
    );
  }
  const card = await ctx.catalog.loadCard(epk, readAt);
  const market = findMarket(card.markets, i.options.getString('market', true).trim());
  if (!market) throw new UserFacingError(`${readAt} has no such market on ${event.name}. Pick one from the list.`);
  const typed = i.options.getString('selection')?.trim();
  let selection: { slug: string; label: string } | null = null;
  if (typed) {
    const value = await resolveRefOption(ctx, typed, 'selection');
    const sel = market.selections.find((s) => s.market_ref === value || selectionMatches(s, value));
    if (!sel) throw new UserFacingError(`${readAt} has no such selection in ${market.label}. Pick one from the list.`);
    selection = { slug: sel.slug ?? sel.label, label: selectionName(sel.label, sel.line) };
  } else if (needSelection) throw new UserFacingError('Pick a selection.');
  const startsAt = Date.parse(event.start_time);
  return {
    epk,
    eventName: event.name,
    startsAt: Number.isFinite(startsAt) ? startsAt : null,
    books,
    market: market.market,
    marketLabel: market.label || market.market,
    selection,
    bookie,
    leftOut: bookie ? '' : leftOutText(offer),
  };
}

const alertsChannel = (ctx: BotContext, guildId: string) => ctx.watch.repo.alertsChannel(guildId);

async function addWatch(ctx: BotContext, i: ChatInputCommandInteraction, rule: WatchRule, server = false) {
  const guildId = i.guildId as string;
  if (server && !isAdmin(i)) throw new UserFacingError('A server watch needs Manage Server. Leave out `server`.');
  const delivery = watchChoice('deliver', sent(i, 'deliver'), ['channel', 'dm'] as const) ?? 'channel';
  if (server && delivery === 'dm') {
    throw new UserFacingError("A server watch is posted in the server's channel. Leave out `deliver`, or `server`.");
  }
  if (!server && (await ctx.watch.repo.countFor(guildId, i.user.id)) >= MAX_PERSONAL_WATCHES) {
    throw new UserFacingError(
      `You hold ${MAX_PERSONAL_WATCHES} watches, the most one member may. Remove one with /watch remove.`,
    );
  }
  const t = await resolveTarget(ctx, i, rule.kind !== 'value');
  if (t.startsAt !== null && t.startsAt <= ctx.now()) throw new UserFacingError(`${t.eventName} has started.`);
  // Personal alerts go to the alerts channel when the server has one (with a mention), else where the watch was made;
  // by DM, to the member's DM channel with the bot.
  const channelId =
    delivery === 'dm' ? await dmChannelFor(i) : ((await alertsChannel(ctx, guildId)) ?? (i.channelId as string));
  const watch: Watch = await ctx.watch.repo.add({
    guildId,
    userId: i.user.id,
    scope: server ? 'server' : 'personal',
    delivery,
    channelId,
    epk: t.epk,
    eventName: t.eventName,
    startsAt: t.startsAt,
    books: t.books,
    market: t.market,
    selection: t.selection?.slug ?? null,
    selectionLabel: t.selection?.label ?? t.marketLabel,
    bookie: t.bookie,
    rule,
  });
  ctx.watch.kick();
  const where = delivery === 'dm' ? 'you by DM' : `<#${channelId}>`;
  await replyEphemeral(
    i,
    `Watching ${watch.selectionLabel} · ${t.eventName}: ${ruleText(watch)}${t.leftOut ? `; left out: ${t.leftOut}` : ''}. Alerts go to ${where}; /watch remove id:\`${watch.watchId}\` stops it.`,
    'ok',
  );
}

/**
 * The member's DM channel with the bot (Discord's Create DM), proven by a first message: Discord opens the channel
 * even when the member takes no DMs from the server, and refuses only the message (50007).
 */
async function dmChannelFor(i: ChatInputCommandInteraction): Promise<string> {
  try {
    const dm = await i.user.createDM();
    await dm.send({
      content: 'Your watch alerts from the desk come here. Remove a watch with /watch remove in the server.',
    });
    return dm.id;
  } catch (err) {
    if ((err as { code?: unknown }).code === 50007) {
      throw new UserFacingError(
        'I cannot DM you: your privacy settings block DMs from this server. Allow them, or pick `deliver: alerts channel`.',
      );
    }
    throw err;
  }
}

/** /watch server-rule: an admin's value rule over leagues, posted in the alerts channel for everyone. */
async function addServerRule(ctx: BotContext, i: ChatInputCommandInteraction) {
  const guildId = i.guildId as string;
  if (!isAdmin(i)) {
    throw new UserFacingError(
      "Server rules need Manage Server. For alerts of your own, use /watch value on an event's market.",
    );
  }
  const hours = watchNumber('hours', sent(i, 'hours')) ?? 24;
  const edgePct = requiredNumber(i, 'edge');
  const channelId = await alertsChannel(ctx, guildId);
  if (!channelId) throw new UserFacingError('Set the alerts channel first: /watch alerts-channel channel:#alerts.');
  const leagues = parseLeagueList(i.options.getString('leagues', true));
  const rule: LeagueValueRule = { kind: 'league', leagues, edgePct, horizonMs: hours * 3_600_000 };
  const watch = await ctx.watch.repo.add({
    guildId,
    userId: i.user.id,
    scope: 'server',
    channelId,
    // A rule covers many events: the event columns name the leagues; the scheduler finds the events each pass.
    epk: '',
    eventName: leagues.map(leagueName).join(', '),
    startsAt: null,
    books: [],
    market: '',
    selection: null,
    selectionLabel: null,
    bookie: null,
    rule,
  });
  ctx.watch.kick();
  await replyEphemeral(
    i,
    `Server rule: ${ruleText(watch)}. Alerts go to <#${channelId}>; /watch remove id:\`${watch.watchId}\` removes it.`,
    'ok',
  );
}

/** One /watch call, as each subcommand sees it: in a server, the reply already deferred. */
interface WatchCall {
  interaction: ChatInputCommandInteraction;
  ctx: BotContext;
  guildId: string;
}

/** An option's value as the interaction carries it, unchecked (a modified client may send any JSON there). */
const sent = (i: ChatInputCommandInteraction, name: string): unknown => i.options.get(name)?.value ?? undefined;

/** A number option /watch needs, held to its range (WATCH_RANGES) on the server. */
function requiredNumber(i: ChatInputCommandInteraction, name: WatchNumber): number {
  const n = watchNumber(name, sent(i, name) ?? null);
  if (n === undefined) throw new UserFacingError(`\`${name}\` is needed. Run /watch again with it.`);
  return n;
}

const price = ({ interaction, ctx }: WatchCall) => {
  const direction = watchChoice('direction', sent(interaction, 'direction'), ['above', 'below'] as const) ?? 'above';
  return addWatch(ctx, interaction, {
    kind: 'price',
    target: Math.round(requiredNumber(interaction, 'target') * 100) / 100,
    direction,
  });
};

const value = ({ interaction, ctx }: WatchCall) =>
  addWatch(
    ctx,
    interaction,
    { kind: 'value', edgePct: requiredNumber(interaction, 'edge') },
    interaction.options.getBoolean('server') === true,
  );

const moves = ({ interaction, ctx }: WatchCall) =>
  addWatch(ctx, interaction, {
    kind: 'moves',
    movePct: requiredNumber(interaction, 'move'),
    windowMs: (watchNumber('minutes', sent(interaction, 'minutes')) ?? 15) * 60_000,
    steamBooks: watchNumber('steam_books', sent(interaction, 'steam_books')) ?? null,
  });

const list = async ({ interaction, ctx, guildId }: WatchCall): Promise<void> => {
  const watches = await ctx.watch.repo.listFor(guildId, interaction.user.id);
  const alerts = await ctx.watch.repo.alertsOf(watches.map((w) => w.watchId));
  const now = ctx.now();
  const rows: WatchListRow[] = [];
  for (const watch of watches) {
    rows.push({
      watch,
      freshness: freshnessText(await ctx.watch.oldestRead(watch), now, watch.startsAt),
      alerted: alertedText(alerts.get(watch.watchId), now),
      started: watch.startsAt !== null && watch.startsAt <= now,
    });
  }
  const view = watchListView(rows);
  await interaction.editReply({ embeds: view.embeds, components: [] });
};

const remove = async ({ interaction, ctx, guildId }: WatchCall): Promise<void> => {
  const id = interaction.options.getString('id', true).trim();
  const removed = await ctx.watch.repo.remove(guildId, id, interaction.user.id, isAdmin(interaction));
  if (!removed) throw new UserFacingError(`No watch \`${id.slice(0, 40)}\` of yours here. See /watch list.`);
  return replyEphemeral(interaction, `Removed: ${removed.selectionLabel} · ${ruleText(removed)}.`, 'ok');
};

const setAlertsChannel = async ({ interaction, ctx, guildId }: WatchCall): Promise<void> => {
  if (!isAdmin(interaction)) throw new UserFacingError('Setting the alerts channel needs Manage Server.');
  const channel = interaction.options.getChannel('channel', true);
  await ctx.watch.repo.setAlertsChannel(guildId, channel.id);
  return replyEphemeral(interaction, `Alerts of new watches go to <#${channel.id}>.`, 'ok');
};

/** Each subcommand of /watch by name, as /settings routes its own. */
const SUBCOMMANDS: Record<string, (call: WatchCall) => Promise<void>> = {
  price,
  value,
  moves,
  list,
  remove,
  'server-rule': ({ interaction, ctx }) => addServerRule(ctx, interaction),
  'alerts-channel': setAlertsChannel,
};

/** Text and yes/no options carry text and true/false, whatever a modified client sent (numbers: WATCH_RANGES). */
function checkOptionKinds(i: ChatInputCommandInteraction): void {
  const kinds: Partial<Record<ApplicationCommandOptionType, [string, string]>> = {
    [ApplicationCommandOptionType.String]: ['string', 'text'],
    [ApplicationCommandOptionType.Boolean]: ['boolean', 'true or false'],
  };
  for (const o of i.options.data.flatMap((d) => d.options ?? [d])) {
    const kind = kinds[o.type];
    if (!kind || typeof o.value === kind[0]) continue;
    throw new UserFacingError(
      `\`${o.name}\` must be ${kind[1]}; got ${String(JSON.stringify(o.value)).slice(0, 24)}. Run /watch again.`,
    );
  }
}

export const execute: Command['execute'] = async (interaction, ctx) => {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const sub = interaction.options.getSubcommand();
  const guildId = interaction.guildId;
  if (!guildId) throw new UserFacingError('Watches belong to a server: use /watch in a server channel.');
  checkOptionKinds(interaction);
  await SUBCOMMANDS[sub]?.({ interaction, ctx, guildId });
};

/**
 * The same choices as /bet: with a book, its card (market_refs); without, what every book shares (slugs). Books as
 * /bet offers them, those a bet can go to, so an alert's Bet button never leads to a book that takes no bets.
 */
export const autocomplete: Command['autocomplete'] = async (interaction, ctx) => {
  if (interaction.options.getFocused(true).name !== 'leagues') return betChoices?.(interaction, ctx);
  await respondChoices(interaction, leagueListChoices(interaction.options.getFocused()));
};

export default { data, execute, autocomplete } satisfies Command;
