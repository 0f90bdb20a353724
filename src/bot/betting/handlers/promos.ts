import { MessageFlags, ModalBuilder } from 'discord.js';
import type { AccountPromo } from '../../../gateway/index.js';
import { ownerOf, putRef, type RefOwner } from '../../catalog/index.js';
import {
  buttonRoute,
  type ComponentHandler,
  type ComponentRoute,
  modalRoute,
  selectRoute,
} from '../../discord/component-handler.js';
import { button, row, select } from '../../discord/components.js';
import { encodeCustomId } from '../../discord/custom-id.js';
import { replyEphemeral } from '../../discord/interact.js';
import { COLOUR } from '../../model/colours.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { formatOdds } from '../../model/odds.js';
import { trackValue } from '../../model/tracks.js';
import type { BettingDeps } from './deps.js';
import { raceBoard } from './racing.js';
import { postPreparedSlip } from './slip-post.js';
import { readStake, stakeField } from './stake-form.js';

const SHOWN = 10;

/** Placeable bet-boost cards first, then the rest; within each, by id (the gateway's order of issue). */
export function sortPromos(promos: AccountPromo[]): AccountPromo[] {
  return [...promos].sort((a, b) => Number(b.placeable_by_id) - Number(a.placeable_by_id) || a.promo_id - b.promo_id);
}

const expiry = (p: AccountPromo): string | undefined => {
  const raw =
    (p as { valid_till?: unknown; expiry?: unknown; expires_at?: unknown }).valid_till ??
    (p as { expiry?: unknown }).expiry ??
    (p as { expires_at?: unknown }).expires_at;
  const at = typeof raw === 'string' ? Date.parse(raw) : Number.NaN;
  if (Number.isFinite(at)) return `<t:${Math.floor(at / 1000)}:R>`;
  return p.date ? `on ${p.date}` : undefined;
};

const where = (p: AccountPromo): string =>
  p.kind === 'racing' && p.track ? `${p.track} R${p.race_num ?? '?'}` : (p.event ?? p.label ?? '');

/** A racing promo bet through place_bet with its promo_name: the desk opens that race's prices for it. */
export function needsRunner(p: AccountPromo): boolean {
  return (
    p.kind === 'racing' &&
    p.how_to_bet?.endpoint === '/v3/place_bet' &&
    !!p.how_to_bet.promo_name &&
    !!p.track &&
    typeof p.race_num === 'number' &&
    !!p.date
  );
}

const raceTypeOf = (p: AccountPromo) =>
  (p.race_type ? `(${p.race_type.replace(/[()]/g, '')})` : '(R)') as '(R)' | '(G)' | '(H)';

/** How a promo that needs a chosen selection is bet: the slip that takes it, named with its options. */
export function promoLink(p: AccountPromo): string {
  const name = p.how_to_bet?.promo_name ? ` (promo ${p.how_to_bet.promo_name})` : '';
  if (needsRunner(p)) return `Needs a chosen runner: press **Bet #${p.promo_id}** below to pick one at ${p.bookie}.`;
  if (p.kind === 'racing' && p.track) {
    const type = raceTypeOf(p);
    return `Bet it with \`/bet-racing track:${trackValue(p.track, type)} race:${p.race_num ?? 1} bookie:${p.bookie}\`${name}.`;
  }
  // The event as the /bet event list shows it (its name), never its raw key, which the list never offers.
  if (p.epk) {
    return p.event
      ? `Bet it with \`/bet\`: pick **${p.event}** in its event list, then bookie ${p.bookie}${name}.`
      : `Bet it with \`/bet\` at ${p.bookie}${name}: pick its event in the event list.`;
  }
  return p.how_to_bet?.note ?? 'Not placeable through the desk.';
}

function promoField(p: AccountPromo): { name: string; value: string } {
  const lines: string[] = [];
  if (p.selection) {
    const odds =
      p.boosted_odds === undefined || p.boosted_odds === null
        ? `${p.base_odds ? formatOdds(p.base_odds) : '?'} (boost not captured yet)`
        : `${p.base_odds ? `${formatOdds(p.base_odds)} → ` : ''}**${formatOdds(p.boosted_odds)}**`;
    lines.push(`${p.selection} · ${where(p)} · ${odds}`);
  } else lines.push(p.summary?.headline ?? where(p));
  const ends = expiry(p);
  lines.push(`${p.bookie}${p.session_id ? ` · session ${p.session_id}` : ''}${ends ? ` · ends ${ends}` : ''}`);
  lines.push(p.placeable_by_id ? 'Placeable by id: pick it in the menu below.' : promoLink(p));
  return {
    name: clip(`#${p.promo_id} ${p.label ?? p.promo}`, LIMITS.fieldName),
    value: clip(lines.join('\n'), LIMITS.fieldValue),
  };
}

/**
 * The promo inbox: the syndicate's active account promos across sessions, placeable cards first. `inboxRef` is
 * the stored ref its controls carry (it names the server the inbox was shown in).
 */
export function promosView(promos: AccountPromo[], inboxRef: string): MessageView {
  const sorted = sortPromos(promos);
  const placeable = sorted.filter((p) => p.placeable_by_id && typeof p.boosted_odds === 'number');
  const byRunner = sorted.slice(0, SHOWN).filter(needsRunner).slice(0, 5);
  return fitView({
    embeds: [
      {
        title: 'Promo inbox',
        color: COLOUR.info,
        description:
          sorted.length === 0
            ? 'No active promos on the accounts of this desk.'
            : `${sorted.length} active promo${sorted.length === 1 ? '' : 's'}${sorted.length > SHOWN ? ` (first ${SHOWN} shown)` : ''}; ${placeable.length} placeable by id.`,
        fields: sorted.slice(0, SHOWN).map(promoField),
      },
    ],
    components: [
      ...(placeable.length === 0
        ? []
        : [
            row(
              select(
                encodeCustomId('promo', 'pick', inboxRef),
                'Place a boost: pick a card',
                placeable.map((p) => ({
                  label: `#${p.promo_id} ${p.selection ?? p.label ?? ''}`,
                  value: String(p.promo_id),
                  description: `${p.bookie} · ${where(p)} · ${formatOdds(p.boosted_odds as number)}`,
                })),
              ),
            ),
          ]),
      ...(byRunner.length === 0
        ? []
        : [
            row(
              ...byRunner.map((p) =>
                button(encodeCustomId('promo', 'race', inboxRef, p.promo_id), `Bet #${p.promo_id}: ${where(p)}`),
              ),
            ),
          ]),
    ],
  });
}

export async function showPromos(ctx: BettingDeps, owner: RefOwner): Promise<MessageView> {
  const { promos } = await ctx.gateway.accountPromos.list();
  const inboxRef = await putRef(ctx.store, { inbox: 'promos', promos: promos.map((p) => p.promo_id) }, owner);
  return promosView(promos, inboxRef);
}

const promoPick: ComponentHandler<BettingDeps> = async (interaction, [inboxRef], _ctx) => {
  if (!interaction.isStringSelectMenu()) return;
  const promoId = interaction.values[0] ?? '';
  const modal = new ModalBuilder()
    .setCustomId(encodeCustomId('promo', 'stake', inboxRef ?? '', promoId))
    .setTitle(`Bet boost #${promoId}`.slice(0, 45))
    .addComponents(stakeField());
  await interaction.showModal(modal);
};

const promoStake: ComponentHandler<BettingDeps> = async (interaction, [, promoId], ctx) => {
  if (!interaction.isModalSubmit()) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const stake = readStake(interaction);
  if (!stake.ok) return replyEphemeral(interaction, stake.message);
  const id = Number(promoId);
  if (!Number.isInteger(id)) return replyEphemeral(interaction, 'That promo id is not valid. Run /promos again.');
  // A promo's stake is the account's cash (the card boosts the price), so above the tier it is a proposal too.
  await postPreparedSlip(ctx, interaction, stake.cents, (w, lifetime) =>
    ctx.slipFactory.preparePromoSlip({ ...w, promoId: id, stakeCents: stake.cents }, lifetime),
  );
};

/** A promo needing a chosen runner: its race's prices at its book, whose menus make slips carrying the promo. */
const promoRace: ComponentHandler<BettingDeps> = async (interaction, [, promoId], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const { promos } = await ctx.gateway.accountPromos.list();
  const p = promos.find((x) => String(x.promo_id) === promoId);
  if (!p || !needsRunner(p)) return replyEphemeral(interaction, 'That promo is no longer active. Run /promos again.');
  const board = await raceBoard(
    ctx,
    { track: p.track as string, raceNum: p.race_num as number, raceType: raceTypeOf(p), date: p.date as string },
    { owner: ownerOf(interaction), bookie: p.bookie, promoName: p.how_to_bet?.promo_name as string },
  );
  if (typeof board === 'string') return replyEphemeral(interaction, board);
  await interaction.editReply({ embeds: board.embeds, components: board.components });
};

export const PROMO_COMPONENTS: Record<string, ComponentRoute<BettingDeps>> = {
  'promo:race': buttonRoute(promoRace),
  'promo:pick': selectRoute(promoPick),
  'promo:stake': modalRoute(promoStake),
};
