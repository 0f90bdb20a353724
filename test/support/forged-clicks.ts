import type { APIUser } from 'discord.js';
import { putRef } from '../../src/bot/catalog/refs.js';
import { chainStaged } from '../../src/bot/ledger/index.js';
import type { InteractionHandle, LocalMessage } from '../../src/local-discord/index.js';
import { until } from '../support/wait.js';
import { type BettableSelection, pickEvent } from './flows.js';
import type { Desk } from './harness.js';
import { customIdsOf, textOf } from './messages.js';

/** A real control of the bot for one custom-id scope, and the message it was shown on. */
export interface ScopeControl {
  scope: string;
  customId: string;
  kind: 'button' | 'select' | 'modal';
  values?: string[];
  fields?: Record<string, string>;
  message: LocalMessage;
  /** The record has a message of its own (a slip, a proposal): a click on another message must be refused. */
  messageBound: boolean;
}

/** Every component scope the bot answers (src/bot/owners.ts); each gets a forged click below. */
export const SCOPES = ['ev', 'card', 'slip', 'prop', 'cmp', 'race', 'promo'] as const;

async function reply(desk: Desk, handle: InteractionHandle, what: string, match: (m: LocalMessage) => boolean) {
  return until(what, () => [...handle.responses(), ...desk.ld.messages(desk.ld.channelIds.bets)].find(match), {
    timeoutMs: 30_000,
  });
}

const hasId = (prefix: string) => (m: LocalMessage) => customIdsOf(m).some((id) => id.startsWith(prefix));

/**
 * One real control per scope, each made the way a member makes it in #bets: /events, /markets, a /bet slip under
 * the first tier, a /bet proposal above it, /compare, /price racing and /promos. The desk must have the tiers set
 * (`proposalStake` above t1, `slipStake` under it).
 */
export async function scopeControls(
  desk: Desk,
  input: { sel: BettableSelection; slipStake: number; proposalStake: number },
): Promise<ScopeControl[]> {
  const { ld } = desk;
  const user = ld.users.bettor;
  const channelId = ld.channelIds.bets;
  const run = (name: string, options: Record<string, string | number>, subcommand?: string) =>
    ld.sendCommand({ user, channelId, name, options, ...(subcommand ? { subcommand } : {}) });
  const out: ScopeControl[] = [];
  const add = (scope: string, message: LocalMessage, extra: Partial<ScopeControl> = {}) => {
    const customId = customIdsOf(message).find((id) => id.startsWith(`v1:${scope}:`));
    if (!customId) throw new Error(`no ${scope} control on ${textOf(message)}`);
    out.push({ scope, customId, kind: 'button', message, messageBound: false, ...extra });
  };

  // The sandbox lists at most ten events a league a day, so /events shows no pager: its Prev/Next id is made as the
  // command makes it, from a listing ref owned by #bets.
  const listing = await reply(desk, await run('events', { league: 'nba' }), 'the /events reply', (m) =>
    /NBA|nba/.test(textOf(m)),
  );
  const listRef = await putRef(
    desk.bot.store,
    { league: 'nba', day: new Date().toISOString().slice(0, 10), timezone: 'UTC' },
    { guildId: ld.guildId, channelId },
  );
  out.push({ scope: 'ev', customId: `v1:ev:page:${listRef}:1`, kind: 'button', message: listing, messageBound: false });

  const markets = await run('markets', { event: input.sel.epk, bookie: input.sel.bookie });
  const card = await reply(desk, markets, 'the market card', hasId('v1:card:open:'));
  const open = customIdsOf(card).find((id) => id.startsWith('v1:card:open:')) as string;
  out.push({ scope: 'card', customId: open, kind: 'select', values: ['0'], message: card, messageBound: false });
  // The stake form of a pick on that card, submitted as a modal (slip:stake:<card ref>:<market>:<selection>).
  const cardRef = open.split(':')[3] as string;
  out.push({
    scope: 'slip',
    customId: `v1:slip:stake:${cardRef}:0:0`,
    kind: 'modal',
    fields: { stake: '5', min_odds: '1.01' },
    message: card,
    messageBound: false,
  });

  const betOptions = (stake: number) => ({
    event: input.sel.epk,
    bookie: input.sel.bookie,
    market: input.sel.market,
    selection: input.sel.marketRef,
    stake,
  });
  const bet = await run('bet', betOptions(input.slipStake));
  const slip = await reply(
    desk,
    bet,
    'the slip',
    (m) => m.visibleTo === null && hasId('v1:slip:confirm:')(m) && (m.content ?? '').includes(user.id),
  );
  add('slip', slip, { messageBound: true });

  const propose = await run('bet', betOptions(input.proposalStake));
  const proposal = await reply(desk, propose, 'the proposal', (m) => m.visibleTo === null && hasId('v1:prop:')(m));
  add('prop', proposal, { messageBound: true });

  const compare = await run('compare', { event: input.sel.epk, market: input.sel.market });
  add('cmp', await reply(desk, compare, 'the comparison', hasId('v1:cmp:')));

  const price = await run('price', { track: 'Flemington', race: 1 }, 'racing');
  const board = await reply(desk, price, 'the race prices', hasId('v1:race:pick:'));
  add('race', board, { kind: 'select', values: ['0'] });

  const promos = await run('promos', {});
  const inbox = await reply(desk, promos, 'the promo inbox', (m) => hasId('v1:promo:')(m));
  const promoId = customIdsOf(inbox).find((id) => id.startsWith('v1:promo:')) as string;
  add('promo', inbox, promoId.startsWith('v1:promo:pick') ? { kind: 'select', values: ['0'] } : {});
  return out;
}

/** What the desk has done with money: the sandbox's bets, the ledger, and the proposals' approvals. */
export async function moneyTrail(desk: Desk): Promise<string> {
  const bets = (await desk.control.state()).bets.length;
  const store = desk.bot.store;
  await chainStaged(store); // as every read of the ledger does (decision 2131)
  const ledger = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM ledger');
  const approvals = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM approvals');
  const states = await store.query<{ state: string }>('SELECT state FROM proposals ORDER BY proposal_id');
  const slips = await store.query<{ n: number }>('SELECT COUNT(*) AS n FROM slips');
  return JSON.stringify({
    bets,
    ledger: Number(ledger[0]?.n),
    approvals: Number(approvals[0]?.n),
    proposals: states.map((s) => s.state),
    slips: Number(slips[0]?.n),
  });
}

/** Sends the control's custom id from `channelId` (another server's, or another channel) and returns the answer. */
export async function forgedAnswer(
  desk: Desk,
  user: APIUser,
  c: ScopeControl,
  where: { channelId: string; messageId?: string },
): Promise<string> {
  const handle = desk.ld.forgeComponent({
    user,
    channelId: where.channelId,
    customId: c.customId,
    kind: c.kind,
    ...(c.values ? { values: c.values } : {}),
    ...(c.fields ? { fields: c.fields } : {}),
    ...(where.messageId ? { messageId: where.messageId } : {}),
  });
  const answer = await until(
    `the answer to a forged ${c.customId}`,
    () => handle.responses().find((m) => m.visibleTo === user.id && textOf(m) !== ''),
    { timeoutMs: 15_000 },
  );
  return textOf(answer);
}

export { pickEvent };
