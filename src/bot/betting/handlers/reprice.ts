import { MessageFlags } from 'discord.js';
import { getRef, putRef, type RefOwner } from '../../catalog/index.js';
import type { ComponentHandler } from '../../discord/component-handler.js';
import { type SlipPayload, type StoredStake, storedStakeCents } from '../../model/slip-rules.js';
import { UserFacingError } from '../../model/user-facing-error.js';
import type { ClosedSlipOptions } from '../views/slip.js';
import type { BettingDeps } from './deps.js';
import { postSlip } from './slip-post.js';

/** What "Bet again at the new price" needs to build a fresh slip: stored under a ref (custom ids are short). */
interface RepriceRef extends StoredStake {
  userId: string;
  epk: string;
  bookie: string;
  marketRef: string;
  /** The session the slip went through: the new slip goes through it too (absent in older refs). */
  sessionId?: string;
}

/**
 * The closed slip's options when a Confirm was refused because the price moved: a button that builds a new slip
 * for the same selection and stake at the live price. The new slip is price-checked and confirmed again.
 */
export async function priceMovedOptions(
  ctx: BettingDeps,
  slip: SlipPayload,
  userId: string,
  live: number,
  owner: RefOwner,
): Promise<ClosedSlipOptions> {
  const { epk, bookie, marketRef, stakeCents, sessionId } = slip;
  const ref: RepriceRef = { userId, epk, bookie, marketRef, stakeCents, sessionId };
  return { priceMoved: { slipId: await putRef(ctx.store, ref, owner), live } };
}

/** `slip:reprice:<ref>`: only the slip's owner may use it; anyone else is told so privately. */
export const slipReprice: ComponentHandler<BettingDeps> = async (interaction, [ref], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const found = ref ? await getRef<RepriceRef>(ctx.store, ref) : undefined;
  if (!found) throw new UserFacingError('This button is too old. Make a new slip with /bet.');
  if (found.userId !== interaction.user.id) {
    throw new UserFacingError(`This was <@${found.userId}>'s bet. Make your own with /bet.`);
  }
  await postSlip(ctx, interaction, {
    epk: found.epk,
    bookie: found.bookie,
    marketRef: found.marketRef,
    stakeCents: storedStakeCents(found),
    ...(found.sessionId ? { sessionId: found.sessionId } : {}),
  });
};
