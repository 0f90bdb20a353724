import { EventEmitter } from 'node:events';
import type { APIChannel, APIGuildMember, APIUser } from 'discord.js';
import { createFixtures, FIXTURE_IDS, type Fixtures } from '../fixtures.js';
import { createSnowflakes } from '../ids.js';
import { ALL_PERMISSIONS, memberPermissions } from '../permissions.js';
import type { LocalDiscordEvents } from '../types.js';
import { AttachmentStore } from './attachments.js';
import { ChannelLimits } from './channel-limits.js';
import { CommandRegistry } from './commands.js';
import { InteractionRegistry } from './interactions.js';
import { MessageStore } from './messages.js';

export interface WorldOptions {
  now: () => number;
  /** The shard count /gateway/bot recommends (bots may still identify with another count). */
  shards?: number;
  ackDeadlineMs: number;
  tokenLifetimeMs: number;
  /** How long a create's enforce_nonce is remembered (the double's clock); default NONCE_WINDOW_MS. */
  nonceWindowMs?: number;
}

/** Sends a dispatch to every identified gateway session; returns how many sessions got it. */
export type Dispatch = (event: string, data: unknown) => number;

/** Everything the REST routes, the gateway and the test API share. */
export class World {
  readonly events = new EventEmitter<LocalDiscordEvents>();
  readonly fixtures: Fixtures = createFixtures();
  readonly applicationId = FIXTURE_IDS.application;
  readonly guildId = FIXTURE_IDS.guild;
  readonly messages = new MessageStore(this.events);
  readonly interactions = new InteractionRegistry();
  readonly snowflake: () => string;
  readonly commands: CommandRegistry;
  readonly attachments: AttachmentStore;
  /** Discord's 5-per-5-s limit on a channel's new messages and its enforce_nonce memory. */
  readonly channelLimits: ChannelLimits;
  dispatch: Dispatch = () => 0;
  /**
   * The Developer Portal's Server Members Intent switch for this application. Off, Discord refuses the member
   * list (GET /guilds/:id/members) with 403 Missing Access, whatever intents the bot identified with.
   */
  serverMembersIntent = true;
  /** DM channels the bot opened (POST /users/@me/channels), by the member's user id: one per member, as on Discord. */
  readonly #dms = new Map<string, APIChannel>();
  /** The clock posts are dated by, when it is not `now` (the playground's sandbox clock): a reading of it. */
  #postClock: { at: number; takenAt: number; speed: number } | undefined;
  #lastPosted = 0;

  constructor(readonly options: WorldOptions) {
    this.snowflake = createSnowflakes(() => this.postedNow());
    this.commands = new CommandRegistry(this.applicationId, this.snowflake);
    this.attachments = new AttachmentStore(this.snowflake);
    this.channelLimits = new ChannelLimits(Date.now, options.now, options.nonceWindowMs);
  }

  now(): number {
    return this.options.now();
  }

  /**
   * The time a post (and any new id) is dated: `now`, or the clock last handed to followClock, run on from its
   * reading. The 3 s and 15 min windows stay on `now`: moving the dating clock a day on expires no token.
   */
  postedNow(): number {
    const c = this.#postClock;
    // Never back in time: ids and dates keep the order the posts were made in, whatever a reading's latency.
    this.#lastPosted = Math.max(this.#lastPosted, c ? c.at + (this.now() - c.takenAt) * c.speed : this.now());
    return this.#lastPosted;
  }

  /** Dates posts from here on by another clock, read now as `at` and running at `speed`. */
  followClock(at: number, speed?: number): void {
    this.#postClock = { at, takenAt: this.now(), speed: speed ?? this.#postClock?.speed ?? 1 };
  }

  get botUser(): APIUser {
    return this.fixtures.botUser;
  }

  user(id: string): APIUser | undefined {
    if (id === this.botUser.id) return this.botUser;
    return Object.values(this.fixtures.users).find((u) => u.id === id);
  }

  member(userId: string): APIGuildMember | undefined {
    return this.fixtures.members.find((m) => m.user?.id === userId);
  }

  channel(id: string): APIChannel | undefined {
    return this.fixtures.channels.find((c) => c.id === id) ?? [...this.#dms.values()].find((c) => c.id === id);
  }

  /** The bot's DM channel with a user, opened on first ask and the same one after (Discord's Create DM). */
  openDm(recipient: APIUser): APIChannel {
    const open = this.#dms.get(recipient.id);
    if (open) return open;
    const channel = { id: this.snowflake(), type: 1, last_message_id: null, recipients: [recipient], flags: 0 };
    this.#dms.set(recipient.id, channel as unknown as APIChannel);
    return channel as unknown as APIChannel;
  }

  /** The DM channel the bot has with a user, if it opened one. */
  dmOf(userId: string): APIChannel | undefined {
    return this.#dms.get(userId);
  }

  isDm(channelId: string): boolean {
    return [...this.#dms.values()].some((c) => c.id === channelId);
  }

  role(id: string) {
    return this.fixtures.roles.find((r) => r.id === id);
  }

  /** Guild permissions of a member as Discord computes them (no channel overwrites in the fixtures). */
  permissionsOf(userId: string, guildId: string = this.guildId): bigint {
    // In the second server every member is an administrator (see FIXTURE_IDS.elsewhere).
    if (guildId === FIXTURE_IDS.elsewhere.guild) return ALL_PERMISSIONS;
    const m = this.member(userId);
    return memberPermissions(this.guildId, m?.roles ?? [], this.fixtures.roles);
  }

  /** The server a channel is in: the fixture guild's channels, or the second server's #lobby. */
  guildOfChannel(channelId: string): string | undefined {
    if (this.channel(channelId)) return this.guildId;
    return Object.values(FIXTURE_IDS.elsewhere.channels).includes(channelId as never)
      ? FIXTURE_IDS.elsewhere.guild
      : undefined;
  }
}
