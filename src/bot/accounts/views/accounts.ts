import { COLOUR } from '../../model/colours.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { formatMoney } from '../../model/money.js';
import type { HealthState, SessionHealth } from '../model/account-health.js';

const BADGE: Record<HealthState, string> = {
  healthy: '🟢 healthy',
  'stake-limited': '🟡 stake-limited',
  restricted: '🔴 restricted',
  offline: '⚪ offline',
};

const STATE_COLOUR: Record<HealthState, number> = {
  healthy: COLOUR.ok,
  'stake-limited': COLOUR.pending,
  restricted: COLOUR.refused,
  offline: COLOUR.muted,
};

function rate(r: number | null): string {
  return r === null ? '–' : `${Math.round(r * 100)}%`;
}

/** One session's lines on /accounts: state and why, largest accepted stake, refusal rates, last bet. */
function accountLines(h: SessionHealth & { username: string }): string {
  const why = h.reasons.length ? `\n${h.reasons.map((r) => `• ${r}`).join('\n')}` : '';
  const largest = h.largestAcceptedCents === null ? '–' : formatMoney(h.largestAcceptedCents);
  const last = h.lastBetAt === null ? 'none' : `<t:${Math.floor(h.lastBetAt / 1000)}:R>`;
  return `${BADGE[h.state]}${why}\nLargest accepted stake (30d): ${largest} · refused 7d ${rate(h.refusalRate7d)} · 30d ${rate(h.refusalRate30d)} · last bet ${last}`;
}

/**
 * A row's name: book and account; several sessions (machines) on one account are told apart by their place and
 * the end of the session id ("bookie_b · alpha_b · machine 2, session …00b2"), never by the whole UUID.
 */
function rowNames(rows: ReadonlyArray<SessionHealth & { username: string }>): string[] {
  const account = (h: SessionHealth & { username: string }) => `${h.bookie} · ${h.username || 'unnamed account'}`;
  const counts = new Map<string, number>();
  for (const h of rows) counts.set(account(h), (counts.get(account(h)) ?? 0) + 1);
  const seen = new Map<string, number>();
  return rows.map((h) => {
    const name = account(h);
    if ((counts.get(name) ?? 0) < 2) return name;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return `${name} · machine ${n}, session …${h.sessionId.slice(-4)}`;
  });
}

/** /accounts: every session's book, user name, health state and why. */
export function accountsView(rows: ReadonlyArray<SessionHealth & { username: string }>): MessageView {
  const shown = rows.slice(0, LIMITS.embedFields);
  const names = rowNames(shown);
  return fitView({
    embeds: [
      {
        title: 'Accounts',
        description:
          rows.length === 0
            ? 'This API key has no sessions.'
            : 'Health of each bookmaker session, from what the gateway answered over the last 30 days.',
        color: COLOUR.info,
        fields: shown.map((h, i) => ({
          name: clip(names[i] ?? h.bookie, LIMITS.fieldName),
          value: clip(accountLines(h), LIMITS.fieldValue),
        })),
        ...(rows.length > shown.length ? { footer: { text: `${rows.length - shown.length} more not shown` } } : {}),
      },
    ],
    components: [],
  });
}

/** The results channel's notice that a session's state changed. */
export function accountStateNoticeView(h: SessionHealth, from: HealthState | null, username: string): MessageView {
  const who = username ? `${h.bookie} (${username})` : h.bookie;
  return fitView({
    embeds: [
      {
        title: clip(`Account ${BADGE[h.state]} · ${who}`, LIMITS.embedTitle),
        description: clip(
          [`${who} is now **${h.state}**${from ? ` (was ${from})` : ''}.`, ...h.reasons.map((r) => `• ${r}`)].join(
            '\n',
          ),
          LIMITS.embedDescription,
        ),
        color: STATE_COLOUR[h.state],
        footer: { text: `For support: session …${h.sessionId.slice(-4)}` },
      },
    ],
    components: [],
  });
}
