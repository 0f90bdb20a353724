import type { Route, RouteContext } from '../http/router.js';
import { handleCallback } from '../interactions/callback.js';
import {
  createFollowUp,
  deleteWebhookMessage,
  editWebhookMessage,
  getWebhookMessage,
  interactionForWebhook,
} from '../interactions/webhook.js';
import { toApiMessage } from '../types.js';

type Json = Record<string, unknown>;

const asObject = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

/** Files sent with a response, kept and described as attachments of the interaction's channel. */
const uploads = (ctx: RouteContext, channelId: string, described: unknown) =>
  ctx.world.attachments.add(ctx.origin, channelId, ctx.files, described);

const record = (ctx: RouteContext) => interactionForWebhook(ctx.world, ctx.params.app ?? '', ctx.params.token ?? '');

/** Interaction callbacks and the interaction webhook (original response and follow-ups); no bot auth, like Discord. */
export const interactionRoutes: Route[] = [
  {
    method: 'POST',
    path: '/interactions/:id/:token/callback',
    auth: false,
    handle: (ctx) => {
      const body = asObject(ctx.body);
      const channelId = ctx.world.interactions.byId(ctx.params.id ?? '')?.channelId ?? '';
      const data = asObject(body.data);
      const result = handleCallback(ctx.world, {
        id: ctx.params.id ?? '',
        token: ctx.params.token ?? '',
        withResponse: ctx.query.get('with_response') === 'true',
        body,
        uploads: ctx.files.length > 0 ? uploads(ctx, channelId, data.attachments) : [],
      });
      return result ? { status: 200, body: result } : { status: 204 };
    },
  },
  {
    method: 'POST',
    path: '/webhooks/:app/:token',
    auth: false,
    handle: (ctx) => {
      const r = record(ctx);
      const body = asObject(ctx.body);
      const message = createFollowUp(ctx.world, r, body, uploads(ctx, r.channelId, body.attachments));
      // Without ?wait=true Discord answers 204 and no message.
      return ctx.query.get('wait') === 'true' ? { status: 200, body: toApiMessage(message) } : { status: 204 };
    },
  },
  {
    method: 'GET',
    path: '/webhooks/:app/:token/messages/:message',
    auth: false,
    handle: (ctx) => ({
      status: 200,
      body: toApiMessage(getWebhookMessage(ctx.world, record(ctx), ctx.params.message ?? '')),
    }),
  },
  {
    method: 'PATCH',
    path: '/webhooks/:app/:token/messages/:message',
    auth: false,
    handle: (ctx) => {
      const r = record(ctx);
      const body = asObject(ctx.body);
      const message = editWebhookMessage(
        ctx.world,
        r,
        ctx.params.message ?? '',
        body,
        uploads(ctx, r.channelId, body.attachments),
      );
      return { status: 200, body: toApiMessage(message) };
    },
  },
  {
    method: 'DELETE',
    path: '/webhooks/:app/:token/messages/:message',
    auth: false,
    handle: (ctx) => {
      deleteWebhookMessage(ctx.world, record(ctx), ctx.params.message ?? '');
      return { status: 204 };
    },
  },
];
