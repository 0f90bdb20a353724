import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIChannel, APIGuild, APIGuildMember, APIRole, APIUser } from 'discord.js';
import { FIXTURE_IDS, type FixtureChannelName, type FixtureUserName } from './fixtures.js';
import { forwardMessageEvents } from './gateway/message-events.js';
import { GatewayServer } from './gateway/server.js';
import { FaultInjector } from './http/faults.js';
import { Router } from './http/router.js';
import { createRestServer } from './http/server.js';
import { makeBotToken } from './ids.js';
import { buildCommandData, CommandInputError, type OptionInput } from './interactions/command-options.js';
import {
  checkSelectValues,
  currentMessage,
  findComponent,
  type MessageRef,
  modalSubmitComponents,
} from './interactions/components.js';
import { type InteractionHandle, openInteraction } from './interactions/open.js';
import { buildMessage } from './payloads/message.js';
import { applicationRoutes, gatewayUrl } from './rest/application.js';
import { channelRoutes } from './rest/channels.js';
import { commandRoutesAll } from './rest/commands.js';
import { interactionRoutes } from './rest/interactions.js';
import type { RegisteredCommand } from './state/commands.js';
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
}

/** A user as tests name them: a fixture user object or its id. */
export type UserRef = APIUser | string;

const DEFAULT_WAIT_MS = 5000;

/** The running double: REST + gateway on one port, fixtures, and the in-process API tests and the playground use. */
export class LocalDiscord {
  readonly #world: World;
  readonly #server: Server;
  readonly #gateway: GatewayServer;
  readonly #token: string;
  readonly #timers = new Set<NodeJS.Timeout>();
  /** Chaos for REST calls: `ld.faults.inject({ path: '/interactions/', status: 500 })`, `ld.faults.clear()`. */
  readonly faults: FaultInjector;
  readonly url: string;
  readonly apiUrl: string;
  readonly gatewayUrl: string;

  /** @internal use startLocalDiscord() */
  constructor(
    world: World,
    server: Server,
    gateway: GatewayServer,
    token: string,
    origin: string,
    faults: FaultInjector,
  ) {
    this.#world = world;
    this.faults = faults;
    this.#server = server;
    this.#gateway = gateway;
    this.#token = token;
    this.url = origin;
    this.apiUrl = `${origin}/api`;
    this.gatewayUrl = gatewayUrl(origin);
  }

  /** The bot token discord.js logs in with. Not enumerable: it stays out of inspect/JSON output. */
  get token(): string {
    return this.#token;
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

  message(messageId: string): LocalMessage | undefined {
    const m = this.#world.messages.get(messageId);
    return m ? structuredClone(m) : undefined;
  }

  /** A user runs a slash command. Throws when the command is not registered or the options do not fit it. */
  async sendCommand(input: {
    user: UserRef;
    channelId: string;
    name: string;
    options?: OptionInput;
    subcommand?: string;
    subcommandGroup?: string;
  }): Promise<InteractionHandle> {
    const userId = this.#userId(input.user);
    this.#checkChannel(input.channelId);
    const command = this.#command(input.name, userId);
    const data = buildCommandData(this.#world, command, input);
    return openInteraction(
      this.#world,
      { type: 2, userId, channelId: input.channelId, data, commandName: command.name },
      this.#timers,
    ).handle;
  }

  /** A user types into an autocompleted option; resolves with the choices the bot answered. */
  async autocomplete(input: {
    user: UserRef;
    channelId: string;
    name: string;
    options?: OptionInput;
    focused: string;
    subcommand?: string;
    subcommandGroup?: string;
  }): Promise<unknown[]> {
    const userId = this.#userId(input.user);
    this.#checkChannel(input.channelId);
    const command = this.#command(input.name, userId);
    const data = buildCommandData(this.#world, command, input);
    let settleChoices!: (c: unknown[]) => void;
    const choices = new Promise<unknown[]>((resolve) => {
      settleChoices = resolve;
    });
    const { record, handle } = openInteraction(
      this.#world,
      { type: 4, userId, channelId: input.channelId, data, commandName: command.name },
      this.#timers,
    );
    record.settleChoices = settleChoices;
    // Either the bot answers with choices or the acknowledgement deadline passes.
    return Promise.race([choices, handle.acknowledged.then(() => choices)]);
  }

  async clickButton(input: { user: UserRef; message: MessageRef; customId: string }): Promise<InteractionHandle> {
    const userId = this.#userId(input.user);
    const message = currentMessage(this.#world, input.message, userId);
    const button = findComponent(message, input.customId, [2], 'button');
    if (button.style === 5)
      throw new CommandInputError(`"${input.customId}" is a link button: Discord opens its URL, no interaction`);
    const data = {
      custom_id: input.customId,
      component_type: 2,
      ...(typeof button.id === 'number' ? { id: button.id } : {}),
    };
    return openInteraction(this.#world, { type: 3, userId, channelId: message.channel_id, data, message }, this.#timers)
      .handle;
  }

  async selectMenu(input: {
    user: UserRef;
    message: MessageRef;
    customId: string;
    values: string[];
  }): Promise<InteractionHandle> {
    const userId = this.#userId(input.user);
    const message = currentMessage(this.#world, input.message, userId);
    const menu = findComponent(message, input.customId, [3, 5, 6, 7, 8], 'select menu');
    checkSelectValues(menu, input.values);
    const data = { custom_id: input.customId, component_type: menu.type, values: [...input.values] };
    return openInteraction(this.#world, { type: 3, userId, channelId: message.channel_id, data, message }, this.#timers)
      .handle;
  }

  /** A user submits the modal the bot opened for them (the latest one with this custom id). */
  async submitModal(input: {
    user: UserRef;
    channelId: string;
    customId: string;
    fields: Record<string, string>;
    message?: MessageRef;
  }): Promise<InteractionHandle> {
    const userId = this.#userId(input.user);
    this.#checkChannel(input.channelId);
    const opener = this.#world.interactions.findModal(userId, input.customId);
    if (!opener?.modal) {
      throw new CommandInputError(
        `the bot has not opened a modal "${input.customId}" for user ${userId}; trigger it first`,
      );
    }
    const components = modalSubmitComponents(opener.modal, input.fields);
    // A submitted modal closes: submitting it again needs the bot to open it again.
    opener.modal = undefined;
    const messageRef = input.message ?? opener.sourceMessageId;
    const message = messageRef ? currentMessage(this.#world, messageRef, userId) : undefined;
    const data = { custom_id: input.customId, components };
    return openInteraction(
      this.#world,
      { type: 5, userId, channelId: input.channelId, data, ...(message ? { message } : {}) },
      this.#timers,
    ).handle;
  }

  /** A member posts a plain message in a channel (the bot sees it as MESSAGE_CREATE with the GuildMessages intent). */
  postMessage(input: { user: UserRef; channelId: string; content: string }): LocalMessage {
    const userId = this.#userId(input.user);
    this.#checkChannel(input.channelId);
    if (input.content.length === 0 || [...input.content].length > 2000) {
      throw new CommandInputError('a message needs 1 to 2000 characters of content');
    }
    const author = this.#world.user(userId)!;
    const message = buildMessage(this.#world, { channelId: input.channelId, author, body: { content: input.content } });
    const { user: _user, ...member } = this.#world.member(userId)!;
    return structuredClone(this.#world.messages.add({ ...message, member } as LocalMessage));
  }

  /** Resolves with the first message in the channel (existing, new or edited) that matches. */
  waitForMessage(
    channelId: string,
    predicate: (m: LocalMessage) => boolean,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<LocalMessage> {
    const existing = this.#world.messages.list(channelId).find(predicate);
    if (existing) return Promise.resolve(existing);
    return this.#waitFor(['messageCreate', 'messageUpdate'], channelId, predicate, timeoutMs, 'a matching message');
  }

  /** Resolves with the next edit in the channel whose result matches. */
  waitForEdit(
    channelId: string,
    predicate: (m: LocalMessage) => boolean,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<LocalMessage> {
    return this.#waitFor(['messageUpdate'], channelId, predicate, timeoutMs, 'a matching edit');
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
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  toJSON() {
    return { url: this.url, apiUrl: this.apiUrl, applicationId: this.applicationId, guildId: this.guildId };
  }

  #waitFor(
    kinds: ('messageCreate' | 'messageUpdate')[],
    channelId: string,
    predicate: (m: LocalMessage) => boolean,
    timeoutMs: number,
    what: string,
  ): Promise<LocalMessage> {
    return new Promise((resolve, reject) => {
      const listener = (e: { channelId: string; message: LocalMessage }) => {
        if (e.channelId !== channelId || !predicate(e.message)) return;
        done();
        resolve(e.message);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${what} in channel ${channelId} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        for (const k of kinds) this.#world.events.off(k, listener);
      };
      for (const k of kinds) this.#world.events.on(k, listener);
    });
  }

  #userId(user: UserRef): string {
    const id = typeof user === 'string' ? user : user.id;
    if (!this.#world.member(id) || id === this.#world.botUser.id) {
      throw new CommandInputError(
        `user ${id} is not a member of the local guild; use ld.users.admin, .bettor or .viewer`,
      );
    }
    return id;
  }

  #checkChannel(channelId: string): void {
    if (!this.#world.channel(channelId)) {
      throw new CommandInputError(
        `channel ${channelId} does not exist; use ld.channelIds.bets or ld.channelIds.results`,
      );
    }
  }

  #command(name: string, userId: string): RegisteredCommand {
    const command = this.#world.commands.find(this.guildId, name);
    if (!command) {
      throw new CommandInputError(
        `/${name} is not registered, so no user could run it: register it first (PUT /applications/{app}/guilds/{guild}/commands, e.g. client.application.commands.set(...))`,
      );
    }
    // Discord hides a command from members without its default_member_permissions.
    const required = command.default_member_permissions;
    if (typeof required === 'string' && !hasPermissions(this.#world.permissionsOf(userId), BigInt(required))) {
      throw new CommandInputError(
        `/${name} needs permissions ${required} (default_member_permissions) that user ${userId} lacks, so Discord would not offer it to them`,
      );
    }
    return command;
  }
}

function hasPermissions(granted: bigint, required: bigint): boolean {
  return (granted & required) === required;
}

/** Starts the double on 127.0.0.1 (port 0 picks a free one). */
export async function startLocalDiscord(opts: LocalDiscordOptions = {}): Promise<LocalDiscord> {
  const world = new World({
    now: opts.now ?? Date.now,
    ackDeadlineMs: opts.ackDeadlineMs ?? 3000,
    tokenLifetimeMs: opts.tokenLifetimeMs ?? 15 * 60 * 1000,
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return new LocalDiscord(world, server, gateway, token, origin, faults);
}
