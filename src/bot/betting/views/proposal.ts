import { ButtonStyle } from 'discord.js';
import { button, row } from '../../discord/components.js';
import { encodeCustomId } from '../../discord/custom-id.js';
import { COLOUR } from '../../model/colours.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { formatMoney } from '../../model/money.js';
import { formatOdds } from '../../model/odds.js';
import { type SlipPayload, slipKind } from '../../model/slip-rules.js';
import type { Approval, Proposal } from '../proposals.js';
import { closedSlipView, routeText, sessionLabel, slipFields } from './slip.js';

const approversText = (roleId: string | undefined) => (roleId ? `<@&${roleId}>` : 'a member with Manage Server');

/** The bet an approval binds, in words: a race's runner and market, a promo, or a sports selection and its market. */
function boundBet(p: Proposal, slip: SlipPayload): string {
  const r = slip.racing;
  if (slipKind(slip) === 'racing' && r) return `${r.track} R${r.raceNum} ${r.raceType} ${r.date} · ${p.marketRef}`;
  // A sports market_ref is a long opaque key: the record keeps it, the card names the selection. Other kinds bind
  // a readable key already (a runner and market, a promo's number).
  return slipKind(slip) === 'sports' ? `${slip.selectionLabel} — ${slip.marketLabel}` : p.marketRef;
}

/** The proposal as approvers see it: the exact bet and price they approve, who approved, Approve/Reject. */
export function proposalView(input: {
  proposal: Proposal;
  slip: SlipPayload;
  approvals: Approval[];
  approverRoleId: string | undefined;
}): MessageView {
  const { proposal: p, approvals } = input;
  const left = Math.max(0, p.needed - approvals.length);
  const slip = { ...input.slip, shownOdds: p.shownOdds };
  // Approvers see why a routed bet went to its book, as the slip would have said.
  const description = [p.note, routeText(slip.route)].filter(Boolean).join('\n\n');
  return fitView({
    content: `<@${p.proposerId}> proposes this bet: it needs ${p.needed} approval${p.needed === 1 ? '' : 's'} from ${approversText(input.approverRoleId)} (not the proposer) before it is placed. Expires <t:${Math.floor(p.expiresAt / 1000)}:R>.`,
    embeds: [
      {
        title: `Bet proposal: ${left} more approval${left === 1 ? '' : 's'} needed`,
        ...(description ? { description: clip(description, LIMITS.embedDescription) } : {}),
        color: COLOUR.pending,
        fields: [
          ...slipFields(slip, p.shownOdds, sessionLabel(slip)),
          {
            name: 'Approvals',
            value:
              approvals.length === 0
                ? 'none yet'
                : approvals.map((a) => `<@${a.approverId}> at ${formatOdds(a.odds)}`).join('\n'),
          },
        ],
        footer: {
          text: clip(
            `An approval binds ${p.bookie} · ${sessionLabel(slip)} · ${boundBet(p, slip)} · ${formatMoney(p.stakeCents)} at ${formatOdds(p.shownOdds)}; the live price is checked again at each approval.`,
            LIMITS.footer,
          ),
        },
      },
    ],
    components: [
      row(
        button(encodeCustomId('prop', 'approve', p.proposalId), 'Approve', ButtonStyle.Success),
        button(encodeCustomId('prop', 'reject', p.proposalId), 'Reject', ButtonStyle.Danger),
      ),
    ],
  });
}

/** A proposal that ended without a bet: rejected or expired. Nothing was placed and the hold is released. */
export function proposalClosedView(p: Proposal, slip: SlipPayload, title: string, reason: string): MessageView {
  return closedSlipView({ ...slip, shownOdds: p.shownOdds }, title, reason);
}

export function reminderView(p: Proposal, slip: SlipPayload, approverRoleId: string | undefined): MessageView {
  return fitView({
    content: `Reminder for ${approversText(approverRoleId)}: <@${p.proposerId}>'s proposal (${formatMoney(p.stakeCents)} on ${slip.selectionLabel}, ${slip.eventName}) expires <t:${Math.floor(p.expiresAt / 1000)}:R>.`,
    embeds: [],
    components: [],
  });
}
