// Diagnosis, not a figure: where figure 6's webhook path spends a receipt's time. Runs the desk's path of figure 6
// (40 bets through /bet and Confirm, 8 members at a time, results by webhook) with the in-process bot's store and
// poster timed, and prints per receipt: the sandbox finishing the work → the delivery's insert starting (delivery
// and the receiver's check) → the edit handed to discord.js → the local Discord applying it; the store statements
// and transactions the connection ran between the delivery and the edit; and the statements naming the receipt's
// own job or bet; and the waits discord.js held on the bot token's REST. `npx tsx bench/receipt-trace.ts`.
import type { Tx, TxOptions } from '../src/bot/store/index.js';
import { measurePath } from './figures/result-latency.js';
import { percentile } from './lib/stats.js';

interface Span {
  kind: 'statement' | 'transaction';
  sql: string;
  params: unknown[];
  start: number;
  end: number;
  rows?: unknown[];
}

const spans: Span[] = [];
/** discord.js's own waits on the bot token's REST (decision 2030: the receipts' edits should meet none). */
const waits: { global: boolean; ms: number }[] = [];
const edits: { text: string; start: number; end: number }[] = [];

const result = await measurePath(true, (stack) => {
  const bot = stack.bot;
  if (!bot) throw new Error('the bot runs in this process for figure 6');
  bot.client.rest.on('rateLimited', (info) => waits.push({ global: info.global, ms: info.timeToReset }));
  const store = bot.store as { query: typeof bot.store.query; transaction: typeof bot.store.transaction };
  const query = store.query.bind(store);
  const transaction = store.transaction.bind(store);
  store.query = (async (sql: string, ...params: unknown[]) => {
    const span: Span = { kind: 'statement', sql, params, start: performance.now(), end: 0 };
    try {
      const rows = await query(sql, ...params);
      span.rows = rows;
      return rows;
    } finally {
      span.end = performance.now();
      spans.push(span);
    }
  }) as typeof store.query;
  store.transaction = (async <T>(fn: (tx: Tx) => Promise<T>, opts?: TxOptions) => {
    const inner: string[] = [];
    const params: unknown[] = [];
    const span: Span = { kind: 'transaction', sql: '', params, start: performance.now(), end: 0 };
    try {
      return await transaction(
        (tx) =>
          fn({
            ...tx,
            query: (sql, ...p) => {
              inner.push(sql.trim().split(/\s+/).slice(0, 3).join(' '));
              params.push(...p);
              return tx.query(sql, ...p);
            },
          }),
        opts,
      );
    } finally {
      span.end = performance.now();
      span.sql = `tx[${inner.join('; ')}]`;
      spans.push(span);
    }
  }) as typeof store.transaction;
  const poster = bot.context.poster as { edit: typeof bot.context.poster.edit };
  const edit = poster.edit.bind(poster);
  poster.edit = async (channelId, messageId, view) => {
    const e = { text: JSON.stringify(view), start: performance.now(), end: 0 };
    try {
      await edit(channelId, messageId, view);
    } finally {
      e.end = performance.now();
      edits.push(e);
    }
  };
});

/** Whether a store call's parameters name this id (a batch carries its rows as one JSON text). */
const names = (s: Span, id: string | undefined) =>
  id !== undefined && s.params.some((p) => p === id || (typeof p === 'string' && p.includes(id)));
/** The bet record's placement id, from the job row the receipt's delivery read. */
const placementOf = (r: { correlationId: string }) => {
  for (const s of spans) {
    if (!/^SELECT \* FROM jobs/.test(s.sql.trim()) || !names(s, r.correlationId)) continue;
    const row = s.rows?.[0] as { context?: string } | undefined;
    if (row?.context) return (JSON.parse(row.context) as { placementId?: string }).placementId;
  }
  return undefined;
};
const head = (sql: string) => sql.trim().replace(/\s+/g, ' ').slice(0, 70);
const rows = result.receipts.map((r) => {
  const delivery = spans.find(
    // A statement of its own, or the first of the receipt's transaction.
    (s) => /INTO webhook_deliveries/.test(s.sql) && names(s, r.correlationId),
  );
  const edit = edits.find((e) => e.text.includes(r.betId) && e.start >= (delivery?.start ?? 0));
  const from = delivery?.start ?? r.completedAt;
  const to = edit?.start ?? r.editedAt;
  const between = spans.filter((s) => s.end > from && s.start < to);
  const own = between.filter((s) => names(s, r.correlationId) || names(s, r.betId) || names(s, placementOf(r)));
  return {
    ...r,
    toDelivery: from - r.completedAt,
    deliveryMs: delivery ? delivery.end - delivery.start : Number.NaN,
    toEdit: to - from,
    editMs: edit ? edit.end - edit.start : Number.NaN,
    total: r.editedAt - r.completedAt,
    between,
    own,
  };
});
rows.sort((a, b) => a.total - b.total);
const p = (xs: number[], q: number) => percentile(xs, q).toFixed(1);
for (const [name, pick] of [
  ['completion → delivery insert starts', (r: (typeof rows)[0]) => r.toDelivery],
  ['delivery insert', (r: (typeof rows)[0]) => r.deliveryMs],
  ['delivery insert starts → edit handed to discord.js', (r: (typeof rows)[0]) => r.toEdit],
  ['edit through discord.js REST', (r: (typeof rows)[0]) => r.editMs],
  ['whole receipt', (r: (typeof rows)[0]) => r.total],
  ['store calls on the connection in between', (r: (typeof rows)[0]) => r.between.length],
  ["of them the receipt's own", (r: (typeof rows)[0]) => r.own.length],
] as const) {
  const xs = rows.map(pick).filter(Number.isFinite);
  console.log(
    `${name.padEnd(52)} p50 ${p(xs, 50).padStart(7)}  p99 ${p(xs, 99).padStart(7)}  max ${Math.max(...xs).toFixed(1)}`,
  );
}
console.log(`${rows.length} receipts`);
console.log(
  `discord.js waits on the bot token's REST: ${waits.length} (${waits.filter((w) => w.global).length} on the global limit), ${waits.reduce((a, w) => a + w.ms, 0).toFixed(0)} ms in all`,
);
for (const r of [rows[Math.floor(rows.length / 2)]!, ...rows.slice(-2)]) {
  const at = (t: number | undefined) => (t === undefined ? '-' : `+${(t - r.completedAt).toFixed(1)}`);
  const sends = edits.filter((e) => e.text.includes(r.betId));
  console.log(
    `\n${r.betId} ${r.total.toFixed(1)} ms: edit handed to discord.js ${sends.map((e) => `${at(e.start)}..${at(e.end)}`).join(', ')}, applied ${at(r.editedAt)}; its own store calls:`,
  );
  for (const s of r.own)
    console.log(
      `  +${(s.start - r.completedAt).toFixed(1)} ${(s.end - s.start).toFixed(1)} ms ${s.kind} ${head(s.sql)}`,
    );
  const kinds = new Map<string, number>();
  for (const s of r.between) kinds.set(head(s.sql).slice(0, 40), (kinds.get(head(s.sql).slice(0, 40)) ?? 0) + 1);
  console.log(`  the connection meanwhile: ${[...kinds].map(([k, n]) => `${n}× ${k}`).join(' | ')}`);
}
process.exit(0);
