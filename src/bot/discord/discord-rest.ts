/**
 * discord.js sends files as the runtime's FormData through its own undici. When the gateway client's undici 7
 * loads first (as in the bot), its Agent becomes the global dispatcher both share, and it cannot read another
 * FormData class: every upload failed with "action is not a function". The form is encoded to bytes here first.
 */

import { DefaultRestOptions, type RESTOptions } from 'discord.js';
import { acknowledged, callbackInteractionId, callbackSent } from './intake.js';
import { callbackTypeOf, type InteractionEdits } from './interaction-edits.js';

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

const send: MakeRequest = async (url, init) => {
  if (!(init.body instanceof FormData)) return DefaultRestOptions.makeRequest(url, init);
  const encoded = new Response(init.body);
  // discord.js sets no content type for a form (fetch would): the encoded one carries the boundary.
  return DefaultRestOptions.makeRequest(url, {
    ...init,
    headers: {
      ...(init.headers as Record<string, string> | undefined),
      'Content-Type': encoded.headers.get('content-type') ?? 'multipart/form-data',
    },
    body: new Uint8Array(await encoded.arrayBuffer()),
  });
};
