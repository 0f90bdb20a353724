import { ApplicationFlags } from 'discord-api-types/v10';
import { DiscordApiError } from '../api-error.js';
import type { Route } from '../http/router.js';
import type { World } from '../state/world.js';

export function applicationObject(world: World) {
  return {
    id: world.applicationId,
    name: world.botUser.username,
    icon: null,
    description: 'Local Discord double',
    summary: '',
    bot_public: false,
    bot_require_code_grant: false,
    verify_key: '0'.repeat(64),
    flags: ApplicationFlags.ApplicationCommandBadge,
    owner: world.fixtures.users.admin,
    team: null,
    approximate_guild_count: 1,
    bot: world.botUser,
    install_params: { scopes: ['bot', 'applications.commands'], permissions: '0' },
    integration_types_config: { '0': {} },
  };
}

/** Identity and gateway discovery: what discord.js asks before it opens the WebSocket. */
export const applicationRoutes: Route[] = [
  {
    method: 'GET',
    path: '/gateway/bot',
    auth: true,
    handle: ({ origin, world }) => ({
      status: 200,
      body: {
        url: gatewayUrl(origin),
        shards: world.options.shards ?? 1,
        // max_concurrency 16 (as for large bots): a sharded bot may start its shards together here.
        session_start_limit: { total: 1000, remaining: 999, reset_after: 86_400_000, max_concurrency: 16 },
      },
    }),
  },
  {
    method: 'GET',
    path: '/gateway',
    auth: false,
    handle: ({ origin }) => ({ status: 200, body: { url: gatewayUrl(origin) } }),
  },
  { method: 'GET', path: '/users/@me', auth: true, handle: ({ world }) => ({ status: 200, body: world.botUser }) },
  {
    // Create DM: the bot's DM channel with a user (the same channel on every call), as Discord answers it.
    method: 'POST',
    path: '/users/@me/channels',
    auth: true,
    handle: ({ world, body }) => {
      const id = (body as { recipient_id?: unknown } | undefined)?.recipient_id;
      const user = typeof id === 'string' ? world.user(id) : undefined;
      if (!user || user.id === world.botUser.id) {
        throw new DiscordApiError(400, 50035, 'Invalid Form Body', {
          recipient_id: {
            _errors: [{ code: 'SNOWFLAKE_TYPE_INVALID', message: `Value "${String(id)}" is not a user.` }],
          },
        });
      }
      return { status: 200, body: world.openDm(user) };
    },
  },
  {
    method: 'GET',
    path: '/users/:id',
    auth: true,
    handle: ({ world, params }) => {
      const user = world.user(params.id ?? '');
      return user ? { status: 200, body: user } : { status: 404, body: { message: 'Unknown User', code: 10013 } };
    },
  },
  {
    method: 'GET',
    path: '/applications/@me',
    auth: true,
    handle: ({ world }) => ({ status: 200, body: applicationObject(world) }),
  },
  {
    method: 'GET',
    path: '/oauth2/applications/@me',
    auth: true,
    handle: ({ world }) => ({ status: 200, body: applicationObject(world) }),
  },
];

export function gatewayUrl(origin: string): string {
  return `${origin.replace(/^http/, 'ws')}/gateway`;
}
