import type { APIChannel, APIGuild, APIGuildMember, APIRole, APIUser } from 'discord.js';
import { type Listening, listen } from '../http/listen.js';
import { FIXTURE_IDS, type FixtureChannelName, type FixtureUserName, member, user } from './fixtures.js';
import { forwardMessageEvents } from './gateway/message-events.js';
import { GatewayServer, shardOfGuild } from './gateway/server.js';
import { FaultInjector } from './http/faults.js';
import { Router } from './http/router.js';
import { createRestServer } from './http/server.js';
import { makeBotToken } from './ids.js';
import type { OptionInput } from './interactions/command-options.js';
import type { MessageRef } from './interactions/components.js';
import { type ForgedComponent, forgeComponent } from './interactions/forged.js';
import type { InteractionHandle } from './interactions/open.js';
import { UserActions, type UserRef } from './interactions/user-actions.js';
import { applicationRoutes, gatewayUrl } from './rest/application.js';
import { channelRoutes } from './rest/channels.js';
import { commandRoutesAll } from './rest/commands.js';
import { interactionRoutes } from './rest/interactions.js';
import type { ChannelPostCounts } from './state/channel-limits.js';
import type { RegisteredCommand } from './state/commands.js';
import { waitForMessageEvent } from './state/waits.js';
import { World } from './state/world.js';
import type { LocalMessage } from './types.js';

export interface LocalDiscordOptions {
  port?: number;
  host?: string;
  /** Clock for the 3 s / 15 min windows and message timestamps (tests move it to expire tokens). */
  now?: () => number;
  /** Discord's acknowledgement window; keep 3000 outside tests of the window itself. */
  ackDeadlineMs?: number;
  /** How long interaction webhooks (edit original, follow-ups) stay usable: 15 minutes on Discord. */
  tokenLifetimeMs?: number;
  heartbeatIntervalMs?: number;
  /** Shards /gateway/bot recommends (default 1); guild events go to the shard that owns the guild. */
  shards?: number;
  /** How long a create's enforce_nonce is remembered, by `now` (default 2 minutes, the short end of Discord's). */
  nonceWindowMs?: number;
}

export type { UserRef };

const DEFAULT_WAIT_MS = 5000;

/** The running double: REST + gateway on one port, fixtures, and the in-process API tests and the playground use. */
export class LocalDiscord {
  readonly #world: World;
  readonly #listening: Listening;
  readonly #gateway: GatewayServer;
  readonly #token: string;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #actions: UserActions;
  /** Chaos for REST calls: `ld.faults.inject({ path: '/interactions/', status: 500 })`, `ld.faults.clear()`. */
  readonly faults: FaultInjector;
  readonly url: string;
  readonly apiUrl: string;
  readonly gatewayUrl: string;

  /** @internal use startLocalDiscord() */
  constructor(world: World, listening: Listening, gateway: GatewayServer, token: string, faults: FaultInjector) {
    this.#world = world;
    this.faults = faults;
    this.#listening = listening;
    const origin = listening.url;
    this.#gateway = gateway;
    this.#token = token;
    this.#actions = new UserActions(world, this.#timers);
    this.url = origin;
    this.apiUrl = `${origin}/api`;
    this.gatewayUrl = gatewayUrl(origin);
  }

  /** The bot token discord.js logs in with. Not enumerable: it stays out of inspect/JSON output. */
  get token(): string {
    return this.#token;
  }

  /**
   * Dates posts and new ids from here on by another clock (the playground's sandbox clock, which the bot runs on
   * offline), given as a reading `{ now, speed }`: a post made after "Advance 1 day" is dated that day.
   */
  followClock(reading: { now: string; speed?: number }): void {
    const at = Date.parse(reading.now);
    if (Number.isFinite(at)) this.#world.followClock(at, reading.speed);
  }

  get applicationId(): string {
    return this.#world.applicationId;
  }

  get guildId(): string {
    return this.#world.guildId;
  }

  get events() {
    return this.#world.events;
  }

  get botUser(): APIUser {
    return structuredClone(this.#world.botUser);
  }

  get guild(): APIGuild {
    return structuredClone(this.#world.fixtures.guild);
  }

  get channels(): APIChannel[] {
    return structuredClone(this.#world.fixtures.channels);
  }

  get members(): APIGuildMember[] {
    return structuredClone(this.#world.fixtures.members);
  }

  get roles(): APIRole[] {
    return structuredClone(this.#world.fixtures.roles);
  }

  get users(): Record<FixtureUserName, APIUser> {
    return structuredClone(this.#world.fixtures.users);
  }

  get channelIds(): Record<FixtureChannelName, string> {
    return { ...FIXTURE_IDS.channels };
  }

  get roleIds() {
    return { ...FIXTURE_IDS.roles };
  }

  /** The shard ids ([id, count]) of the connected bot sessions, in order of shard id. */
  connectedShards(): Array<[number, number]> {
    return this.#gateway.connectedShards();
  }

  /** The shard id that owns the fixture guild for a bot running `count` shards ((guild_id >> 22) % count). */
  guildShard(count: number): number {
    return shardOfGuild(this.guildId, count);
  }

  /**
   * Adds a member with no roles to the fixture guild (load tests: many members at once, each starting their own
   * interactions); returns the new user.
   */
  addMember(username: string): APIUser {
    const fixtures = this.#world.fixtures;
    const id = String(BigInt(FIXTURE_IDS.users.viewer) + 1000n + BigInt(fixtures.members.length));
    const added = user(id, username, username);
    (fixtures.users as Record<string, APIUser>)[`member:${id}`] = added;
    fixtures.members.push(member(added, []));
    return structuredClone(added);
  }

  /**
   * Gives a member exactly these roles, as an admin would in Server Settings → Members; interactions the member
   * starts afterwards carry them (and the permissions they grant).
   */
  setMemberRoles(userId: string, roleIds: string[]): void {
    const member = this.#world.fixtures.members.find((m) => m.user?.id === userId);
    if (!member) throw new Error(`no member ${userId} in the fixture guild`);
    const unknown = roleIds.filter((id) => !this.#world.fixtures.roles.some((r) => r.id === id));
    if (unknown.length > 0) throw new Error(`no role ${unknown.join(', ')} in the fixture guild`);
    member.roles = [...roleIds];
  }

  /**
   * Turns the application's Server Members Intent on or off, as the Developer Portal's switch does: off, the member
   * list route answers 403 Missing Access (on by default).
   */
  setServerMembersIntent(on: boolean): void {
    this.#world.serverMembersIntent = on;
  }

  /** How many bot gateway sessions are connected right now. */
  get connectedBots(): number {
    return this.#gateway.connectedSessions;
  }

  /** Registered commands: a guild id → that guild's; null → global; omitted → guild then global. */
  commands(guildId?: string | null): RegisteredCommand[] {
    if (guildId === undefined) return [...this.#world.commands.list(this.guildId), ...this.#world.commands.list(null)];
    return this.#world.commands.list(guildId);
  }

  /** The channel's messages, oldest first; with `viewer`, others' ephemeral replies are left out. */
  messages(channelId: string, opts: { viewer?: string } = {}): LocalMessage[] {
    return this.#world.messages.list(channelId, opts.viewer);
  }

  /** The DM channel the bot opened with a user (undefined: none opened). */
  dmChannelOf(userId: string): string | undefined {
    return this.#world.dmOf(userId)?.id;
  }

  /** What the channel's creates met: messages made, creates refused with 429, creates answered by their nonce. */
  postCounts(channelId: string): ChannelPostCounts {
    return this.#world.channelLimits.counts(channelId);
  }

  message(messageId: string): LocalMessage | undefined {
    const m = this.#world.messages.get(messageId);
    return m ? structuredClone(m) : undefined;
  }

  /** A user runs a slash command. Throws when the command is not registered or the options do not fit it. */
  sendCommand(input: Parameters<UserActions['sendCommand']>[0]): Promise<InteractionHandle> {
    return this.#actions.sendCommand(input);
  }

  /**
   * What only a modified client sends: a slash command whose option values skip every check the Discord client makes
   * (type, min/max, choices), e.g. `{ target: 0 }`, `{ target: 'NaN' }`, `{ minutes: 1e6 }`. The command, its
   * subcommand and the options' names must still be the registered ones.
   */
  forgeCommand(
    input: Omit<Parameters<UserActions['sendCommand']>[0], 'options' | 'unchecked'> & {
      options: Record<string, unknown>;
    },
  ): Promise<InteractionHandle> {
    return this.#actions.sendCommand({ ...input, options: input.options as OptionInput, unchecked: true });
  }

  /** A user types into an autocompleted option; resolves with the choices the bot answered. */
  autocomplete(input: Parameters<UserActions['autocomplete']>[0]): Promise<unknown[]> {
    return this.#actions.autocomplete(input);
  }

  clickButton(input: { user: UserRef; message: MessageRef; customId: string }): Promise<InteractionHandle> {
    return this.#actions.clickButton(input);
  }

  selectMenu(input: {
    user: UserRef;
    message: MessageRef;
    customId: string;
    values: string[];
  }): Promise<InteractionHandle> {
    return this.#actions.selectMenu(input);
  }

  /** A user submits the modal the bot opened for them (the latest one with this custom id). */
  submitModal(input: Parameters<UserActions['submitModal']>[0]): Promise<InteractionHandle> {
    return this.#actions.submitModal(input);
  }

  /**
   * What only a modified client sends: a component interaction with any custom id, from any channel the member is
   * in (`ld.elsewhere.channelId` is in a second server where every member is an administrator), on any message.
   */
  forgeComponent(input: Omit<ForgedComponent, 'userId'> & { user: UserRef }): InteractionHandle {
    const { user, ...rest } = input;
    return forgeComponent(this.#world, this.#timers, { ...rest, userId: typeof user === 'string' ? user : user.id });
  }

  /** The second server's id and its #lobby channel (see forgeComponent). */
  get elsewhere(): { guildId: string; channelId: string } {
    return { guildId: FIXTURE_IDS.elsewhere.guild, channelId: FIXTURE_IDS.elsewhere.channels.lobby };
  }

  /** A member posts a plain message in a channel (the bot sees it as MESSAGE_CREATE with the GuildMessages intent). */
  postMessage(input: { user: UserRef; channelId: string; content: string }): LocalMessage {
    return this.#actions.postMessage(input);
  }

  /** Resolves with the first message in the channel (existing, new or edited) that matches. */
  waitForMessage(
    channelId: string,
    predicate: (m: LocalMessage) => boolean,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<LocalMessage> {
    const existing = this.#world.messages.find(channelId, predicate);
    if (existing) return Promise.resolve(existing);
    return waitForMessageEvent(
      this.#world.events,
      ['messageCreate', 'messageUpdate'],
      channelId,
      predicate,
      timeoutMs,
      'matching message',
    );
  }

  /** Resolves with the next edit in the channel whose result matches. */
  waitForEdit(
    channelId: string,
    predicate: (m: LocalMessage) => boolean,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<LocalMessage> {
    return waitForMessageEvent(this.#world.events, ['messageUpdate'], channelId, predicate, timeoutMs, 'matching edit');
  }

  /** Drops every gateway socket (code 4000 by default, resumable) so tests can prove the bot resumes. */
  dropGatewayConnections(code = 4000): void {
    this.#gateway.dropConnections(code);
  }

  /** Resolves once a bot has identified on the gateway. */
  async waitForBot(timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.connectedBots === 0) {
      if (Date.now() > deadline)
        throw new Error(`no bot connected to the local Discord gateway within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async close(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    await this.#gateway.close();
    await this.#listening.close();
  }

  toJSON() {
    return { url: this.url, apiUrl: this.apiUrl, applicationId: this.applicationId, guildId: this.guildId };
  }
}

/** Starts the double on 127.0.0.1 (port 0 picks a free one). */
export async function startLocalDiscord(opts: LocalDiscordOptions = {}): Promise<LocalDiscord> {
  const world = new World({
    now: opts.now ?? Date.now,
    ackDeadlineMs: opts.ackDeadlineMs ?? 3000,
    tokenLifetimeMs: opts.tokenLifetimeMs ?? 15 * 60 * 1000,
    shards: opts.shards ?? 1,
    ...(opts.nonceWindowMs === undefined ? {} : { nonceWindowMs: opts.nonceWindowMs }),
  });
  const token = makeBotToken(world.applicationId);
  const router = new Router().add(...applicationRoutes, ...commandRoutesAll, ...interactionRoutes, ...channelRoutes);
  const faults = new FaultInjector();
  const server = createRestServer(world, router, () => token, faults);
  let origin = '';
  const gateway = new GatewayServer(
    server,
    world,
    () => token,
    { heartbeatIntervalMs: opts.heartbeatIntervalMs ?? 41_250 },
    () => gatewayUrl(origin),
  );
  world.dispatch = (event, data) => gateway.dispatch(event, data);
  forwardMessageEvents(world, gateway);
  const host = opts.host ?? '127.0.0.1';
  const listening = await listen(server, opts.port ?? 0, host);
  origin = listening.url;
  return new LocalDiscord(world, listening, gateway, token, faults);
}
