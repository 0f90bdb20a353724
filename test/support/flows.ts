import type { APIUser } from 'discord.js';
import { formatMoney, parseCents } from '../../src/bot/model/money.js';
import { GatewayClient } from '../../src/gateway/index.js';
import type { InteractionHandle, LocalMessage } from '../../src/local-discord/index.js';
import { DRIFT_STEP_MS } from '../../src/sandbox/world/drift.js';
import type { Desk } from './harness.js';
import { API_KEY } from './harness.js';
import { ackTime, findControl, responseMatching, textOf } from './messages.js';
import { until } from './wait.js';

/** What a user did and saw; every interaction's acknowledgement time is kept for the < 3 s check. */
export interface Trail {
  acks: number[];
}

export const newTrail = (): Trail => ({ acks: [] });

/**
 * Moves the sandbox clock past its next natural price step when that step is under `windowMs` away, so prices
 * move only when the test moves them (a step can shift a price by up to 5 %, beyond the desk's tolerance).
 */
export async function steadyPrices(desk: Desk, windowMs = 2 * 60_000): Promise<void> {
  const now = await desk.advance(1);
  const toNextStep = DRIFT_STEP_MS - ((now - desk.sandbox.sb.world.priceEpochMs) % DRIFT_STEP_MS);
  if (toNextStep < windowMs) await desk.advance(toNextStep + 1_000);
}

async function acked(trail: Trail, handle: InteractionHandle): Promise<InteractionHandle> {
  trail.acks.push(await ackTime(handle));
  return handle;
}

/** The option of a registered command whose name matches (the tests follow the bot's own naming). */
export function optionName(desk: Desk, command: string, match: RegExp): string {
  const cmd = desk.ld.commands().find((c) => c.name === command);
  if (!cmd) throw new Error(`/${command} is not registered`);
  const opt = ((cmd.options ?? []) as Array<{ name: string }>).find((o) => match.test(o.name));
  if (!opt) throw new Error(`/${command} has no option matching ${match}`);
  return opt.name;
}

/** A prematch event of today or tomorrow with a bound bookie_a card, read from the sandbox like any client. */
export interface BettableSelection {
  epk: string;
  name: string;
  bookie: string;
  market: string;
  marketRef: string;
  label: string;
  /** Scheduled start (epoch ms). */
  startsAt: number;
}

/** `minMarkets`: only a card with more markets than that (the bot shows ten a page; 11 makes it page). */
export async function pickEvent(desk: Desk, league = 'nba', skip = 0, minMarkets = 0): Promise<BettableSelection> {
  const client = new GatewayClient({ baseUrl: desk.sandbox.url, apiKey: API_KEY, poller: { now: desk.now } });
  try {
    const page = await client.events.list({ league, status: 'prematch', limit: 50 });
    for (const e of page.data) {
      if (!e.books?.includes('bookie_a')) continue;
      const card = await client.markets.get({ epk: e.event_id, bookie: 'bookie_a' });
      if (!card.bound || !card.market_ref_betting_enabled || card.markets.length < minMarkets) continue;
      const market = card.markets.find((m) => m.selections.some((x) => x.bettable && x.market_ref));
      const sel = market?.selections.find((x) => x.bettable && x.market_ref);
      if (!market || !sel?.market_ref) continue;
      if (skip-- > 0) continue;
      return {
        epk: e.event_id,
        name: e.name,
        bookie: 'bookie_a',
        market: market.market,
        marketRef: sel.market_ref,
        label: sel.label,
        startsAt: Date.parse(e.start_time),
      };
    }
  } finally {
    await client.close();
  }
  throw new Error(`no prematch ${league} event with a bettable bookie_a card in the sandbox`);
}

/** The slips each desk's betSlip has already handed out (message ids are one local Discord's own). */
const seenSlips = new WeakMap<Desk, Set<string>>();

/** /bet with every option given (as autocomplete would fill them): the public slip with Confirm/Cancel. */
export async function betSlip(
  desk: Desk,
  trail: Trail,
  input: { user: APIUser; sel: BettableSelection; stake: number; timeoutMs?: number },
): Promise<SlipShown> {
  const handle = await acked(
    trail,
    await desk.ld.sendCommand({
      user: input.user,
      channelId: desk.ld.channelIds.bets,
      name: 'bet',
      options: {
        event: input.sel.epk,
        bookie: input.sel.bookie,
        market: input.sel.market,
        selection: input.sel.marketRef,
        stake: input.stake,
      },
    }),
  );
  // The slip is a public follow-up; look for it among the responses and in the channel. A refusal (the
  // placeholder edited to an error) ends the wait at once instead of running out the clock.
  // The stake tells this slip from the same member's other slips posted at the same time.
  const stakeShown = new RegExp(
    `(^|[^0-9.,])${formatMoney(parseCents(input.stake) ?? 0).replace(/[$.]/g, '\\$&')}($|[^0-9])`,
  );
  const seen = seenSlips.get(desk) ?? new Set<string>();
  seenSlips.set(desk, seen);
  const isSlip = (m: LocalMessage) =>
    /Bet slip/.test(textOf(m)) &&
    (m.content ?? '').includes(input.user.id) &&
    stakeShown.test(textOf(m)) &&
    !seen.has(m.id);
  const found = await until(
    'the bet slip',
    () => {
      const slip = [...handle.responses(), ...desk.ld.messages(desk.ld.channelIds.bets)].find(isSlip);
      if (slip) return { slip };
      const refusal = handle.responses().find((m) => {
        const t = textOf(m);
        return t !== '' && !/Bet slip|posted below/.test(t);
      });
      return refusal ? { refusal: textOf(refusal), slip: undefined } : undefined;
    },
    { timeoutMs: input.timeoutMs ?? 20_000 },
  ).catch(async () => ({ slip: await responseMatching(handle, /Bet slip/, 1) }));
  if (!found.slip) throw new SlipRefusedError('refusal' in found ? found.refusal : '');
  const { slip } = found;
  seen.add(slip.id);
  return { slip, handle };
}

/** The bot answered /bet with a reason instead of a slip (the user was told why). */
export class SlipRefusedError extends Error {
  constructor(readonly reply: string) {
    super(`the bot refused the slip: ${JSON.stringify(reply)}`);
    this.name = 'SlipRefusedError';
  }
}

export interface SlipShown {
  slip: LocalMessage;
  /** The interaction whose response the slip is (edits of it are the result). */
  handle: InteractionHandle;
}

/**
 * /markets → open the first market → pick its first selection → enter the stake in the modal → the slip
 * with Confirm/Cancel. Returns the slip message as the user sees it.
 */
export async function openSlip(
  desk: Desk,
  trail: Trail,
  input: { user: APIUser; epk: string; bookie: string; stake: string },
): Promise<SlipShown> {
  const { ld } = desk;
  const channelId = ld.channelIds.bets;
  const markets = await acked(
    trail,
    await ld.sendCommand({
      user: input.user,
      channelId,
      name: 'markets',
      options: {
        [optionName(desk, 'markets', /event/)]: input.epk,
        [optionName(desk, 'markets', /book/)]: input.bookie,
      },
    }),
  );
  const card = await until('the market card with a market menu', () =>
    markets.responses().find((m) => findControl(m, /card:open/) !== undefined),
  );
  const open = findControl(card, /card:open/)!;
  const marketHandle = await acked(
    trail,
    await ld.selectMenu({
      user: input.user,
      message: card.id,
      customId: open.customId,
      values: [open.options![0]!.value],
    }),
  );
  const market = await until('the market view with a selection menu', () =>
    [...marketHandle.responses(), ...ld.messages(channelId, { viewer: input.user.id })].find(
      (m) => findControl(m, /card:pick/) !== undefined,
    ),
  );
  const pick = findControl(market, /card:pick/)!;
  const modal = waitForModal(desk, input.user.id);
  const pickHandle = await acked(
    trail,
    await ld.selectMenu({
      user: input.user,
      message: market.id,
      customId: pick.customId,
      values: [pick.options![0]!.value],
    }),
  );
  const opened = await modal;
  const slipHandle = await acked(
    trail,
    await ld.submitModal({
      user: input.user,
      channelId,
      customId: opened.customId,
      fields: { [opened.stakeField]: input.stake },
    }),
  );
  void pickHandle;
  const slip = await responseMatching(slipHandle, /Bet slip|confirm|limit|stake|not|refused/i, 20_000);
  return { slip, handle: slipHandle };
}

/** The modal the bot opens next for `userId`: its custom id and the text input that takes the stake. */
export function waitForModal(
  desk: Pick<Desk, 'ld'>,
  userId: string,
  timeoutMs = 10_000,
): Promise<{ customId: string; stakeField: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      desk.ld.events.off('modal', listener);
      reject(new Error(`the bot opened no modal for ${userId} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (e: { userId: string; modal: Record<string, unknown> }) => {
      if (e.userId !== userId) return;
      clearTimeout(timer);
      desk.ld.events.off('modal', listener);
      const inputs: Array<{ custom_id: string; label?: string }> = [];
      const walk = (items: unknown[]) => {
        for (const c of items as Array<Record<string, unknown>>) {
          if (c.type === 4 && typeof c.custom_id === 'string') inputs.push(c as { custom_id: string; label?: string });
          if (Array.isArray(c.components)) walk(c.components);
          if (c.component && typeof c.component === 'object') walk([c.component]);
        }
      };
      walk((e.modal.components ?? []) as unknown[]);
      const stake = inputs.find((i) => /stake/i.test(`${i.custom_id} ${i.label ?? ''}`)) ?? inputs[0];
      if (!stake) return reject(new Error('the modal has no text input for the stake'));
      resolve({ customId: String(e.modal.custom_id), stakeField: stake.custom_id });
    };
    desk.ld.events.on('modal', listener);
  });
}

/** Presses a button of the slip (Confirm or Cancel) as `user`. */
export async function press(
  desk: Desk,
  trail: Trail,
  user: APIUser,
  slip: LocalMessage,
  label: RegExp,
): Promise<InteractionHandle> {
  const control = findControl(slip, label);
  if (!control) throw new Error(`the slip has no button matching ${label}: ${textOf(slip)}`);
  return acked(trail, await desk.ld.clickButton({ user, message: slip.id, customId: control.customId }));
}

/** The current state of a message as users see it. */
export function current(desk: Desk, message: LocalMessage): LocalMessage {
  const m = desk.ld.message(message.id);
  if (!m) throw new Error(`message ${message.id} is gone`);
  return m;
}

/** Waits until the message's text matches (an edit by the bot). */
export function messageMatching(
  desk: Desk,
  message: LocalMessage,
  match: RegExp,
  timeoutMs = 15_000,
): Promise<LocalMessage> {
  return until(
    `message ${message.id} to match ${match}`,
    () => {
      const m = desk.ld.message(message.id);
      return m && match.test(textOf(m)) ? m : undefined;
    },
    { timeoutMs, seen: () => `it reads: ${JSON.stringify(textOf(desk.ld.message(message.id)))}` },
  );
}
