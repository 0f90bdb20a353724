/**
 * discord.js's requests go through the process's own undici 7 (the gateway client's; its Agent is the global
 * dispatcher), not discord.js's bundled undici 6 on that Agent. Files: discord.js sends the runtime's FormData, which
 * undici 7's Agent cannot read from undici 6 ("action is not a function"), so a form is encoded to bytes first.
 */

import { STATUS_CODES } from 'node:http';
import { DefaultRestOptions, type RESTOptions } from 'discord.js';
import type { Dispatcher } from 'undici';
import { acknowledged, callbackInteractionId, callbackSent } from './intake.js';
import { callbackTypeOf, type InteractionEdits } from './interaction-edits.js';
import { request } from './undici-request.js';

type MakeRequest = RESTOptions['makeRequest'];

/**
 * discord.js's request hook; `onAck` hears the seconds from an interaction's arrival to its acknowledgement, and
 * `edits` each accepted acknowledgement's type (an update answer lets the outbox edit the pressed message with the
 * interaction's token).
 */
export function discordRequests(onAck?: (seconds: number) => void, edits?: InteractionEdits): MakeRequest {
  return async (url, init) => {
    const acks = callbackInteractionId(url);
    if (acks !== undefined) callbackSent(acks);
    const response = await send(url, init);
    if (acks !== undefined && response.ok) edits?.acknowledged(acks, callbackTypeOf(init.body));
    // An interaction's acknowledgement: timed from its arrival (desk_interaction_ack_seconds).
    const seconds = acks === undefined ? undefined : acknowledged(acks);
    if (seconds !== undefined) onAck?.(seconds);
    return response;
  };
}

export const makeRequest: MakeRequest = discordRequests();

/**
 * Response headers as discord.js reads them (`get`, `has`; names in any case) over undici's plain record: building a
 * fetch `Headers` for every answer, as discord.js's own request function does, validated each header again on the
 * event loop (decision 2142).
 */
function headersOf(raw: Record<string, string | string[] | undefined>) {
  const value = (name: string): string | null => {
    const v = raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  };
  return {
    get: value,
    has: (name: string) => value(name) !== null,
  };
}

/** The body as bytes or text: a form is encoded first (its boundary then names the content type). */
async function bodyOf(init: Parameters<MakeRequest>[1]) {
  const headers = { ...(init.headers as Record<string, string> | undefined) };
  const body = init.body;
  if (body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array) {
    return { headers, body: body ?? null };
  }
  if (body instanceof FormData) {
    const encoded = new Response(body);
    // discord.js sets no content type for a form (fetch would): the encoded one carries the boundary.
    headers['Content-Type'] = encoded.headers.get('content-type') ?? 'multipart/form-data';
    return { headers, body: new Uint8Array(await encoded.arrayBuffer()) };
  }
  return undefined;
}

/**
 * One request through the process's undici (the gateway client's, its Agent the global dispatcher), answered in the
 * shape discord.js reads. Bodies discord.js's own function knows and this one does not go to it.
 */
const send: MakeRequest = async (url, init) => {
  const resolved = await bodyOf(init);
  if (!resolved) return DefaultRestOptions.makeRequest(url, init);
  const res = await request(url, {
    method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
    headers: resolved.headers,
    body: resolved.body,
    signal: init.signal ?? undefined,
    ...(init.dispatcher ? { dispatcher: init.dispatcher as unknown as Dispatcher } : {}),
  });
  const { body, statusCode } = res;
  return {
    body,
    arrayBuffer: () => body.arrayBuffer(),
    json: () => body.json(),
    text: () => body.text(),
    get bodyUsed() {
      return body.bodyUsed;
    },
    headers: headersOf(res.headers) as unknown as Headers,
    status: statusCode,
    statusText: STATUS_CODES[statusCode] ?? '',
    ok: statusCode >= 200 && statusCode < 300,
  } as unknown as Awaited<ReturnType<MakeRequest>>;
};
