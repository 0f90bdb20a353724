// Shared helpers for the world tests: a sandbox on port 0 and small HTTP calls with undici.
import { request } from 'undici';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { addDays } from '../../../src/sandbox/world/dates.js';
import type { SimWorld } from '../../../src/sandbox/world/index.js';
import type { SportEvent } from '../../../src/sandbox/world/sports.js';
import { until } from '../../support/wait.js';

export const ALPHA = 'sandbox-key-alpha';
export const BRAVO = 'sandbox-key-bravo';
/** A fixed clock start so listings are the same on every run. */
export const START = new Date('2026-11-20T12:00:00.000Z');
/** The day after START: its races and fixtures are all still to come. */
export const TOMORROW = addDays(START.toISOString().slice(0, 10), 1);

export async function boot(opts: { seed?: number; start?: Date } = {}): Promise<RunningSandbox> {
  return startSandbox({
    port: 0,
    host: '127.0.0.1',
    seed: opts.seed ?? 7,
    control: true,
    quiet: true,
    start: opts.start ?? START,
  });
}

export function worldOf(sb: RunningSandbox): SimWorld {
  return sb.sb.world;
}

/** A prematch fixture (not an outright) starting more than an hour from now that matches `pred`. */
export function upcomingEvent(world: SimWorld, pred: (ev: SportEvent) => boolean): SportEvent {
  const now = world.nowMs();
  const ev = world
    .allEvents()
    .find((e) => !e.isOutright && e.startMs > now + 3_600_000 && world.status(e) === 'prematch' && pred(e));
  if (!ev) throw new Error('no upcoming event matches');
  return ev;
}

export interface Res {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

export async function get(
  base: string,
  path: string,
  query: Record<string, string | number | boolean> = {},
  key = ALPHA,
): Promise<Res> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const res = await request(`${base}${path}${qs ? `?${qs}` : ''}`, { method: 'GET', headers: { 'x-api-key': key } });
  return { status: res.statusCode, body: await res.body.json(), headers: res.headers };
}

export async function post(base: string, path: string, body: unknown, key = ALPHA): Promise<Res> {
  const res = await request(`${base}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, body: await res.body.json(), headers: res.headers };
}

/** Polls /api/bet_status until the job leaves pending (or the deadline passes). */
export async function waitJob(
  base: string,
  correlationId: string,
  key = ALPHA,
  deadlineMs = 10_000,
): Promise<Res['body']> {
  return until(
    `job ${correlationId} to leave pending`,
    async () => {
      const entry = (await post(base, '/api/bet_status', { correlation_ids: [correlationId] }, key)).body.statuses?.[0];
      return entry && entry.status !== 'pending' ? entry : undefined;
    },
    { timeoutMs: deadlineMs, everyMs: 50 },
  );
}
