// Who owns the record behind each custom-id scope: the component guard checks every click against it.

import { ProposalRepo } from './betting/proposals.js';
import { SlipRepo } from './betting/slips.js';
import { refOwner } from './catalog/refs.js';
import type { BotContext } from './context.js';
import type { ComponentOwner, OwnerLookup as DiscordOwnerLookup } from './discord/component-guard.js';

type OwnerLookup = DiscordOwnerLookup<BotContext>;

import { FundRepo } from './fund/fund-repo.js';
import { watchOwner } from './watch/handlers/watch.js';

/** Scopes whose first argument is a stored ref (a listing, a card, a comparison, race prices, a promo inbox). */
const byRef: OwnerLookup = (_action, [ref], ctx) => (ref ? refOwner(ctx.store, ref) : Promise.resolve(undefined));

const where = (r: { guildId: string | null; channelId: string; messageId: string | null }): ComponentOwner => ({
  guildId: r.guildId,
  channelId: r.channelId,
  messageId: r.messageId,
});

/** slip:confirm and slip:cancel name a slip (its server, channel and message); slip:stake a card, slip:reprice a ref. */
const slipOwner: OwnerLookup = async (action, args, ctx) => {
  if (action === 'stake' || action === 'reprice') return byRef(action, args, ctx);
  const slip = args[0] ? await new SlipRepo(ctx.store).get(args[0]) : undefined;
  return slip ? where(slip) : undefined;
};

const proposalOwner: OwnerLookup = async (_action, [proposalId], ctx) => {
  const p = proposalId ? await new ProposalRepo(ctx.store).get(proposalId) : undefined;
  return p ? where(p) : undefined;
};

const fundOwner: OwnerLookup = async (_action, [cashoutId], ctx) => {
  const where = cashoutId ? await new FundRepo(ctx.store).cashoutWhere(cashoutId) : undefined;
  return where?.channelId
    ? { guildId: where.guildId, channelId: where.channelId, messageId: where.messageId }
    : undefined;
};

/** Every component scope the bot answers; a scope missing here is refused by the router. */
export const COMPONENT_OWNERS: Record<string, OwnerLookup> = {
  ev: byRef,
  card: byRef,
  slip: slipOwner,
  prop: proposalOwner,
  cmp: byRef,
  race: byRef,
  promo: byRef,
  fund: fundOwner,
  watch: watchOwner,
};
