import type { APIEmbedField } from 'discord.js';
import { COLOUR } from '../../model/colours.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { formatMoney } from '../../model/money.js';
import type { ExposureLine, ExposureReport } from '../model/exposure.js';

const MAX_LINES = 12;

function lines(rows: ExposureLine[]): string {
  if (rows.length === 0) return 'nothing';
  const shown = rows.slice(0, MAX_LINES).map((r) => {
    const room =
      r.capCents === undefined
        ? 'no cap'
        : `room ${formatMoney(Math.max(0, r.capCents - r.cents))} of ${formatMoney(r.capCents)}`;
    return `${r.label}: **${formatMoney(r.cents)}** · ${room}`;
  });
  if (rows.length > MAX_LINES) shown.push(`… and ${rows.length - MAX_LINES} more`);
  return shown.join('\n');
}

const field = (name: string, value: string): APIEmbedField => ({
  name: clip(name, LIMITS.fieldName),
  value: clip(value, LIMITS.fieldValue),
});

/** `risk`: the fund's risk limits as lines (model/risk-limits.ts limitLines); none set: no field. */
export function exposureView(r: ExposureReport, day: string, risk: readonly string[] = []): MessageView {
  const scope = r.event ? `on ${r.event.name}` : 'across the desk';
  return fitView({
    embeds: [
      {
        title: `Exposure ${scope}`,
        description: `Open stake ${scope}: **${formatMoney(r.totalOpenCents)}** (bets held, in flight or placed and not yet settled, and open proposals). Members and accounts: ${r.event ? 'those with stake on this event, with their whole stake' : 'stake'} on ${day}, as the day caps count it.`,
        color: COLOUR.info,
        fields: [
          field(r.event ? 'This event (open)' : 'By event (open)', lines(r.events)),
          field('By market (open)', lines(r.markets)),
          field(`By member (${day})`, lines(r.members)),
          field(`By account (${day})`, lines(r.accounts)),
          field('Syndicate (today)', lines([r.syndicateDay])),
          ...(risk.length > 0 ? [field("Fund's risk limits", risk.join('\n'))] : []),
        ],
      },
    ],
    components: [],
  });
}
