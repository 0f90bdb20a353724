import { createHash } from 'node:crypto';
import type { MessageView } from '../model/limits.js';
import type { BotStore } from '../store/index.js';
import { OUTBOX_SQL } from './model/outbox-states.js';

const { recorded: RECORDED, folded: FOLDED, open: OPEN } = OUTBOX_SQL;

/**
 * The alert lane of each channel (decision 1960): watch alerts are posted apart from the money posts (receipts,
 * settlements), paced, and capped. Beyond ALERT_CAP alerts in a channel within ALERT_WINDOW_MS, the alerts not sent
 * yet are folded into one summary post per burst ("65 more alerts on Lakers v Kings: /watch list"): each alert is
 * either posted once or counted once in a summary.
 */
export const ALERT_CAP = 10;
export const ALERT_WINDOW_MS = 60_000;
/** A summary waits this long for more of the burst to fold into it before it is posted. */
export const SUMMARY_HOLD_MS = 5_000;
/**
 * Alert-lane posts of one channel are spaced this far apart in each process (4 of Discord's 5 per 5 s), so a money
 * post in the same channel finds room in the channel's limit at once rather than behind a queue of alerts.
 */
export const ALERT_SPACING_MS = 1_250;

export type Lane = 'money' | 'alert' | 'summary';

/** Discord's nonce: at most 25 characters, the same for the same outbox key. */
export function nonceOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 25);
}

/** Folded alerts' counts by topic (event), most first. */
export interface FoldedCount {
  topic: string;
  n: number;
}

/** The summary post of a burst's folded alerts. */
export type SummaryView = (counts: FoldedCount[]) => MessageView;

interface ChannelBurst extends Record<string, unknown> {
  channel_id: string;
  waiting: number;
  recent: number;
}

/**
 * Folds the alerts beyond each channel's cap into the channel's summary: one transaction per channel, so an alert is
 * marked folded only together with the summary that counts it. Only alerts never sent and not leased fold.
 */
export async function foldBursts(store: BotStore, now: number, view: SummaryView): Promise<number> {
  const since = now - ALERT_WINDOW_MS;
  const bursts = await store.query<ChannelBurst>(
    `SELECT channel_id,
       SUM(CASE WHEN state IN ${OPEN} AND sent_at IS NULL AND lease_until <= ? THEN 1 ELSE 0 END) AS waiting,
       SUM(CASE WHEN sent_at IS NOT NULL AND sent_at > ? THEN 1 ELSE 0 END) AS recent
     FROM outbox WHERE lane = 'alert' AND (state IN ${OPEN} OR sent_at > ?) GROUP BY channel_id`,
    now,
    since,
    since,
  );
  let folded = 0;
  for (const b of bursts) {
    if (Number(b.waiting) <= Math.max(0, ALERT_CAP - Number(b.recent))) continue;
    folded += await foldChannel(store, b.channel_id, now, view);
  }
  return folded;
}

async function foldChannel(store: BotStore, channelId: string, now: number, view: SummaryView): Promise<number> {
  return store.transaction(async (tx) => {
    await tx.lock(`outbox-fold:${channelId}`);
    const recent = await tx.query<{ n: number }>(
      "SELECT COUNT(*) AS n FROM outbox WHERE lane = 'alert' AND channel_id = ? AND sent_at IS NOT NULL AND sent_at > ?",
      channelId,
      now - ALERT_WINDOW_MS,
    );
    const waiting = await tx.query<{ outbox_key: string }>(
      `SELECT outbox_key FROM outbox WHERE lane = 'alert' AND channel_id = ? AND state IN ${OPEN}
         AND sent_at IS NULL AND lease_until <= ? ORDER BY created_at, outbox_key`,
      channelId,
      now,
    );
    const fold = waiting.slice(Math.max(0, ALERT_CAP - Number(recent[0]?.n ?? 0))).map((r) => r.outbox_key);
    if (fold.length === 0) return 0;
    // The channel's summary not sent yet takes the new folds; the claim's row lock (PostgreSQL) keeps a sender from
    // leasing it until this commits, so it goes out with every alert counted in it.
    const open = await tx.query<{ outbox_key: string }>(
      `UPDATE outbox SET updated_at = ? WHERE outbox_key = (SELECT outbox_key FROM outbox WHERE lane = 'summary'
         AND channel_id = ? AND state IN ${OPEN} AND sent_at IS NULL AND lease_until <= ? ORDER BY created_at LIMIT 1)
         AND state IN ${OPEN} AND sent_at IS NULL AND lease_until <= ?
       RETURNING outbox_key`,
      now,
      channelId,
      now,
      now,
    );
    const summaryKey = open[0]?.outbox_key ?? `create:alerts-folded:${channelId}:${now}:${fold[0]}`;
    if (open.length === 0) {
      await tx.query(
        `INSERT INTO outbox (outbox_key, kind, channel_id, message_id, body, rank, nonce, state, attempts, next_at,
           created_at, updated_at, lane)
         VALUES (?, 'create', ?, NULL, '{}', 0, ?, ${RECORDED}, 0, ?, ?, ?, 'summary')`,
        summaryKey,
        channelId,
        nonceOf(summaryKey),
        now + SUMMARY_HOLD_MS,
        now,
        now,
      );
    }
    let n = 0;
    for (let i = 0; i < fold.length; i += 500) {
      const keys = fold.slice(i, i + 500);
      const moved = await tx.query(
        `UPDATE outbox SET state = ${FOLDED}, folded_into = ?, updated_at = ?
         WHERE outbox_key IN (${keys.map(() => '?').join(', ')}) AND state IN ${OPEN} AND sent_at IS NULL
           AND lease_until <= ?
         RETURNING outbox_key`,
        summaryKey,
        now,
        ...keys,
        now,
      );
      n += moved.length;
    }
    const counts = await tx.query<{ topic: string | null; n: number }>(
      'SELECT topic, COUNT(*) AS n FROM outbox WHERE folded_into = ? GROUP BY topic',
      summaryKey,
    );
    const byTopic = counts
      .map((c) => ({ topic: c.topic ?? '', n: Number(c.n) }))
      .sort((a, b) => b.n - a.n || a.topic.localeCompare(b.topic));
    await tx.query(
      'UPDATE outbox SET body = ?, updated_at = ? WHERE outbox_key = ?',
      JSON.stringify(view(byTopic)),
      now,
      summaryKey,
    );
    return n;
  });
}
