import { DiscordApiError, unknownCommand, unknownGuild } from '../api-error.js';
import type { Route, RouteContext } from '../http/router.js';
import { validateCommand, validateCommandList } from '../validation/commands.js';

/** The command scope a route names: null for global, the guild id for guild commands. */
function scope({ world, params }: RouteContext): string | null {
  if (params.app !== world.applicationId) throw new DiscordApiError(403, 50001, 'Missing Access');
  if (params.guild === undefined) return null;
  if (params.guild !== world.guildId) throw unknownGuild();
  return params.guild;
}

function commandRoutes(base: string): Route[] {
  return [
    {
      method: 'GET',
      path: base,
      auth: true,
      handle: (ctx) => ({ status: 200, body: ctx.world.commands.list(scope(ctx)) }),
    },
    {
      method: 'PUT',
      path: base,
      auth: true,
      handle: (ctx) => {
        const s = scope(ctx);
        return { status: 200, body: ctx.world.commands.overwrite(s, validateCommandList(ctx.body)) };
      },
    },
    {
      method: 'POST',
      path: base,
      auth: true,
      handle: (ctx) => {
        const s = scope(ctx);
        return { status: 201, body: ctx.world.commands.upsert(s, validateCommand(ctx.body)) };
      },
    },
    {
      method: 'GET',
      path: `${base}/:id`,
      auth: true,
      handle: (ctx) => {
        const found = ctx.world.commands.list(scope(ctx)).find((c) => c.id === ctx.params.id);
        if (!found) throw unknownCommand();
        return { status: 200, body: found };
      },
    },
    {
      method: 'PATCH',
      path: `${base}/:id`,
      auth: true,
      handle: (ctx) => {
        const s = scope(ctx);
        const found = ctx.world.commands.list(s).find((c) => c.id === ctx.params.id);
        if (!found) throw unknownCommand();
        const merged = validateCommand({ ...found, ...(ctx.body as object) });
        return { status: 200, body: ctx.world.commands.upsert(s, merged) };
      },
    },
    {
      method: 'DELETE',
      path: `${base}/:id`,
      auth: true,
      handle: (ctx) => {
        if (!ctx.world.commands.remove(scope(ctx), ctx.params.id ?? '')) throw unknownCommand();
        return { status: 204 };
      },
    },
  ];
}

/** Global and guild application commands (bulk overwrite, create, read, edit, delete). */
export const commandRoutesAll: Route[] = [
  ...commandRoutes('/applications/:app/commands'),
  ...commandRoutes('/applications/:app/guilds/:guild/commands'),
];
