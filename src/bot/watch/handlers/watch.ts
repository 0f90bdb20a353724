// Handlers of a watch alert (`watch:*` custom ids): its Bet button opens an ordinary slip at the alerted book and
// price, through the same gate, stake form and slip factory as /markets and /bet; at a book that refuses the
// event's sport, at the best book that takes it (decision 1996).
import { MessageFlags, ModalBuilder, type ModalSubmitInteraction } from 'discord.js';
import {
  checkBettable,
  minOddsField,
  postSlip,
  readMinOdds,
  readStake,
  stakeField,
  suggestedStakeFor,
} from '../../betting/index.js';
import { type ComponentOwner, type OwnerLookup, ownerRecord } from '../../discord/component-guard.js';
import {
  buttonRoute,
  type ComponentHandler,
  type ComponentInteraction,
  type ComponentRoute,
  modalRoute,
} from '../../discord/component-handler.js';
import { encodeCustomId } from '../../discord/custom-id.js';
import { replyEphemeral } from '../../discord/interact.js';
import { formatOdds } from '../../model/odds.js';
import { SportNotTakenError, UserFacingError } from '../../model/user-facing-error.js';
import { alertStakeTitle } from '../views/watch.js';
import type { StoredAlert } from '../watches-repo.js';
import type { WatchDeps } from './deps.js';

async function alertOf(
  ctx: WatchDeps,
  interaction: ComponentInteraction,
  alertId: string | undefined,
): Promise<StoredAlert & { marketRef: string }> {
  // The guard's owner lookup read the alert already for this click: read it once.
  const read = ownerRecord<StoredAlert>(interaction);
  const alert = read?.alertId === alertId ? read : alertId ? await ctx.watch.repo.alert(alertId) : undefined;
  const marketRef = alert?.payload.marketRef;
  if (!alert || !marketRef) {
    throw new UserFacingError('This alert has no bet to open any more. Run /markets to pick the selection.');
  }
  return { ...alert, marketRef };
}

/**
 * A personal alert's Bet button is its member's: anyone else is told whose alert it is (a server rule's alert, with
 * no member, stays open to every bettor). Checked again at the stake form, which a modified client can submit alone.
 */
function mustOwn(alert: StoredAlert, userId: string): void {
  const owner = alert.payload.userId;
  if (owner && owner !== userId) {
    throw new UserFacingError(
      `This is <@${owner}>'s alert: only they can bet from it. For your own alerts use /watch; to bet now, /bet.`,
    );
  }
}

/** Bet on an alert: the stake form first (a modal must be the first answer), refused before it when betting is closed. */
export const watchBet: ComponentHandler<WatchDeps> = async (interaction, [alertId], ctx) => {
  if (!interaction.isButton()) return;
  const gate = await checkBettable(ctx, interaction);
  const alert = await alertOf(ctx, interaction, alertId);
  mustOwn(alert, interaction.user.id);
  const { epk, bookie, price, fairProbability } = alert.payload;
  // Sized from the fair price the alert showed, so the form agrees with it; from the cached cards when it showed
  // none (or was stored before alerts kept it).
  const suggested = await suggestedStakeFor(ctx, gate, {
    epk,
    bookie,
    marketRef: alert.marketRef,
    odds: price,
    ...(typeof fairProbability === 'number' ? { fairProbability } : {}),
  });
  // A book known to refuse the sport: the form says the bet goes to the best book that takes it.
  const title = (await refusesSport(ctx, epk, bookie))
    ? `Stake: best book (${bookie} takes none)`
    : alertStakeTitle(alert.payload);
  const modal = new ModalBuilder()
    .setCustomId(encodeCustomId('watch', 'stake', alert.alertId))
    .setTitle(title)
    .addComponents(stakeField(suggested), minOddsField(formatOdds(price)));
  await interaction.showModal(modal);
};

/** /bet without a bookie: the slip at the best live price among the books that take the bet (betting's handler). */
export type BestPriceSlip = (
  ctx: WatchDeps,
  interaction: ModalSubmitInteraction,
  q: { epk: string; market: string; selection: string; stakeCents: number; minOdds?: number },
) => Promise<void>;

/**
 * The stake form of an alert: an ordinary slip at the alert's book; its price is checked again as any slip's is.
 * At a book that refuses the event's sport, the slip goes to the best book that takes it (`postBestPriceSlip`, handed
 * in by the composition: the bet wing's face does not carry its routing handler).
 */
const watchStake =
  (postBestPriceSlip: BestPriceSlip): ComponentHandler<WatchDeps> =>
  async (interaction, [alertId], ctx) => {
    if (!interaction.isModalSubmit()) return;
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const alert = await alertOf(ctx, interaction, alertId);
    mustOwn(alert, interaction.user.id);
    const stake = readStake(interaction);
    if (!stake.ok) return replyEphemeral(interaction, stake.message);
    const minOdds = readMinOdds(interaction, formatOdds(alert.payload.price));
    if (!minOdds.ok) return replyEphemeral(interaction, minOdds.message);
    const { epk, bookie, market, selection } = alert.payload;
    const odds = minOdds.value === undefined ? {} : { minOdds: minOdds.value };
    if (!(await refusesSport(ctx, epk, bookie))) {
      try {
        await postSlip(ctx, interaction, { epk, bookie, marketRef: alert.marketRef, stakeCents: stake.cents, ...odds });
        return;
      } catch (err) {
        // The book answered that it takes no bets on the sport: the same press goes on to a book that does.
        if (!(err instanceof SportNotTakenError)) throw err;
      }
    }
    // The best live price among the books that take it; the slip names the alert's book as left out, and why.
    await postBestPriceSlip(ctx, interaction, { epk, market, selection, stakeCents: stake.cents, ...odds });
  };

/** Whether the desk has heard the alert's book refuse the event's sport lately (decision 1996). */
async function refusesSport(ctx: WatchDeps, epk: string, bookie: string): Promise<boolean> {
  const sport = (await ctx.catalog.event(epk))?.sport ?? epk.split('/')[0] ?? '';
  return (await ctx.accounts.booksNotTaking(sport)).has(bookie);
}

export function watchComponents(postBestPriceSlip: BestPriceSlip): Record<string, ComponentRoute<WatchDeps>> {
  return {
    'watch:bet': buttonRoute(watchBet),
    'watch:stake': modalRoute(watchStake(postBestPriceSlip)),
  };
}

/** An alert's controls belong to the server and channel it was posted in. */
export const watchOwner: OwnerLookup<WatchDeps> = async (
  _action,
  [alertId],
  ctx,
): Promise<ComponentOwner | undefined> => {
  const alert = alertId ? await ctx.watch.repo.alert(alertId) : undefined;
  return alert ? { guildId: alert.guildId, channelId: alert.channelId, record: alert } : undefined;
};
