import { ApplicationFlags } from 'discord-api-types/v10';
import type { World } from '../state/world.js';

/** READY as Discord sends it to a bot: guilds start unavailable and arrive as GUILD_CREATE right after. */
export function readyPayload(
  world: World,
  sessionId: string,
  resumeUrl: string,
  shard: [number, number],
  ownsGuild = true,
) {
  return {
    v: 10,
    user_settings: {},
    user: { ...world.botUser, verified: true, mfa_enabled: false, email: null },
    // Only the guilds of this shard.
    guilds: ownsGuild ? [{ id: world.guildId, unavailable: true }] : [],
    session_id: sessionId,
    session_type: 'normal',
    resume_gateway_url: resumeUrl,
    shard,
    application: { id: world.applicationId, flags: ApplicationFlags.ApplicationCommandBadge },
    presences: [],
    private_channels: [],
    relationships: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: ['sydney'],
    auth: {},
  };
}

/** GUILD_CREATE with channels, roles and every fixture member (a small guild sends them all). */
export function guildCreatePayload(world: World) {
  const { guild, channels, members } = world.fixtures;
  return {
    ...guild,
    joined_at: members.find((m) => m.user?.id === world.botUser.id)?.joined_at,
    large: false,
    unavailable: false,
    member_count: members.length,
    voice_states: [],
    members,
    channels,
    threads: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    embedded_activities: [],
  };
}
