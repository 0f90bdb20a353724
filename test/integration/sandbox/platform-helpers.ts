// Shared helpers for the platform tests: plain fetch over real HTTP (not the client library).
import { type StartSandboxOptions, startSandbox } from '../../../src/sandbox/index.js';
import { until } from '../../support/wait.js';

export const ALPHA = 'sandbox-key-alpha';
export const BRAVO = 'sandbox-key-bravo';
export const NOSUB = 'sandbox-key-nosub';
export const READONLY = 'sandbox-key-readonly';
export const DEMO = 'demo-key';

export const ALPHA_A = '5e55a1fa-0000-4000-8000-00000000000a';
export const ALPHA_B = '5e55a1fa-0000-4000-8000-00000000000b';
export const ALPHA_C = '5e55a1fa-0000-4000-8000-00000000000c';
export const ALPHA_IDLE = '5e55a1fa-0000-4000-8000-0000000000b2';
export const BRAVO_A = '5e55b2a0-0000-4000-8000-00000000000a';
export const READONLY_A = '5e55d4c0-0000-4000-8000-00000000000a';
export const NOSUB_A = '5e55c3b0-0000-4000-8000-00000000000a';

export interface Res {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
  body: any;
}

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export function start(opts: StartSandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, quiet: true, control: true, speed: 50, ...opts });
}

export async function call(
  base: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers['x-api-key'] = opts.key;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(base + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) };
}

export const post = (
  base: string,
  path: string,
  key: string | undefined,
  body?: unknown,
  headers?: Record<string, string>,
) =>
  call(base, 'POST', path, {
    ...(key ? { key } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(headers ? { headers } : {}),
  });

export const get = (base: string, path: string, key?: string, headers?: Record<string, string>) =>
  call(base, 'GET', path, { ...(key ? { key } : {}), ...(headers ? { headers } : {}) });

/** Polls `fn` until its answer passes `done` and returns that answer; the timeout error shows the last answer. */
export async function untilAnswer<T>(
  what: string,
  fn: () => Promise<T>,
  done: (v: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  let last: T | undefined;
  await until(
    what,
    async () => {
      last = await fn();
      return done(last);
    },
    { timeoutMs, everyMs: 20, seen: () => `last answer: ${JSON.stringify(last)}` },
  );
  return last as T;
}

/** Waits for a job to leave pending and returns its poll entry. */
// biome-ignore lint/suspicious/noExplicitAny: poll entries are read field by field
export async function waitJob(base: string, key: string, correlationId: string): Promise<any> {
  const res = await untilAnswer(
    `job ${correlationId} to leave pending`,
    () => post(base, '/api/bet_status', key, { correlation_ids: [correlationId] }),
    (r) => r.status === 200 && r.body.statuses[0].status !== 'pending',
  );
  return res.body.statuses[0];
}

export const advance = (base: string, ms: number) => post(base, '/_sandbox/clock/advance', undefined, { ms });
