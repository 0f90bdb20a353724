import type { ButtonInteraction, ChatInputCommandInteraction, ModalSubmitInteraction } from 'discord.js';
import type { SlipRequest } from './bet-service.js';
import type { BotContext } from './context.js';
import { dayIn } from './dates.js';
import { BetRecordRepo } from './repos/bet-records.js';
import type { SlipRecord } from './repos/slips.js';
import { getSettings, stakeLimits } from './settings.js';
import { checkDailyRoom, checkStake, type SlipPayload } from './slip-rules.js';
import { UserFacingError } from './user-errors.js';
import { slipView } from './views/slip.js';

/** Only members with the bet role (when one is set) may start or confirm bets. */
export async function assertMayBet(ctx: BotContext, interaction: { guildId: string | null; member: unknown }) {
  const settings = await getSettings(ctx.store, interaction.guildId);
  if (!settings.betRoleId) return;
  const member = interaction.member as { roles?: string[] | { cache?: Map<string, unknown> } } | null;
  const roles = Array.isArray(member?.roles) ? member.roles : [...(member?.roles?.cache?.keys() ?? [])];
  if (!roles.includes(settings.betRoleId)) {
    throw new UserFacingError(`Betting here needs the <@&${settings.betRoleId}> role. Ask a server admin.`);
  }
}

/** A stake that would pass today's limit is refused before any price check or slip. */
async function assertDailyRoom(ctx: BotContext, guildId: string | null, userId: string, stake: number) {
  const settings = await getSettings(ctx.store, guildId);
  const limits = stakeLimits(settings, ctx.config.tunables);
  // A stake the per-bet rules refuse is answered by those (the more specific message) when the slip is built.
  if (!checkStake(stake, limits).ok) return;
  const { perDay } = limits;
  const day = dayIn(ctx.now(), settings.timezone);
  const used = (await new BetRecordRepo(ctx.store).usedCents(guildId ?? 'dm', userId, day)) / 100;
  const room = checkDailyRoom(stake, used, perDay);
  if (!room.ok) throw new UserFacingError(room.message);
}

/**
 * Builds the slip (the interaction was deferred ephemerally) and posts it publicly in the channel as a
 * follow-up, so others see it but only its owner can confirm.
 */
export async function postSlip(
  ctx: BotContext,
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction,
  req: Omit<SlipRequest, 'guildId' | 'channelId' | 'userId'>,
): Promise<void> {
  await postPreparedSlip(ctx, interaction, req.stake, (where) => ctx.bets.prepareSlip({ ...req, ...where }));
}

/**
 * Posts a slip of any kind: checks the bettor and the day's room, lets `prepare` build and store it for this
 * channel and member, then posts it publicly (a follow-up) and stores its message.
 */
export async function postPreparedSlip(
  ctx: BotContext,
  interaction: ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction,
  stake: number,
  prepare: (where: { guildId: string | null; channelId: string; userId: string }) => Promise<SlipRecord<SlipPayload>>,
): Promise<void> {
  await assertMayBet(ctx, interaction);
  const channelId = interaction.channelId;
  if (!channelId) throw new UserFacingError('Bets can only be made in a server channel.');
  await assertDailyRoom(ctx, interaction.guildId, interaction.user.id, stake);
  const slip = await prepare({ guildId: interaction.guildId, channelId, userId: interaction.user.id });
  const view = slipView({ slip: slip.payload, slipId: slip.slipId, userId: slip.userId, expiresAt: slip.expiresAt });
  // The first follow-up after a defer would replace the (ephemeral) placeholder, so fill that first.
  await interaction.editReply({
    content: 'Your bet slip is posted below. Confirm it there.',
    embeds: [],
    components: [],
  });
  const message = await interaction.followUp({
    content: view.content ?? '',
    embeds: view.embeds,
    components: view.components,
    allowedMentions: { users: [slip.userId] },
  });
  await ctx.bets.attachMessage(slip.slipId, message.channelId, message.id);
}
