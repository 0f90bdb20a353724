import {
  DiscordApiError,
  missingAccess,
  otherUsersMessage,
  unknownChannel,
  unknownGuild,
  unknownMember,
  unknownMessage,
} from '../api-error.js';
import type { Route, RouteContext } from '../http/router.js';
import { buildMessage, editPatch } from '../payloads/message.js';
import { toApiMessage } from '../types.js';
import { validateMessageBody } from '../validation/message.js';

type Json = Record<string, unknown>;

/** Discord's enforce_nonce: a repeated create with the same nonce (within the window) answers the first message. */
function nonceKey(channelId: string, body: Json): string | undefined {
  const nonce = body.nonce;
  if (body.enforce_nonce !== true || (typeof nonce !== 'string' && typeof nonce !== 'number')) return undefined;
  return `${channelId}:${String(nonce)}`;
}

const asObject = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

function channelOf(ctx: RouteContext) {
  const channel = ctx.world.channel(ctx.params.channel ?? '');
  if (!channel) throw unknownChannel();
  return channel;
}

/** A channel message the bot may see: ephemeral replies are invisible to bot REST reads, as on Discord. */
function messageOf(ctx: RouteContext) {
  channelOf(ctx);
  const message = ctx.world.messages.get(ctx.params.message ?? '');
  if (!message || message.channel_id !== ctx.params.channel || message.visibleTo !== null) throw unknownMessage();
  return message;
}

/** Channel messages the bot posts and edits itself (e.g. settlement notices), channels, the guild and members. */
export const channelRoutes: Route[] = [
  { method: 'GET', path: '/channels/:channel', auth: true, handle: (ctx) => ({ status: 200, body: channelOf(ctx) }) },
  {
    method: 'GET',
    path: '/channels/:channel/messages',
    auth: true,
    handle: (ctx) => {
      channelOf(ctx);
      const limit = Math.min(100, Math.max(1, Number(ctx.query.get('limit') ?? 50) || 50));
      const visible = ctx.world.messages.list(ctx.params.channel ?? '').filter((m) => m.visibleTo === null);
      // `after`: the oldest `limit` messages after that id; otherwise the newest. Discord lists newest first.
      const after = ctx.query.get('after');
      if (after !== null && /^\d+$/.test(after)) {
        const later = visible.filter((m) => BigInt(m.id) > BigInt(after)).slice(0, limit);
        return { status: 200, body: later.reverse().map(toApiMessage) };
      }
      return { status: 200, body: visible.reverse().slice(0, limit).map(toApiMessage) };
    },
  },
  {
    method: 'POST',
    path: '/channels/:channel/messages',
    auth: true,
    handle: (ctx) => {
      const channel = channelOf(ctx);
      // The limit comes first, as on Discord: a refused create is not looked at.
      const headers = ctx.world.channelLimits.take(channel.id);
      const body = asObject(ctx.body);
      validateMessageBody(body, { requireContent: true, hasFiles: ctx.files.length > 0 });
      const limits = ctx.world.channelLimits;
      const key = nonceKey(channel.id, body);
      const earlier = key === undefined ? undefined : ctx.world.messages.get(limits.nonceHit(key) ?? '');
      if (earlier) {
        limits.noteCreated(channel.id, true);
        return { status: 200, body: toApiMessage(earlier), headers };
      }
      const { flags: _ephemeralNotAllowed, nonce: _nonce, enforce_nonce: _enforce, ...rest } = body;
      const message = buildMessage(ctx.world, {
        channelId: channel.id,
        author: ctx.world.botUser,
        body: { ...rest, flags: Number(body.flags ?? 0) & ~(1 << 6) },
        attachments: ctx.world.attachments.add(ctx.origin, channel.id, ctx.files, body.attachments),
      });
      ctx.world.messages.add(message);
      if (key !== undefined) limits.noteNonce(key, message.id);
      limits.noteCreated(channel.id, false);
      return { status: 200, body: toApiMessage(message), headers };
    },
  },
  {
    method: 'GET',
    path: '/channels/:channel/messages/:message',
    auth: true,
    handle: (ctx) => ({ status: 200, body: toApiMessage(messageOf(ctx)) }),
  },
  {
    method: 'PATCH',
    path: '/channels/:channel/messages/:message',
    auth: true,
    handle: (ctx) => {
      const message = messageOf(ctx);
      if (message.author.id !== ctx.world.botUser.id) throw otherUsersMessage();
      const body = asObject(ctx.body);
      validateMessageBody(body, {
        requireContent: false,
        hasFiles: ctx.files.length > 0,
        currentFlags: message.flags ?? 0,
      });
      const uploads = ctx.world.attachments.add(ctx.origin, message.channel_id, ctx.files, body.attachments);
      const updated = ctx.world.messages.update(message.id, editPatch(ctx.world, body, message, true, uploads));
      return { status: 200, body: toApiMessage(updated ?? message) };
    },
  },
  {
    method: 'DELETE',
    path: '/channels/:channel/messages/:message',
    auth: true,
    handle: (ctx) => {
      ctx.world.messages.delete(messageOf(ctx).id);
      return { status: 204 };
    },
  },
  {
    method: 'GET',
    path: '/guilds/:guild',
    auth: true,
    handle: (ctx) => {
      if (ctx.params.guild !== ctx.world.guildId) throw unknownGuild();
      return { status: 200, body: ctx.world.fixtures.guild };
    },
  },
  {
    method: 'GET',
    path: '/guilds/:guild/channels',
    auth: true,
    handle: (ctx) => {
      if (ctx.params.guild !== ctx.world.guildId) throw unknownGuild();
      return { status: 200, body: ctx.world.fixtures.channels };
    },
  },
  {
    method: 'GET',
    path: '/guilds/:guild/roles',
    auth: true,
    handle: (ctx) => {
      if (ctx.params.guild !== ctx.world.guildId) throw unknownGuild();
      return { status: 200, body: ctx.world.fixtures.roles };
    },
  },
  {
    // List Guild Members: by user id ascending, `limit` 1–1000 (default 1) after the user id `after` (default 0);
    // refused when the application's Server Members Intent is off, as Discord does.
    method: 'GET',
    path: '/guilds/:guild/members',
    auth: true,
    handle: (ctx) => {
      if (ctx.params.guild !== ctx.world.guildId) throw unknownGuild();
      if (!ctx.world.serverMembersIntent) throw missingAccess();
      const limit = Number(ctx.query.get('limit') ?? '1');
      const after = ctx.query.get('after') ?? '0';
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
        throw new DiscordApiError(400, 50035, 'Invalid Form Body', {
          limit: { _errors: [{ code: 'NUMBER_TYPE_MAX', message: 'int value should be less than or equal to 1000.' }] },
        });
      }
      if (!/^\d+$/.test(after)) {
        throw new DiscordApiError(400, 50035, 'Invalid Form Body', {
          after: { _errors: [{ code: 'SNOWFLAKE_TYPE_INVALID', message: `Value "${after}" is not snowflake.` }] },
        });
      }
      const members = ctx.world.fixtures.members
        .filter((m) => BigInt(m.user?.id ?? '0') > BigInt(after))
        .sort((a, b) => (BigInt(a.user?.id ?? '0') < BigInt(b.user?.id ?? '0') ? -1 : 1))
        .slice(0, limit);
      return { status: 200, body: members };
    },
  },
  {
    method: 'GET',
    path: '/guilds/:guild/members/:user',
    auth: true,
    handle: (ctx) => {
      if (ctx.params.guild !== ctx.world.guildId) throw unknownGuild();
      const member = ctx.world.member(ctx.params.user ?? '');
      if (!member) throw unknownMember();
      return { status: 200, body: member };
    },
  },
];
