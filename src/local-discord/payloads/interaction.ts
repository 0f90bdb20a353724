import type { World } from '../state/world.js';
import { type LocalMessage, toApiMessage } from '../types.js';

type Json = Record<string, unknown>;

export interface InteractionPayloadInput {
  id: string;
  token: string;
  type: number;
  userId: string;
  channelId: string;
  data: Json;
  message?: LocalMessage;
  locale?: string;
  /** The server the interaction comes from (default the fixture guild). */
  guildId?: string;
}

/** Everything discord.js reads from an INTERACTION_CREATE, filled as Discord fills it for a guild channel. */
export function buildInteractionPayload(world: World, input: InteractionPayloadInput): Json {
  const guildId = input.guildId ?? world.guildId;
  const home = guildId === world.guildId;
  const fixtureMember = world.member(input.userId);
  // In another server the member has no roles of the fixture guild (roles belong to one server).
  const member = fixtureMember && !home ? { ...fixtureMember, roles: [] } : fixtureMember;
  const user = world.user(input.userId);
  const channel = home
    ? (world.channel(input.channelId) as Json | undefined)
    : { id: input.channelId, type: 0, guild_id: guildId, name: 'lobby' };
  const permissions = world.permissionsOf(input.userId, guildId).toString();
  const appPermissions = world.permissionsOf(world.botUser.id).toString();
  const payload: Json = {
    id: input.id,
    application_id: world.applicationId,
    type: input.type,
    data: input.data,
    guild_id: guildId,
    guild: { id: guildId, locale: 'en-US', features: [] },
    channel_id: input.channelId,
    channel: channel ? { ...channel, permissions } : undefined,
    member: member ? { ...member, user, permissions } : undefined,
    token: input.token,
    version: 1,
    app_permissions: appPermissions,
    locale: input.locale ?? 'en-US',
    guild_locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: { '0': guildId },
    context: 0,
    attachment_size_limit: 10_485_760,
  };
  if (input.message) payload.message = toApiMessage(input.message);
  return JSON.parse(JSON.stringify(payload)) as Json;
}
