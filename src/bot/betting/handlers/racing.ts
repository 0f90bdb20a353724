import {
  ActionRowBuilder,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  MessageFlags,
  ModalBuilder,
  type ModalSubmitInteraction,
  type SlashCommandIntegerOption,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import { getRef, putRef, type RefOwner } from '../../catalog/index.js';
import {
  type ComponentHandler,
  type ComponentRoute,
  modalRoute,
  selectRoute,
} from '../../discord/component-handler.js';
import { row, select } from '../../discord/components.js';
import { encodeCustomId } from '../../discord/custom-id.js';
import { replyEphemeral, respondChoices, typedNumber } from '../../discord/interact.js';
import { chooseDay, type DayChoice } from '../../model/dates.js';
import type { MessageView } from '../../model/limits.js';
import { matchText } from '../../model/match-text.js';
import { LEG_POSITIONS, type LegPosition, positionWords, readPosition } from '../../model/multi-fair.js';
import { formatOdds } from '../../model/odds.js';
import type { MultiLeg, RaceKey, RacingBet, RacingMultiBet } from '../../model/racing-bet.js';
import {
  KNOWN_TRACKS,
  RACE_TYPES,
  RACES_OFFERED,
  resolveTrack,
  trackDay,
  trackValue,
  trackZone,
} from '../../model/tracks.js';
import { userMessage } from '../../model/user-errors.js';
import { UserFacingError } from '../../model/user-facing-error.js';
import { SingleFlight } from '../../ops/single-flight.js';
import { getSettings } from '../../settings/index.js';
import { RACE_READ_FRESH_MS, raceReadsOf } from '../race-reads.js';
import { type PriceRow, priceView } from '../views/desk.js';
import { stakeOptionCents } from './bet-gate.js';
import type { BettingDeps } from './deps.js';
import { postPreparedSlip } from './slip-post.js';
import { minOddsField, readMinOdds, readStake, stakeField } from './stake-form.js';

const RUNNERS_WAIT_MS = 1_500;
const RUNNERS_FILL_MS = 20_000;
const RUNNERS_TTL_MS = 60_000;

/** The race a /price racing answer showed, with each book's runners and prices: the "Bet" menus point here. */
export interface RacePriceRef extends RaceKey {
  /** An account promo that needs a chosen runner: every slip made from these menus sends it. */
  promoName?: string;
  books: Array<{ bookie: string; runners: Array<{ runner: string; win?: number; place?: number }> }>;
}

/** Posts a racing slip for the member; the interaction was deferred ephemerally. */
export function postRacingSlip(
  ctx: BettingDeps,
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction,
  bet: RacingBet,
): Promise<void> {
  // A stake above the approval tier asks for the proposal's lifetime: the slip is posted as a proposal.
  return postPreparedSlip(ctx, interaction, bet.stakeCents, (where, lifetime) =>
    ctx.slipFactory.prepareRacingSlip({ ...bet, ...where }, lifetime),
  );
}

/** Posts a same-race multi slip (or its proposal above the tier); the interaction was deferred ephemerally. */
export function postMultiSlip(
  ctx: BettingDeps,
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction,
  bet: RacingMultiBet,
): Promise<void> {
  return postPreparedSlip(ctx, interaction, bet.stakeCents, (where, lifetime) =>
    ctx.slipFactory.prepareMultiSlip({ ...bet, ...where }, lifetime),
  );
}

/** A leg option's value: "Runner|top3" from the list, or typed as "Runner top 3" / "Runner" (win). */
export function readLeg(text: string): MultiLeg | { error: string } {
  const t = text.trim();
  const bar = t.lastIndexOf('|');
  if (bar > 0) {
    const position = readPosition(t.slice(bar + 1));
    if (!position)
      return { error: `"${t.slice(bar + 1).slice(0, 20)}" is not a position: use win, top 2, top 3 or top 4.` };
    return { runner: t.slice(0, bar).trim(), position };
  }
  const m = /^(.*?)[\s·,-]+(win|top\s?[234]|[234](?:nd|rd|th))$/i.exec(t);
  const position = m ? readPosition(m[2] ?? '') : undefined;
  if (m && position) return { runner: (m[1] ?? '').trim(), position };
  return t ? { runner: t, position: 'win' } : { error: 'A leg needs a runner.' };
}

/**
 * A leg option's choices: the race's runners (as /bet-racing lists them) each with the four positions, narrowed
 * by what was typed ("alp" or "alpha top 3"); "Runner · top 3" shown, "Runner|top3" sent.
 */
export async function legChoices(
  ctx: BettingDeps,
  race: RaceKey,
  typed: string,
): Promise<Array<{ name: string; value: string }>> {
  const read = readLeg(typed);
  const asked = 'error' in read || !/\s(win|top\s?[234]|[234](nd|rd|th))$/i.test(typed.trim()) ? undefined : read;
  const runnerTyped = asked ? asked.runner : typed.replace(/\|.*$/, '');
  const runners = (await runnerChoices(ctx, race, runnerTyped)).map((c) => c.value);
  // The slip this multi becomes is priced from the race as read here: keep the read younger than RACE_READ_FRESH_MS.
  void fillRunners(ctx, race);
  const positions: readonly LegPosition[] = asked ? [asked.position] : LEG_POSITIONS;
  return runners
    .flatMap((r) => positions.map((p) => ({ name: `${r} · ${positionWords(p)}`, value: `${r}|${p}` })))
    .slice(0, 25);
}

/**
 * The options every race command shares (track, race, bookie), answered here: true when the focused option was
 * one of them; otherwise the race the other options name, for the command's own choices.
 */
export async function answerRaceOption(
  interaction: AutocompleteInteraction,
  ctx: BettingDeps,
): Promise<{ answered: true } | { answered: false; race: RaceKey; typed: string }> {
  const focused = interaction.options.getFocused(true);
  const { track, raceType } = resolveTrack(interaction.options.getString('track') ?? '');
  if (focused.name === 'track') {
    await respondChoices(interaction, trackChoices(focused.value));
    return { answered: true };
  }
  if (focused.name === 'race') {
    // Integer choices: respond directly (respondChoices takes strings).
    const choices = await raceNumberChoices(ctx, interaction.guildId, {
      track,
      date: interaction.options.getString('date'),
      typed: String(focused.value),
    });
    await interaction.respond(choices.slice(0, 25)).catch(() => undefined);
    return { answered: true };
  }
  if (focused.name === 'bookie') {
    const books = [...new Set((await ctx.catalog.loadSessions()).filter((s) => s.active).map((s) => s.bookie))];
    const typed = focused.value.trim().toLowerCase();
    await respondChoices(
      interaction,
      books.filter((b) => b.includes(typed)).map((b) => ({ name: b, value: b })),
    );
    return { answered: true };
  }
  const settings = await getSettings(ctx.store, interaction.guildId);
  const day = chooseDay(interaction.options.getString('date'), ctx.now(), trackZone(track, settings.timezone));
  const date = day.ok ? day.day : trackDay(track, ctx.now(), settings.timezone);
  const raceNum = typedNumber(interaction, 'race') ?? 1;
  return { answered: false, race: { track, raceNum, raceType, date }, typed: focused.value };
}

/** What every race bet command reads the same way: the race, the book, the stake and the floor. */
export interface RaceBetOptions extends RaceKey {
  bookie: string;
  stakeCents: number;
  minOdds?: number;
}

/**
 * A race bet command's shared options (track, race, date in the track's zone, bookie: the named one else the first
 * active session's, stake, min_odds); undefined when one was refused (the member was told why).
 */
export async function readRaceBetOptions(
  ctx: BettingDeps,
  interaction: ChatInputCommandInteraction,
): Promise<RaceBetOptions | undefined> {
  const { track, raceType } = resolveTrack(interaction.options.getString('track', true));
  const day = await raceDay(ctx, interaction.guildId, track, interaction.options.getString('date'));
  if (!day.ok) return void (await replyEphemeral(interaction, day.message));
  const bookie =
    interaction.options.getString('bookie')?.trim() || (await ctx.catalog.loadSessions()).find((s) => s.active)?.bookie;
  if (!bookie) {
    return void (await replyEphemeral(interaction, 'No active session to bet with. Start one (see /sessions).'));
  }
  const minOdds = interaction.options.getNumber('min_odds') ?? undefined;
  const stakeCents = await stakeOptionCents(ctx, interaction, interaction.options.getNumber('stake', true));
  return {
    track,
    raceType,
    raceNum: interaction.options.getInteger('race', true),
    date: day.day,
    bookie,
    stakeCents,
    ...(minOdds === undefined ? {} : { minOdds }),
  };
}

/** Track choices with their race type, so a greyhound or harness track is asked for as one. */
export function trackChoices(typed: string): Array<{ name: string; value: string }> {
  const t = typed.trim();
  const known = matchText([...KNOWN_TRACKS], t, (x) => x.track).map((x) => ({
    name: `${x.track} · ${RACE_TYPES[x.raceType]}`,
    value: trackValue(x.track, x.raceType),
  }));
  return t && !KNOWN_TRACKS.some((x) => x.track.toLowerCase() === t.toLowerCase())
    ? [...known, { name: t, value: t }]
    : known;
}

/**
 * The day a race command means: `date` (default today) read in the track's own time zone, so /price racing and
 * /bet-racing agree on "today" for the same track.
 */
export async function raceDay(
  ctx: Pick<BettingDeps, 'store' | 'now'>,
  guildId: string | null,
  track: string,
  date: string | null,
): Promise<DayChoice> {
  const settings = await getSettings(ctx.store, guildId);
  return chooseDay(date, ctx.now(), trackZone(track, settings.timezone));
}

/** The `race` option of a race command (/price racing, /bet-racing): a number of the track's local day. */
export function raceNumberOption(o: SlashCommandIntegerOption): SlashCommandIntegerOption {
  return o
    .setName('race')
    .setDescription("Race number (the track's local day)")
    .setRequired(true)
    .setMinValue(1)
    .setMaxValue(20)
    .setAutocomplete(true);
}

/** The race-number choices of a race command: the track's meeting on the day `raceDay` reads. */
export async function raceNumberChoices(
  ctx: Pick<BettingDeps, 'store' | 'now'>,
  guildId: string | null,
  q: { track: string; date: string | null; typed: string },
): Promise<Array<{ name: string; value: number }>> {
  const day = await raceDay(ctx, guildId, q.track, q.date);
  const settings = await getSettings(ctx.store, guildId);
  return raceChoices(q.track, day.ok ? day.day : trackDay(q.track, ctx.now(), settings.timezone), q.typed);
}

/** Race numbers of the track's meeting on its local day. */
export function raceChoices(track: string, day: string, typed: string): Array<{ name: string; value: number }> {
  return Array.from({ length: RACES_OFFERED }, (_, i) => i + 1)
    .filter((n) => typed.trim() === '' || String(n).startsWith(typed.trim()))
    .map((n) => ({ name: `Race ${n} · ${track || 'track'} · ${day}`, value: n }));
}

/** Each desk's known runners and the price checks filling them (by its catalog: one per desk, however many share a process). */
interface RunnerMemory {
  cache: Map<string, { at: number; runners: string[] }>;
  fills: SingleFlight;
}
const runnerMemories = new WeakMap<object, RunnerMemory>();

function runnerMemory(ctx: Pick<BettingDeps, 'catalog'>): RunnerMemory {
  let memory = runnerMemories.get(ctx.catalog);
  if (!memory) {
    memory = { cache: new Map(), fills: new SingleFlight() };
    runnerMemories.set(ctx.catalog, memory);
  }
  return memory;
}

const raceKeyOf = (r: RaceKey) => `${r.track}/${r.raceNum}/${r.raceType}/${r.date}`;

/** Keeps the runners a price check returned (autocomplete reads them; /price racing fills it too). */
export function rememberRunners(ctx: BettingDeps, race: RaceKey, runners: string[]): void {
  if (runners.length > 0) runnerMemory(ctx).cache.set(raceKeyOf(race), { at: ctx.now(), runners });
}

/** One active session per book: the race is read once at each book (a book's prices are the book's). */
async function sessionPerBook(ctx: BettingDeps): Promise<Array<{ session_id: string; bookie: string }>> {
  const first = new Map<string, { session_id: string; bookie: string }>();
  for (const s of await ctx.catalog.loadSessions()) {
    if (s.active && !first.has(s.bookie)) first.set(s.bookie, { session_id: s.session_id, bookie: s.bookie });
  }
  return [...first.values()];
}

/**
 * The race read at every active book in one price check (unless each book's read is younger than `maxAgeMs`): the
 * runners for the autocomplete, and the win prices a multi's slip is priced from (decision 2050).
 */
async function readRace(ctx: BettingDeps, race: RaceKey, maxAgeMs: number, known: () => void): Promise<void> {
  const sessions = await sessionPerBook(ctx);
  if (sessions.length === 0) return;
  let told = false;
  const reads = await raceReadsOf(ctx.catalog).read(race, sessions, {
    gateway: ctx.gateway,
    now: ctx.now,
    callbackUrl: ctx.callbackUrl,
    waitMs: RUNNERS_FILL_MS,
    maxAgeMs,
    // The autocomplete answers within seconds: the first book that priced the race gives its runners at once.
    onRead: (read) => {
      if (read.win.size === 0 || told) return;
      told = true;
      rememberRunners(ctx, race, [...read.win.keys()]);
      known();
    },
  });
  const first = reads.find((h) => h.read.win.size > 0);
  if (first) rememberRunners(ctx, race, [...first.read.win.keys()]);
}

/** One read of the race, shared by every keystroke asking meanwhile; settled once the runners are known. */
function fillRunners(ctx: BettingDeps, race: RaceKey): Promise<void> {
  return runnerMemory(ctx).fills.run(
    raceKeyOf(race),
    () =>
      new Promise<void>((known) => {
        readRace(ctx, race, RACE_READ_FRESH_MS, known)
          .catch((err) => ctx.logger.debug('runner autocomplete price check failed', { err }))
          .finally(known);
      }),
  );
}

/**
 * Runners of a race. They are known only from a price check, so a first ask waits for one at most
 * RUNNERS_WAIT_MS (autocomplete has three seconds), then answers with what was typed; the check carries on
 * in the background and later asks read the cache (a minute).
 */
export async function runnerChoices(
  ctx: BettingDeps,
  race: RaceKey,
  typed: string,
): Promise<Array<{ name: string; value: string }>> {
  const { cache } = runnerMemory(ctx);
  const cached = cache.get(raceKeyOf(race));
  if (!cached || ctx.now() - cached.at > RUNNERS_TTL_MS) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      fillRunners(ctx, race),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, RUNNERS_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }
  const runners = cache.get(raceKeyOf(race))?.runners ?? [];
  const list = matchText(runners, typed, (r) => r).map((r) => ({ name: r, value: r }));
  const t = typed.trim();
  return t && !list.some((c) => c.value.toLowerCase() === t.toLowerCase()) ? [...list, { name: t, value: t }] : list;
}

/**
 * The live win/place prices of a race at every active session (or only `opts.bookie`'s), with a "Bet" menu per
 * book; a refusal is returned as the sentence to show. `promoName` rides along into the slips the menus make.
 */
export async function raceBoard(
  ctx: BettingDeps,
  race: RaceKey,
  opts: { owner: RefOwner; runner?: string; bookie?: string; promoName?: string },
): Promise<MessageView | string> {
  const sessions = (await ctx.catalog.loadSessions()).filter(
    (s) => s.active && (opts.bookie === undefined || s.bookie === opts.bookie),
  );
  if (sessions.length === 0) {
    return `No active session${opts.bookie ? ` of ${opts.bookie}` : ''} to price with. See /sessions.`;
  }
  const submission = await ctx.gateway.priceChecks.racing({
    session_ids: sessions.map((s) => s.session_id),
    category: 'racing',
    track: race.track,
    race_num: race.raceNum,
    date: race.date,
    race_type: race.raceType,
    ...(opts.runner ? { runner: opts.runner } : {}),
    ...(ctx.callbackUrl ? { callback_url: ctx.callbackUrl } : {}),
  });
  const books = await Promise.all(
    submission.jobs.map(async (job, i) => {
      const bookie = sessions.find((s) => s.session_id === job.sessionId)?.bookie ?? sessions[i]?.bookie ?? '?';
      try {
        const out = await job.wait({ signal: AbortSignal.timeout(ctx.config.tunables.priceCheckWaitMs) });
        if (out.status !== 'completed') return { bookie, error: `job ${out.status}` };
        const r = out.result as {
          status?: string;
          error?: string | null;
          selections?: Array<{ runner?: string; prices?: PriceRow['prices'] }>;
        };
        if (r.status !== 'success') return { bookie, error: r.error ?? 'the book could not price this race' };
        const rows: PriceRow[] = (r.selections ?? []).map((s) => ({ label: s.runner ?? '?', prices: s.prices ?? [] }));
        return { bookie, rows };
      } catch (err) {
        return { bookie, error: userMessage(err) };
      }
    }),
  );
  const view = priceView({
    title: `${race.track} R${race.raceNum} ${race.raceType}`,
    subtitle: `${RACE_TYPES[race.raceType]} · ${race.date}${opts.runner ? ` · ${opts.runner}` : ''}${opts.promoName ? ` · promo ${opts.promoName}` : ''}`,
    books,
  });
  // A "Bet" menu per book: picking a runner opens the stake form and posts a racing slip.
  const priceOf = (row: PriceRow, market: string) => row.prices.find((p) => p.market === market)?.price ?? undefined;
  const components = await racePriceMenus(ctx, opts.owner, {
    ...race,
    ...(opts.promoName ? { promoName: opts.promoName } : {}),
    books: books.map((b) => ({
      bookie: b.bookie,
      runners: (b.rows ?? []).map((r) => {
        const win = priceOf(r, 'win');
        const place = priceOf(r, 'place');
        return { runner: r.label, ...(win ? { win } : {}), ...(place ? { place } : {}) };
      }),
    })),
  });
  return { ...view, components };
}

/** One "Bet on a runner" menu per book under a /price racing answer (a menu holds 25 runners). */
export async function racePriceMenus(
  ctx: BettingDeps,
  owner: RefOwner,
  ref: RacePriceRef,
): Promise<MessageView['components']> {
  const books = ref.books.filter((b) => b.runners.length > 0).slice(0, 5);
  if (books.length === 0) return [];
  rememberRunners(ctx, ref, books[0]?.runners.map((r) => r.runner) ?? []);
  const id = await putRef(ctx.store, ref, owner);
  return books.map((b) =>
    row(
      select(
        encodeCustomId('race', 'pick', id, ref.books.indexOf(b)),
        `Bet at ${b.bookie}: pick a runner`,
        b.runners.map((r, i) => ({
          label: r.runner,
          value: String(i),
          description: `win ${r.win === undefined ? '–' : formatOdds(r.win)} · place ${r.place === undefined ? '–' : formatOdds(r.place)}`,
        })),
      ),
    ),
  );
}

/** Picking a runner opens the stake form (a modal must be the first answer, so no gateway call here). */
const racePick: ComponentHandler<BettingDeps> = async (interaction, [ref, bookIndex], ctx) => {
  if (!interaction.isStringSelectMenu()) return;
  const runnerIndex = interaction.values[0] ?? '0';
  const race = await getRef<RacePriceRef>(ctx.store, ref ?? '');
  const book = race?.books[Number(bookIndex)];
  const runner = book?.runners[Number(runnerIndex)];
  const title = runner && race ? `${runner.runner} · ${race.track} R${race.raceNum} · ${book?.bookie}` : 'Racing bet';
  const modal = new ModalBuilder()
    .setCustomId(encodeCustomId('race', 'stake', ref ?? '', bookIndex ?? '0', runnerIndex))
    .setTitle(title.slice(0, 45))
    .addComponents(
      stakeField(),
      new ActionRowBuilder<TextInputBuilder>().addComponents(
        new TextInputBuilder()
          .setCustomId('market')
          .setLabel('Market: win or place')
          .setValue('win')
          .setStyle(TextInputStyle.Short)
          .setRequired(true)
          .setMaxLength(5),
      ),
      minOddsField('3.50'),
    );
  await interaction.showModal(modal);
};

const raceStake: ComponentHandler<BettingDeps> = async (interaction, [ref, bookIndex, runnerIndex], ctx) => {
  if (!interaction.isModalSubmit()) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const stake = readStake(interaction);
  if (!stake.ok) return replyEphemeral(interaction, stake.message);
  const market = interaction.fields.getTextInputValue('market').trim().toLowerCase();
  if (market !== 'win' && market !== 'place') {
    return replyEphemeral(interaction, `"${market.slice(0, 20)}" is not a market. Enter win or place.`);
  }
  const minOdds = readMinOdds(interaction, '3.50');
  if (!minOdds.ok) return replyEphemeral(interaction, minOdds.message);
  const race = await getRef<RacePriceRef>(ctx.store, ref ?? '');
  const book = race?.books[Number(bookIndex)];
  const runner = book?.runners[Number(runnerIndex)];
  if (!race || !book || !runner)
    throw new UserFacingError('These prices are too old to bet from. Run /price racing again.');
  await postRacingSlip(ctx, interaction, {
    bookie: book.bookie,
    track: race.track,
    raceNum: race.raceNum,
    raceType: race.raceType,
    date: race.date,
    runner: runner.runner,
    market,
    stakeCents: stake.cents,
    ...(minOdds.value === undefined ? {} : { minOdds: minOdds.value }),
    ...(race.promoName ? { promoName: race.promoName } : {}),
  });
};

export const RACING_COMPONENTS: Record<string, ComponentRoute<BettingDeps>> = {
  'race:pick': selectRoute(racePick),
  'race:stake': modalRoute(raceStake),
};
