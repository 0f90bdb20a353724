// Figure 6: a bet's job completed at the gateway → the slip message edited in Discord with the receipt,
// once with webhooks (callback_url set) and once by the batched poller alone. Real bot, sandbox, local Discord;
// the bets go through /bet and the slip's Confirm button as a user would. The floor path: the same bets placed
// straight through the API with callback_url at a bare receiver that verifies the signature, makes the delivery
// durable with one insert into SQLite on disk and edits the message through discord.js REST at once: what the
// webhook path is held to. The bot and the floor's receiver each run in a process of their own, started with npm
// start's node flags, while the sandbox and the local Discord (the gateway's and Discord's servers) share this one;
// the floor's bets are sent at the moments the desk's jobs were accepted and its jobs given the delays the desk's drew,
// so both receivers meet the same results at the same moments. Each side first places WARM bets the same way,
// unmeasured, and waits out their receipts; then BATCHES batches of BETS bets, each waited out before the next. The
// p50 and p99 are over every receipt of the batches (decision 2133: the p99 of one batch of 40 is its slowest
// receipt). Both sides must count a receipt for every bet of every batch, or the ratio is not read. A batch during
// which the stand-ins' process came back more than LATE_LIMIT_MS late is run again (at most TRIES runs). The floor's
// batches each begin once discord.js's rate-limit second of the last one's edits is over, and a floor whose REST held
// an edit for a rate limit reads no ratio.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type APIMessage, REST, Routes } from 'discord.js';
import { GatewayClient } from '../../src/gateway/index.js';
import { FIXTURE_IDS, type LocalMessage } from '../../src/local-discord/index.js';
import { type BetPick, betPicks } from '../lib/bet-picks.js';
import { type ChildBot, startChildBot, type TraceOptions } from '../lib/child-bot.js';
import { betIdOf, type Completions, watchCompletions } from '../lib/completion-watch.js';
import { type FigureResult, figure, notMeasured } from '../lib/figure.js';
import { startFloorChild } from '../lib/floor-child.js';
import { openBetting, SANDBOX_KEY, startStack, waitForBotReady } from '../lib/stack.js';
import { percentile } from '../lib/stats.js';
import { waitFor } from '../lib/wait.js';

const BETS = 40;
/** Batches of BETS bets each side places, measured: p99 over 200 receipts is their third slowest, not one event. */
const BATCHES = 5;
const WORKERS = 8;
/** The sandbox's speed on both sides: its job delays are sandbox ms, this many times the real ones. */
const SPEED = 4;
/**
 * Bets each side places first, unmeasured, and waits out (every job finished, every receipt edited): one per member.
 * A process's first receipts run code V8 has not compiled yet, and the p99 of 40 is decided by the slowest two; the
 * desk's first two once read 67 and 57 ms where its next were 16 and under.
 */
const WARM = WORKERS;
const USER = FIXTURE_IDS.users.bettor;
const CHANNEL = FIXTURE_IDS.channels.bets;

/** How often the stand-ins' event loop is looked at while a batch runs (a coarse look costs it next to nothing). */
const LATE_RESOLUTION_MS = 20;
/**
 * A batch during which the stand-ins' process (the sandbox and the local Discord, on every receipt's path) came back
 * later than this is run again, on either side: its slow receipts would be the stand-ins', not the receiver's. The
 * desk's batches read 5–19 ms and the floor's 1–10 ms in a typical run; the floor's stretches of 40–67 ms came with
 * a stand-in 44 ms late.
 */
const LATE_LIMIT_MS = 30;
/** Runs of one batch at most, the last kept whatever its lateness. */
const TRIES = 3;

/** One receipt: its job, its bet, when the sandbox finished the work and when the local Discord applied the edit. */
export interface Receipt {
  correlationId: string;
  betId: string;
  completedAt: number;
  editedAt: number;
  /** The message the edit was applied to. */
  messageId: string;
}

/** When the local Discord applied a receipt's edit, and to which message. */
interface Edited {
  at: number;
  messageId: string;
}

/** One batch: its receipts and how the gateway paced its jobs. */
interface Batch {
  ms: number[];
  receipts: Receipt[];
  placed: number;
  /** Jobs the sandbox accepted that had not finished when the run stopped waiting (30 s). */
  unfinished: number;
  /**
   * Each job in the order the sandbox accepted it: when, in ms after the first, and the real ms until its bookmaker
   * work started: the pace the floor's bets are placed at and their jobs delayed by.
   */
  schedule: { at: number; delayMs: number }[];
  /**
   * The most this process's event loop (the sandbox's and the local Discord's, on every receipt's path) came back
   * late while the batch ran, in ms at a 20 ms resolution: a slow stretch of receipts that coincides with it is the
   * stand-ins', not the receiver's.
   */
  harnessLateMs: number;
  /** How late the stand-ins were in each earlier run of this batch, run again for it (LATE_LIMIT_MS). */
  lateRuns: number[];
}

interface PathResult {
  batches: Batch[];
  /** Every batch's receipt times, in one list. */
  ms: number[];
  placed: number;
  unfinished: number;
  attempted: number;
  confirmed: number;
  slipFailures: string[];
  /** The floor's bets the bookmaker refused (their jobs finished with no bet id), each placed again: why. */
  refused?: string[];
  /** The desk's: the share of the measured batches' time its bot's event loop was busy (the floor's receiver idles). */
  loopBusy?: number;
  /** How often the floor's discord.js held an edit for a rate limit, and the longest wait (a floor has none). */
  rateLimits?: { count: number; longestMs: number };
}

function pathResult(batches: Batch[], attempted: number, confirmed: number, slipFailures: string[]): PathResult {
  return {
    batches,
    ms: batches.flatMap((b) => b.ms),
    placed: batches.reduce((a, b) => a + b.placed, 0),
    unfinished: batches.reduce((a, b) => a + b.unfinished, 0),
    attempted,
    confirmed,
    slipFailures,
  };
}

function confirmButton(messages: LocalMessage[]): { message: APIMessage; customId: string } | undefined {
  for (const message of messages) {
    for (const row of (message.components ?? []) as { components?: { label?: string; custom_id?: string }[] }[]) {
      const button = row.components?.find((c) => c.label === 'Confirm' && c.custom_id);
      if (button?.custom_id) return { message, customId: button.custom_id };
    }
  }
  return undefined;
}

/**
 * Runs `bet` for BETS picks, WORKERS at a time, then waits for every job the sandbox accepted to finish and every
 * placed bet's receipt edit: each receipt's time from the sandbox finishing the bookmaker work to the local Discord
 * applying the edit. (Waiting only for the edits of the jobs finished so far ended the floor's quiet run after 3:
 * its edits caught up before most jobs had finished.)
 */
async function runBets(
  drive: () => Promise<void>,
  completions: Completions,
  edited: Map<string, Edited>,
): Promise<Batch> {
  const late = monitorEventLoopDelay({ resolution: LATE_RESOLUTION_MS });
  late.enable();
  await drive();
  const placedIds = () =>
    [...completions].flatMap(([correlationId, c]) => {
      const id = betIdOf(c.result);
      return id ? [{ id, at: c.at, correlationId }] : [];
    });
  const unfinished = () => [...completions.submitted].filter((id) => !completions.has(id)).length;
  await waitFor(
    () => unfinished() === 0 && placedIds().every((p) => edited.has(p.id)),
    30_000,
    'every job finished and every receipt edited',
  ).catch(() => undefined);
  late.disable();
  const placed = placedIds();
  const receipts = placed.flatMap((p) => {
    const e = edited.get(p.id);
    return e === undefined
      ? []
      : [{ correlationId: p.correlationId, betId: p.id, completedAt: p.at, editedAt: e.at, messageId: e.messageId }];
  });
  const left = unfinished();
  const first = completions.submittedAt[0] ?? 0;
  const accepted = [...completions.submitted];
  const schedule = completions.submittedAt.map((at, i) => {
    const c = completions.get(accepted[i] ?? '');
    return { at: at - first, delayMs: c ? c.startedAt - at : 0 };
  });
  forget(completions, edited);
  return {
    ms: receipts.map((r) => r.editedAt - r.completedAt),
    receipts,
    placed: placed.length,
    unfinished: left,
    schedule,
    // The histogram holds whole intervals between its timer's turns: the lateness is what is past the resolution.
    harnessLateMs: Math.max(0, late.max / 1e6 - LATE_RESOLUTION_MS),
    lateRuns: [],
  };
}

/** The jobs and edits seen so far forgotten: the next batch counts only its own. */
function forget(completions: Completions, edited: Map<string, Edited>): void {
  completions.clear();
  completions.submitted.clear();
  completions.submittedAt.length = 0;
  edited.clear();
}

/**
 * `count` batches, each run and waited out before the next; `before(i)` runs ahead of each run of the i-th. A batch
 * the stand-ins were late in (LATE_LIMIT_MS) is run again, TRIES times at most.
 */
async function runBatches(
  count: number,
  drive: (i: number) => () => Promise<void>,
  completions: Completions,
  edited: Map<string, Edited>,
  before: (i: number) => void = () => {},
): Promise<Batch[]> {
  const batches: Batch[] = [];
  for (let i = 0; i < count; i++) {
    const lateRuns: number[] = [];
    for (;;) {
      before(i);
      const batch = await runBets(drive(i), completions, edited);
      if (batch.harnessLateMs <= LATE_LIMIT_MS || lateRuns.length + 1 >= TRIES) {
        batches.push({ ...batch, lateRuns });
        break;
      }
      lateRuns.push(batch.harnessLateMs);
    }
  }
  return batches;
}

/** `count` bets, `members` at a time, each going on as soon as its last is done. */
function byMembers(
  picks: BetPick[],
  bet: (pick: BetPick) => Promise<void>,
  count = BETS,
  members = WORKERS,
): () => Promise<void> {
  return async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: members }, async () => {
        for (let i = next++; i < count; i = next++) await bet(picks[i % picks.length]!);
      }),
    );
  };
}

/**
 * The unmeasured warm-up: WARM bets placed and waited out like the measured ones (runBets forgets them), so the
 * measured batches start with no job or edit of theirs in flight.
 */
async function warmUp(drive: () => Promise<void>, completions: Completions, edited: Map<string, Edited>) {
  await runBets(drive, completions, edited);
}

/** The i-th bet sent `schedule[i].at` ms after the first: the floor's gateway then takes its jobs at the desk's pace. */
function bySchedule(picks: BetPick[], schedule: Batch['schedule'], bet: (pick: BetPick) => Promise<void>) {
  return async () => {
    const start = performance.now();
    await Promise.all(
      Array.from({ length: BETS }, async (_, i) => {
        const wait = start + (schedule[i]?.at ?? 0) - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        await bet(picks[i % picks.length]!);
      }),
    );
  };
}

/** How a diagnosis runs the desk's path instead of as the figure does. */
export interface PathOptions {
  /** Batches measured (BATCHES). */
  batches?: number;
  /**
   * Members betting at once (WORKERS): a diagnosis of how the receipts' times follow the desk's load, never the
   * figure's reading.
   */
  members?: number;
  /** Extra node flags and the bot process's stdout (e.g. --trace-gc), and variables added to its environment. */
  trace?: TraceOptions & { env?: Record<string, string> };
}

/**
 * The desk's path. The bot runs in a process of its own, started as `npm start` starts it (the sandbox and the local
 * Discord, which stand for the gateway's and Discord's servers, stay in this one), as the floor's receiver does.
 */
export async function measurePath(webhook: boolean, opts: PathOptions = {}): Promise<PathResult> {
  const { trace } = opts;
  const batchCount = opts.batches ?? BATCHES;
  const stack = await startStack({
    webhook,
    startBotHere: false,
    sandbox: { speed: SPEED },
    env: { DEFAULT_MAX_STAKE_PER_DAY: '1000000', SLIP_EXPIRY_SECONDS: '600' },
  });
  let child: ChildBot | undefined;
  try {
    const { ld } = stack;
    child = await startChildBot({ ...stack.env, ...trace?.env }, 'bot', trace);
    await waitForBotReady(ld);
    await openBetting(ld);
    const picks = await betPicks(stack.sandbox.url, SANDBOX_KEY, 30);
    const completions = watchCompletions(stack.sandbox);
    const edited = new Map<string, Edited>();
    ld.events.on('messageUpdate', ({ message }: { message: LocalMessage }) => {
      const now = performance.now();
      const text = JSON.stringify([message.content, message.embeds]);
      for (const c of completions.values()) {
        const betId = betIdOf(c.result);
        if (betId && !edited.has(betId) && text.includes(betId)) edited.set(betId, { at: now, messageId: message.id });
      }
    });
    const slipFailures: string[] = [];
    const bet = async (pick: BetPick) => {
      const cmd = await ld.sendCommand({
        user: USER,
        channelId: CHANNEL,
        name: 'bet',
        options: { event: pick.epk, bookie: pick.bookie, market: pick.market, selection: pick.marketRef, stake: 2 },
      });
      await cmd.acknowledged;
      // A member looks again when a message changes, not every few ms: the waits add no work to this process, which
      // the sandbox and the local Discord share, between the changes they wait for.
      const posted = await ld
        .waitForMessage(
          CHANNEL,
          (m) => m.interaction_metadata?.id === cmd.id && confirmButton([m]) !== undefined,
          15_000,
        )
        .catch(() => undefined);
      const slip = posted && confirmButton([posted]);
      if (!slip) {
        const last = cmd.responses().at(-1);
        slipFailures.push(JSON.stringify(last?.embeds?.[0]?.description ?? last?.content ?? 'no slip').slice(0, 160));
        return;
      }
      const { message, customId } = slip;
      const click = await ld.clickButton({ user: USER, message: message.id, customId });
      await click.acknowledged;
      // The slip leaves its Confirm state once the bet is submitted (or refused): the flow is then done.
      await ld
        .waitForMessage(CHANNEL, (m) => m.id === message.id && confirmButton([m]) === undefined, 15_000)
        .catch(() => slipFailures.push('slip still asks to confirm after 15 s'));
      clicked++;
    };
    let clicked = 0;
    const members = opts.members ?? WORKERS;
    await warmUp(byMembers(picks, bet, WARM, members), completions, edited);
    clicked = 0;
    slipFailures.length = 0;
    const before = await child.loop();
    const batches = await runBatches(batchCount, () => byMembers(picks, bet, BETS, members), completions, edited);
    const after = await child.loop();
    const active = after.active - before.active;
    const loopBusy = active / (active + after.idle - before.idle);
    return { ...pathResult(batches, runsOf(batches) * BETS, clicked, slipFailures), loopBusy };
  } finally {
    await child?.stop();
    await stack.close();
  }
}

/**
 * The floor: a bare receiver in a process of its own (bench/children/floor-receiver.ts, started with npm start's node
 * flags) that verifies each delivery's signature, makes it durable with one insert into SQLite on disk (the desk's
 * table and settings: WAL, synchronous=NORMAL), answers 200 and edits the bet's message through discord.js REST at
 * once. This process places the same bets straight through the API and tells it which message each job edits.
 */
export async function measureFloor(paces: Batch['schedule'][]): Promise<PathResult> {
  const stack = await startStack({ webhook: true, startBotHere: false, sandbox: { speed: SPEED } });
  const client = new GatewayClient({ baseUrl: stack.sandbox.url, apiKey: SANDBOX_KEY });
  const rest = new REST({ api: stack.ld.apiUrl }).setToken(stack.ld.token);
  const floor = await startFloorChild({
    apiUrl: stack.ld.apiUrl,
    token: stack.ld.token,
    channelId: CHANNEL,
    secret: SANDBOX_KEY,
  });
  const failures: string[] = [];
  const rateLimits = { count: 0, longestMs: 0 };
  try {
    const { ld } = stack;
    const picks = await betPicks(stack.sandbox.url, SANDBOX_KEY, 30);
    const sessions = await client.sessions.list();
    const sessionOf = (bookie: string) => sessions.find((x) => x.bookie === bookie && x.active)?.session_id ?? '';
    const completions = watchCompletions(stack.sandbox);
    const edited = new Map<string, Edited>();
    ld.events.on('messageUpdate', ({ message }: { message: LocalMessage }) => {
      const now = performance.now();
      const m = /Placed · (\S+)/.exec(message.content ?? '');
      if (m?.[1] && !edited.has(m[1])) edited.set(m[1], { at: now, messageId: message.id });
      if (m) lastEditAt = now;
    });
    let lastEditAt = 0;
    let sent = 0;
    // The slips exist before the bets, as the desk's do (its slips are interaction replies, outside the REST
    // budget): then a second passes, so only the receipts' edits share discord.js's 50 requests a second. Each batch
    // edits the same BETS messages again (each receipt names its own bet, and a batch is waited out before the next):
    // the local Discord lets a channel have 5 posts each 5 s, as Discord does.
    const slips: string[] = [];
    for (let i = 0; i < BETS; i++) {
      slips.push(((await rest.post(Routes.channelMessages(CHANNEL), { body: { content: 'slip' } })) as APIMessage).id);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    let next = 0;
    const bet = async (pick: BetPick) => {
      const messageId = slips[next++ % BETS]!;
      try {
        const handle = await client.bets.place({
          session_id: sessionOf(pick.bookie),
          category: 'sports',
          sport: pick.sport,
          epk: pick.epk,
          market_ref: pick.marketRef,
          stake: 2,
          // Any live price is taken: a refusal has no receipt, and every one of the floor's bets must have one.
          target_odds: 1.01,
          callback_url: floor.url,
        });
        sent++;
        floor.message(handle.correlationId, messageId);
      } catch (err) {
        failures.push(String((err as Error).message).slice(0, 160));
      }
    };
    // A bet the bookmaker refuses has no receipt, and each batch must count BETS on both sides: each refused one
    // (once 4 of every 40, the cause not found) is placed again on another pick once the batch's jobs have finished.
    const refused: string[] = [];
    const seen = new Set<string>();
    let spare = 0;
    const placeAgain = async () => {
      for (let round = 0; round < 3; round++) {
        await waitFor(() => [...completions.submitted].every((id) => completions.has(id)), 30_000, 'jobs').catch(
          () => undefined,
        );
        const again = [...completions].filter(([id, c]) => !seen.has(id) && betIdOf(c.result) === undefined);
        if (again.length === 0) return;
        for (const [id, c] of again) {
          seen.add(id);
          refused.push(refusalOf(c.result));
        }
        await Promise.all(again.map(() => bet(picks[(BETS + spare++) % picks.length]!)));
      }
    };
    await warmUp(byMembers(picks, bet, WARM), completions, edited);
    sent = 0;
    failures.length = 0;
    refused.length = 0;
    const batches = await runBatches(
      paces.length,
      (i) => async () => {
        // discord.js lets 50 requests a second through and holds the rest until its second is over. A batch's 40
        // edits fit in one; a batch begun within a second of the last one's edits could share a second with them
        // and wait out its end. So each batch begins once the last edit's second is over.
        const quiet = lastEditAt + REST_SECOND_MS - performance.now();
        if (quiet > 0) await new Promise((resolve) => setTimeout(resolve, quiet));
        await bySchedule(picks, paces[i]!, bet)();
        await placeAgain();
      },
      completions,
      edited,
      // Each job's bookmaker work starts as long after it was accepted as the desk's job of the same place did.
      (i) => {
        completions.pace = paces[i]!.map((p) => Math.max(0, p.delayMs) * SPEED);
      },
    );
    return { ...pathResult(batches, runsOf(batches) * BETS, sent, failures), refused, rateLimits };
  } finally {
    const stopped = await floor.stop();
    failures.push(...stopped.problems);
    Object.assign(rateLimits, stopped.rateLimits);
    await client.close();
    await stack.close();
  }
}

function rows(path: 'webhook' | 'poll', r: PathResult): FigureResult[] {
  if (r.ms.length === 0) {
    throw new Error(
      `no receipt edit seen on the ${path} path (${r.placed} bets placed of ${r.attempted}; slip failures: ${r.slipFailures.slice(0, 2).join(' | ') || 'none'})`,
    );
  }
  const note = `${r.ms.length} receipts of ${r.placed} placed bets in ${r.batches.length} batch${r.batches.length === 1 ? '' : 'es'} (${r.unfinished} jobs unfinished after 30 s; ${r.attempted} slips via /bet, ${r.confirmed} confirmed, ${WORKERS} users at a time; bets refused at placement have no receipt; ${r.slipFailures.length} slips not shown${r.slipFailures[0] ? `: ${r.slipFailures[0]}` : ''}); from the sandbox finishing the bookmaker work to the local Discord applying the edit`;
  // No target is set for these: p99 is held to the 10 s a receipt may take before users doubt it.
  return [
    figure({
      name: `6 result latency ${path} p50`,
      value: percentile(r.ms, 50),
      unit: 'ms',
      baseline: null,
      target: { on: 'value', op: '<', limit: 10_000 },
      note,
    }),
    figure({
      name: `6 result latency ${path} p99`,
      value: percentile(r.ms, 99),
      unit: 'ms',
      baseline: null,
      target: { on: 'value', op: '<', limit: 10_000 },
      note,
    }),
  ];
}

/** discord.js's rate-limit second, with room: the floor's batches begin this long after the last edit. */
const REST_SECOND_MS = 1_100;

const FLOOR_ROW = {
  name: '6 result latency webhook p99 vs its floor',
  unit: 'ms',
  target: { on: 'ratio', op: '<=', limit: 1.5 },
} as const;

/**
 * The five slowest receipts as "ms@b.n" (b: the batch; n: the receipt's place in the order the gateway finished the
 * batch's jobs).
 */
function slowest(r: PathResult): string {
  return r.batches
    .flatMap((batch, b) =>
      [...batch.receipts]
        .sort((x, y) => x.completedAt - y.completedAt)
        .map((x, i) => ({ ms: x.editedAt - x.completedAt, n: `${b + 1}.${i + 1}` })),
    )
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map((x) => `${x.ms.toFixed(0)}@${x.n}`)
    .join(' ');
}

function floorRow(desk: PathResult, floor: PathResult): FigureResult {
  // A ratio over fewer receipts than bets compares different things (once: the floor's 3 against the desk's 40).
  const short = (
    [
      ['the desk', desk],
      ['the floor', floor],
    ] as const
  ).filter(([, r]) => r.batches.length !== BATCHES || r.batches.some((b) => b.ms.length < BETS));
  const held = floor.rateLimits;
  if (held && held.count > 0) {
    const why = `the floor's discord.js held ${held.count} edit${held.count === 1 ? '' : 's'} for a rate limit (the longest ${held.longestMs.toFixed(0)} ms): a floor that waits on a limit is not a floor`;
    return notMeasured(FLOOR_ROW.name, FLOOR_ROW.unit, FLOOR_ROW.target, why);
  }
  if (short.length > 0) {
    const why = short
      .map(
        ([who, r]) =>
          `${who} counted ${r.batches.map((b) => b.ms.length).join(', ') || 'no'} receipts in ${r.batches.length} batches of ${BETS} bets (${r.placed} placed, ${r.unfinished} jobs unfinished after 30 s${r.refused?.length ? `, ${r.refused.length} refused by the bookmaker: ${r.refused[0]}` : ''}${r.slipFailures[0] ? `; ${r.slipFailures[0]}` : ''})`,
      )
      .join('; ');
    return notMeasured(FLOOR_ROW.name, FLOOR_ROW.unit, FLOOR_ROW.target, why);
  }
  const deskP99 = percentile(desk.ms, 99);
  const floorP99 = percentile(floor.ms, 99);
  return figure({
    ...FLOOR_ROW,
    value: deskP99,
    baseline: floorP99,
    note: `floor: the same ${BATCHES} batches of ${BETS} bets placed through the API at the moments the desk's jobs were accepted, each job's bookmaker work delayed as the desk's was, with callback_url at a bare receiver in a process of its own (npm start's node flags, as the desk's bot) that verifies the signature, makes the delivery durable with one insert into SQLite on disk (WAL, synchronous=NORMAL) and edits the message through discord.js REST at once: p50 ${percentile(floor.ms, 50).toFixed(1)} ms, p99 ${floorP99.toFixed(1)} ms over ${floor.ms.length} receipts of ${floor.placed} placed (${floor.unfinished} jobs unfinished; no edit held for a rate limit; each batch begun once the last edit's second was over; ${floor.refused?.length ?? 0} refused by the bookmaker and placed again on another pick${floor.refused?.[0] ? `, the first: ${floor.refused[0]}` : ''}); the desk: p50 ${percentile(desk.ms, 50).toFixed(1)} ms, p99 ${deskP99.toFixed(1)} ms over ${desk.ms.length} receipts; each batch's p99 (its slowest), desk ${batchMaxes(desk)}, floor ${batchMaxes(floor)}; each side's slowest five as ms@batch.place in the order the batch's results came: desk ${slowest(desk)}, floor ${slowest(floor)}; the desk's bot's event loop busy ${desk.loopBusy === undefined ? '-' : desk.loopBusy.toFixed(2)} of the measured batches' time (${WORKERS} members betting at once; the floor's receiver idles meanwhile); the stand-ins' process (the sandbox and the local Discord) late at most in each batch, ms: desk ${harnessLate(desk)}, floor ${harnessLate(floor)}; batches run again because the stand-ins were late over ${LATE_LIMIT_MS} ms (the run's lateness, ms): desk ${runsAgain(desk)}, floor ${runsAgain(floor)}`,
  });
}

/** What a refused bet's result says (its error), shortened. */
function refusalOf(result: unknown): string {
  const r = result as { error?: unknown; bet_result?: { error?: unknown } } | undefined;
  return String(r?.bet_result?.error ?? r?.error ?? JSON.stringify(result)).slice(0, 120);
}

const batchMaxes = (r: PathResult) => r.batches.map((b) => percentile(b.ms, 99).toFixed(0)).join('/');
/** Batches run, the ones run again for the stand-ins' lateness included. */
const runsOf = (batches: Batch[]) => batches.reduce((n, b) => n + 1 + b.lateRuns.length, 0);
const harnessLate = (r: PathResult) => r.batches.map((b) => b.harnessLateMs.toFixed(0)).join('/');
/** The batches run again, as "batch N lateness" (the note's list). */
const runsAgain = (r: PathResult) => {
  const runs = r.batches.flatMap((b, i) => b.lateRuns.map((ms) => `batch ${i + 1} ${ms.toFixed(0)}`));
  return runs.length === 0 ? 'none' : runs.join(', ');
};

export async function resultLatency(): Promise<FigureResult[]> {
  const viaWebhook = await measurePath(true);
  const floor = await measureFloor(viaWebhook.batches.map((b) => b.schedule));
  // The poll path has no floor to meet: one batch tells its p50 and p99.
  const viaPoll = await measurePath(false, { batches: 1 });
  return [...rows('webhook', viaWebhook), floorRow(viaWebhook, floor), ...rows('poll', viaPoll)];
}
