import type { APIUser } from 'discord.js';
import { buildMessage } from '../payloads/message.js';
import type { RegisteredCommand } from '../state/commands.js';
import type { World } from '../state/world.js';
import type { LocalMessage } from '../types.js';
import { buildCommandData, CommandInputError, type OptionInput } from './command-options.js';
import {
  checkSelectValues,
  currentMessage,
  findComponent,
  type MessageRef,
  modalSubmitComponents,
} from './components.js';
import { type InteractionHandle, openInteraction } from './open.js';

/** A user as tests name them: a fixture user object or its id. */
export type UserRef = APIUser | string;

/**
 * What a member can do in the Discord client, and nothing more: run registered commands they may see, type
 * into autocomplete, click and pick on messages they can see, submit the modal the bot opened, post a message.
 */
export class UserActions {
  constructor(
    private readonly world: World,
    private readonly timers: Set<NodeJS.Timeout>,
  ) {}

  /** A user runs a slash command. Throws when the command is not registered or the options do not fit it. */
  async sendCommand(input: {
    user: UserRef;
    channelId: string;
    name: string;
    options?: OptionInput;
    subcommand?: string;
    subcommandGroup?: string;
    /** forgeCommand: the option values go unchecked, as a modified client may send them. */
    unchecked?: boolean;
  }): Promise<InteractionHandle> {
    const userId = this.#userId(input.user);
    this.#checkChannel(input.channelId);
    const command = this.#command(input.name, userId);
    const data = buildCommandData(this.world, command, input, input.unchecked === true);
    return openInteraction(
      this.world,
      { type: 2, userId, channelId: input.channelId, data, commandName: command.name },
      this.timers,
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
    const data = buildCommandData(this.world, command, input);
    let settleChoices!: (c: unknown[]) => void;
    const choices = new Promise<unknown[]>((resolve) => {
      settleChoices = resolve;
    });
    const { record, handle } = openInteraction(
      this.world,
      { type: 4, userId, channelId: input.channelId, data, commandName: command.name },
      this.timers,
    );
    record.settleChoices = settleChoices;
    // Either the bot answers with choices or the acknowledgement deadline passes.
    return Promise.race([choices, handle.acknowledged.then(() => choices)]);
  }

  async clickButton(input: { user: UserRef; message: MessageRef; customId: string }): Promise<InteractionHandle> {
    const userId = this.#userId(input.user);
    const message = currentMessage(this.world, input.message, userId);
    const button = findComponent(message, input.customId, [2], 'button');
    if (button.style === 5)
      throw new CommandInputError(`"${input.customId}" is a link button: Discord opens its URL, no interaction`);
    const data = {
      custom_id: input.customId,
      component_type: 2,
      ...(typeof button.id === 'number' ? { id: button.id } : {}),
    };
    return openInteraction(this.world, { type: 3, userId, channelId: message.channel_id, data, message }, this.timers)
      .handle;
  }

  async selectMenu(input: {
    user: UserRef;
    message: MessageRef;
    customId: string;
    values: string[];
  }): Promise<InteractionHandle> {
    const userId = this.#userId(input.user);
    const message = currentMessage(this.world, input.message, userId);
    const menu = findComponent(message, input.customId, [3, 5, 6, 7, 8], 'select menu');
    checkSelectValues(menu, input.values);
    const data = { custom_id: input.customId, component_type: menu.type, values: [...input.values] };
    return openInteraction(this.world, { type: 3, userId, channelId: message.channel_id, data, message }, this.timers)
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
    const opener = this.world.interactions.findModal(userId, input.customId);
    if (!opener?.modal) {
      throw new CommandInputError(
        `the bot has not opened a modal "${input.customId}" for user ${userId}; trigger it first`,
      );
    }
    const components = modalSubmitComponents(opener.modal, input.fields);
    // A submitted modal closes: submitting it again needs the bot to open it again.
    opener.modal = undefined;
    const messageRef = input.message ?? opener.sourceMessageId;
    const message = messageRef ? currentMessage(this.world, messageRef, userId) : undefined;
    const data = { custom_id: input.customId, components };
    return openInteraction(
      this.world,
      { type: 5, userId, channelId: input.channelId, data, ...(message ? { message } : {}) },
      this.timers,
    ).handle;
  }

  /** A member posts a plain message in a channel (the bot sees it as MESSAGE_CREATE with the GuildMessages intent). */
  postMessage(input: { user: UserRef; channelId: string; content: string }): LocalMessage {
    const userId = this.#userId(input.user);
    this.#checkChannel(input.channelId);
    if (input.content.length === 0 || [...input.content].length > 2000) {
      throw new CommandInputError('a message needs 1 to 2000 characters of content');
    }
    const author = this.world.user(userId)!;
    const message = buildMessage(this.world, { channelId: input.channelId, author, body: { content: input.content } });
    const { user: _user, ...member } = this.world.member(userId)!;
    return structuredClone(this.world.messages.add({ ...message, member } as LocalMessage));
  }

  #userId(user: UserRef): string {
    const id = typeof user === 'string' ? user : user.id;
    if (!this.world.member(id) || id === this.world.botUser.id) {
      throw new CommandInputError(
        `user ${id} is not a member of the local guild; use ld.users.admin, .bettor or .viewer`,
      );
    }
    return id;
  }

  #checkChannel(channelId: string): void {
    if (!this.world.channel(channelId)) {
      throw new CommandInputError(
        `channel ${channelId} does not exist; use ld.channelIds.bets or ld.channelIds.results`,
      );
    }
  }

  #command(name: string, userId: string): RegisteredCommand {
    const command = this.world.commands.find(this.world.guildId, name);
    if (!command) {
      throw new CommandInputError(
        `/${name} is not registered, so no user could run it: register it first (PUT /applications/{app}/guilds/{guild}/commands, e.g. client.application.commands.set(...))`,
      );
    }
    // Discord hides a command from members without its default_member_permissions.
    const required = command.default_member_permissions;
    if (typeof required === 'string' && !hasPermissions(this.world.permissionsOf(userId), BigInt(required))) {
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
