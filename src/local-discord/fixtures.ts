import type { APIChannel, APIGuild, APIGuildMember, APIRole, APIUser } from 'discord.js';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { isoFromMs } from './ids.js';

/**
 * The fixed world the double starts with: one guild, its channels, roles and members. Ids are constant so
 * tests, docs and the playground can name them; they are valid snowflakes from early 2024.
 */
export const FIXTURE_IDS = {
  application: '1200000000000000001',
  guild: '1200000000000000100',
  roles: {
    everyone: '1200000000000000100',
    bettor: '1200000000000000201',
    admin: '1200000000000000202',
    // No one holds it at first: there for `/settings fund treasurer_role:@Treasurer`, given with setMemberRoles.
    treasurer: '1200000000000000204',
  },
  botRole: '1200000000000000203',
  channels: { bets: '1200000000000000301', results: '1200000000000000302', alerts: '1200000000000000303' },
  users: { admin: '1200000000000000401', bettor: '1200000000000000402', viewer: '1200000000000000403' },
  /**
   * A second server the bot is also in, _Elsewhere_, with one channel `#lobby`. Every fixture member is there and
   * holds Administrator (they made it): what a member of the syndicate's server has in a server of their own.
   */
  elsewhere: { guild: '1200000000000000500', channels: { lobby: '1200000000000000501' } },
} as const;

/**
 * The bot settings the playground starts with, as an admin of this server would have set them: betting is
 * closed by default, so the Bettor role is the bet role and the viewer only watches; a $1,000.00 bank sizes the
 * suggested stakes from the first slip (until a fund's NAV takes over).
 */
export const FIXTURE_BOT_SETTINGS = { betRoleId: FIXTURE_IDS.roles.bettor, bankCents: 100_000 } as const;

const CREATED_AT = isoFromMs(Date.UTC(2024, 0, 15, 12));

export type FixtureUserName = keyof typeof FIXTURE_IDS.users;
export type FixtureChannelName = keyof typeof FIXTURE_IDS.channels;

export function user(id: string, username: string, globalName: string, bot = false): APIUser {
  return {
    id,
    username,
    discriminator: '0',
    global_name: globalName,
    avatar: null,
    ...(bot ? { bot: true } : {}),
    public_flags: 0,
    flags: 0,
  } as unknown as APIUser;
}

export function member(u: APIUser, roles: string[]): APIGuildMember {
  return {
    user: u,
    nick: null,
    avatar: null,
    banner: null,
    roles,
    joined_at: CREATED_AT,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
  } as unknown as APIGuildMember;
}

function role(id: string, name: string, permissions: bigint, position: number, managed = false): APIRole {
  return {
    id,
    name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position,
    permissions: permissions.toString(),
    managed,
    mentionable: false,
    flags: 0,
  } as unknown as APIRole;
}

function textChannel(id: string, name: string, position: number, topic: string): APIChannel {
  return {
    id,
    type: 0,
    guild_id: FIXTURE_IDS.guild,
    name,
    position,
    topic,
    nsfw: false,
    parent_id: null,
    permission_overwrites: [],
    rate_limit_per_user: 0,
    last_message_id: null,
    flags: 0,
  } as unknown as APIChannel;
}

export interface Fixtures {
  botUser: APIUser;
  users: Record<FixtureUserName, APIUser>;
  members: APIGuildMember[];
  roles: APIRole[];
  channels: APIChannel[];
  guild: APIGuild;
}

export function createFixtures(): Fixtures {
  const botUser = user(FIXTURE_IDS.application, 'syndicate-desk', 'Syndicate Desk', true);
  const users = {
    admin: user(FIXTURE_IDS.users.admin, 'ada_admin', 'Ada (admin)'),
    bettor: user(FIXTURE_IDS.users.bettor, 'ben_bettor', 'Ben (bettor)'),
    viewer: user(FIXTURE_IDS.users.viewer, 'vic_viewer', 'Vic (viewer)'),
  };
  const everyoneBits =
    PermissionFlagsBits.ViewChannel |
    PermissionFlagsBits.SendMessages |
    PermissionFlagsBits.ReadMessageHistory |
    PermissionFlagsBits.AddReactions |
    PermissionFlagsBits.EmbedLinks |
    PermissionFlagsBits.UseApplicationCommands;
  const botBits =
    everyoneBits |
    PermissionFlagsBits.ManageMessages |
    PermissionFlagsBits.AttachFiles |
    PermissionFlagsBits.UseExternalEmojis;
  const roles = [
    role(FIXTURE_IDS.roles.everyone, '@everyone', everyoneBits, 0),
    role(FIXTURE_IDS.roles.bettor, 'Bettor', everyoneBits, 1),
    role(FIXTURE_IDS.roles.treasurer, 'Treasurer', everyoneBits, 2),
    role(FIXTURE_IDS.roles.admin, 'Admin', PermissionFlagsBits.Administrator, 3),
    role(FIXTURE_IDS.botRole, 'Syndicate Desk', botBits, 4, true),
  ];
  const members = [
    member(users.admin, [FIXTURE_IDS.roles.admin]),
    member(users.bettor, [FIXTURE_IDS.roles.bettor]),
    member(users.viewer, []),
    member(botUser, [FIXTURE_IDS.botRole]),
  ];
  const channels = [
    textChannel(FIXTURE_IDS.channels.bets, 'bets', 0, 'Place and confirm bets here'),
    textChannel(FIXTURE_IDS.channels.results, 'results', 1, 'Bet results and settlements'),
    textChannel(FIXTURE_IDS.channels.alerts, 'alerts', 2, 'Price, value and line-move alerts from /watch'),
  ];
  const guild = {
    id: FIXTURE_IDS.guild,
    name: 'Syndicate HQ',
    icon: null,
    icon_hash: null,
    splash: null,
    discovery_splash: null,
    owner_id: FIXTURE_IDS.users.admin,
    region: 'sydney',
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    verification_level: 0,
    default_message_notifications: 1,
    explicit_content_filter: 0,
    roles,
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: 'en-US',
    public_updates_channel_id: null,
    nsfw_level: 0,
    premium_progress_bar_enabled: false,
    safety_alerts_channel_id: null,
    max_members: 500000,
    max_video_channel_users: 25,
    approximate_member_count: members.length,
    approximate_presence_count: members.length,
    incidents_data: null,
  } as unknown as APIGuild;
  return { botUser, users, members, roles, channels, guild };
}
