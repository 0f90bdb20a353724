// "Add another multi on this race" on a multi or stack slip (decision 2010): a form for the next multi's legs, stake
// and floor, then a stack slip holding every multi, posted below; the slip it grew from closes.
import {
  ActionRowBuilder,
  MessageFlags,
  ModalBuilder,
  type ModalSubmitInteraction,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import type { ComponentHandler } from '../../discord/component-handler.js';
import { encodeCustomId } from '../../discord/custom-id.js';
import { replyEphemeral } from '../../discord/interact.js';
import type { MultiLeg } from '../../model/racing-bet.js';
import type { SlipPayload } from '../../model/slip-rules.js';
import { UserFacingError } from '../../model/user-facing-error.js';
import type { SlipRecord } from '../slips.js';
import { closedSlipView } from '../views/slip.js';
import type { BettingDeps } from './deps.js';
import { readLeg } from './racing.js';
import { postPreparedSlip } from './slip-post.js';
import { minOddsField, readMinOdds, readStake, stakeField } from './stake-form.js';

/** The slip a stack grows from: open, its owner's, a multi or a stack. */
async function growable(ctx: BettingDeps, slipId: string, userId: string): Promise<SlipRecord<SlipPayload>> {
  const slip = await ctx.slips.get(slipId);
  if (!slip || slip.expiresAt <= ctx.now()) {
    throw new UserFacingError(
      'This slip is no longer open (confirmed, cancelled or expired). Make a new one with /multi.',
    );
  }
  if (slip.userId !== userId) throw new UserFacingError(`Only <@${slip.userId}> can add to this slip.`);
  if (slip.payload.kind !== 'multi' && slip.payload.kind !== 'stack') {
    throw new UserFacingError('Only a multi slip or a stack slip takes another multi.');
  }
  return slip;
}

/** The button: a form for the next multi (a modal must be the first answer; the slip is read to title it). */
export const slipStackForm: ComponentHandler<BettingDeps> = async (interaction, [slipId], ctx) => {
  if (!interaction.isButton()) return;
  const slip = await growable(ctx, slipId ?? '', interaction.user.id);
  const legs = new TextInputBuilder()
    .setCustomId('legs')
    .setLabel('Legs: one per line, a runner and where')
    .setPlaceholder('Runner One win\nRunner Two top 3')
    .setStyle(TextInputStyle.Paragraph)
    .setRequired(true)
    .setMaxLength(400);
  const modal = new ModalBuilder()
    .setCustomId(encodeCustomId('slip', 'stackadd', slip.slipId))
    .setTitle(`Another multi · ${slip.payload.eventName}`.slice(0, 45))
    .addComponents(
      new ActionRowBuilder<TextInputBuilder>().addComponents(legs),
      stakeField(),
      minOddsField('8.00'),
      new ActionRowBuilder<TextInputBuilder>().addComponents(bonusInput()),
    );
  await interaction.showModal(modal);
};

/** The form's "bonus token" field: "yes" stakes a bonus token worth exactly the stake instead of cash. */
function bonusInput(): TextInputBuilder {
  return new TextInputBuilder()
    .setCustomId('bonus')
    .setLabel('Bonus token (optional): yes to stake one')
    .setPlaceholder('yes: a token worth exactly the stake, not cash')
    .setStyle(TextInputStyle.Short)
    .setRequired(false)
    .setMaxLength(10);
}

/** The "bonus token" field read back: yes or empty (a form without the field is empty). */
export function readBonus(text: string | undefined): { ok: true; value: boolean } | { ok: false; message: string } {
  const t = (text ?? '').trim().toLowerCase();
  if (t === '' || t === 'no') return { ok: true, value: false };
  if (/^(y|yes|bonus|token)$/.test(t)) return { ok: true, value: true };
  return { ok: false, message: `"${t.slice(0, 10)}" is not an answer for "bonus token": type yes, or leave it empty.` };
}

const fieldText = (interaction: ModalSubmitInteraction, id: string): string | undefined => {
  try {
    return interaction.fields.getTextInputValue(id);
  } catch {
    return undefined;
  }
};

/** The legs typed into the form: one per line (or split by commas or "+"), each "Runner position" or "Runner". */
export function readLegs(text: string): MultiLeg[] | { error: string } {
  const lines = text
    .split(/[\n,+]/)
    .map((l) => l.trim())
    .filter(Boolean);
  const legs: MultiLeg[] = [];
  for (const [i, line] of lines.entries()) {
    const leg = readLeg(line);
    if ('error' in leg) return { error: `Leg ${i + 1}: ${leg.error}` };
    legs.push(leg);
  }
  return legs;
}

/** The form sent: the stack slip built from the slip's multis and this one, posted below; the old slip closes. */
export const slipStackAdd: ComponentHandler<BettingDeps> = async (interaction, [slipId], ctx) => {
  if (!interaction.isModalSubmit()) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const legs = readLegs(interaction.fields.getTextInputValue('legs'));
  if ('error' in legs) return replyEphemeral(interaction, legs.error);
  const stake = readStake(interaction);
  if (!stake.ok) return replyEphemeral(interaction, stake.message);
  const minOdds = readMinOdds(interaction, '8.00');
  if (!minOdds.ok) return replyEphemeral(interaction, minOdds.message);
  const bonus = readBonus(fieldText(interaction, 'bonus'));
  if (!bonus.ok) return replyEphemeral(interaction, bonus.message);
  const base = await growable(ctx, slipId ?? '', interaction.user.id);
  const add = {
    legs,
    stakeCents: stake.cents,
    ...(minOdds.value === undefined ? {} : { minOdds: minOdds.value }),
    ...(bonus.value ? { useBonusBet: true } : {}),
  };
  await postPreparedSlip(ctx, interaction, base.payload.stakeCents + stake.cents, async (where, lifetime) => {
    const stack = await ctx.slipFactory.prepareStackSlip({ ...where, base: base.payload, add }, lifetime);
    // The slip it grew from closes, unless it was confirmed meanwhile: then the stack is dropped instead.
    if (!(await ctx.slips.close(base.slipId))) {
      await ctx.slips.close(stack.slipId);
      throw new UserFacingError('That slip was confirmed or closed meanwhile, so nothing was added to it.');
    }
    return stack;
  });
  await closeGrownSlip(ctx, interaction, base);
};

/** The slip the stack grew from says where its multis went (it has no buttons left). */
async function closeGrownSlip(
  ctx: BettingDeps,
  interaction: ModalSubmitInteraction,
  base: SlipRecord<SlipPayload>,
): Promise<void> {
  if (!base.messageId) return;
  const view = closedSlipView(
    base.payload,
    'Moved into a stack',
    'This slip is now part of the stack slip posted below: confirm or cancel it there. Nothing was placed from this one.',
  );
  await ctx.poster
    .edit(base.channelId, base.messageId, view)
    .catch((err) =>
      ctx.logger.warn('closing the slip a stack grew from failed', { slipId: base.slipId, err, id: interaction.id }),
    );
}
