import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApplicationCommandType } from 'discord-api-types/v10';
import { z } from 'zod';
import { BodyTooLarge, readBody } from '../../http/body.js';
import { sendJson as sendJsonReply } from '../../http/reply.js';
import { memberPermissions } from '../permissions.js';
import type { LiveEvents } from './live-events.js';
import type {
  ApplicationCommandLike,
  DiscordMessageLike,
  InteractionHandle,
  Persona,
  PlaygroundDiscord,
} from './types.js';
import { PERSONAS } from './types.js';
import { isVisibleTo } from './visibility.js';

const MAX_BODY = 64 * 1024;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const persona = z.enum(PERSONAS as [Persona, ...Persona[]], {
  error: `"as" must be one of ${PERSONAS.join(', ')} (the user you act as)`,
});
const channelId = z.string({ error: '"channelId" is required: the channel you act in' }).min(1);
const optionValue = z.union([z.string(), z.number(), z.boolean()]);
const option = z.object({ name: z.string().min(1), type: z.number().int().optional(), value: optionValue });

const commandBody = z.object({
  as: persona,
  channelId,
  name: z.string({ error: '"name" is required: the slash command to run' }).min(1),
  subcommand: z.string().min(1).optional(),
  options: z.array(option).default([]),
});
const autocompleteBody = commandBody.extend({
  focused: z.string({ error: '"focused" is required: the option being typed' }).min(1),
});
const clickBody = z.object({
  as: persona,
  channelId,
  messageId: z.string({ error: '"messageId" is required' }).min(1),
  customId: z.string({ error: '"customId" is required' }).min(1),
});
const selectBody = clickBody.extend({ values: z.array(z.string()).min(1, '"values" needs at least one value') });
const modalBody = z.object({
  as: persona,
  channelId,
  customId: z.string({ error: '"customId" is required' }).min(1),
  fields: z.record(z.string(), z.string()),
  messageId: z.string().min(1).optional(),
});

/** The playground's JSON API: every route acts as one of the fixture users through the double. */
export class PlaygroundApi {
  constructor(
    private readonly ld: PlaygroundDiscord,
    private readonly live: LiveEvents,
    /** Whether the Sandbox panel's routes work (the embedded sandbox with its control routes). */
    private readonly sandboxControls = false,
    /** This start's id (see LiveEvents): the page compares it across reconnects. */
    private readonly runId = '',
    /** The embedded sandbox's address, shown in the panel: its /_sandbox routes do what no button does. */
    private readonly sandboxUrl = '',
  ) {}

  state() {
    const { users, channelIds, guild } = this.ld;
    return {
      title: 'Offline playground: a local Discord double, the sandbox gateway and the real bot',
      runId: this.runId,
      guild: { id: guild.id, name: guild.name ?? 'Local guild' },
      personas: PERSONAS.map((key) => ({
        key,
        id: users[key].id,
        username: users[key].global_name ?? users[key].username,
        // The page hides commands a persona lacks the default_member_permissions for, as Discord does.
        permissions: this.#permissionsOf(users[key].id).toString(),
      })),
      channels: [
        { id: channelIds.bets, name: 'bets' },
        { id: channelIds.results, name: 'results' },
        { id: channelIds.alerts, name: 'alerts' },
      ],
      // For role mentions and the role picker, highest first (@everyone last) as Discord lists them.
      roles: [...this.ld.roles].sort((a, b) => b.position - a.position).map((r) => ({ id: r.id, name: r.name })),
      commands: this.commands(),
      sandbox: this.sandboxControls,
      ...(this.sandboxControls && this.sandboxUrl ? { sandboxUrl: this.sandboxUrl } : {}),
    };
  }

  /** Guild commands first (what the bot deploys here), then global ones not shadowed by name. */
  commands(): ApplicationCommandLike[] {
    const seen = new Set<string>();
    const all: ApplicationCommandLike[] = [];
    for (const cmd of [...this.ld.commands(this.ld.guild.id), ...this.ld.commands()]) {
      if ((cmd.type ?? ApplicationCommandType.ChatInput) !== ApplicationCommandType.ChatInput || seen.has(cmd.name))
        continue;
      seen.add(cmd.name);
      all.push(cmd);
    }
    return all.sort((a, b) => a.name.localeCompare(b.name));
  }

  #permissionsOf(userId: string): bigint {
    const member = this.ld.members.find((m) => m.user?.id === userId);
    return memberPermissions(this.ld.guild.id, member?.roles ?? [], this.ld.roles);
  }

  messages(channel: string | null, as: string | null): DiscordMessageLike[] {
    const user = this.#user(persona.parse(as));
    return this.ld.messages(this.#channel(channel)).filter((m) => isVisibleTo(m, user.id));
  }

  async command(body: unknown) {
    const b = commandBody.parse(body);
    this.#requireCommand(b.name);
    const user = this.#user(b.as);
    const ix = await this.ld.sendCommand({
      user,
      channelId: this.#channel(b.channelId),
      name: b.name,
      options: b.options.map(({ name, value }) => ({ name, value })),
      ...(b.subcommand ? { subcommand: b.subcommand } : {}),
    });
    return this.#watch(ix, user.id);
  }

  async autocomplete(body: unknown) {
    const b = autocompleteBody.parse(body);
    this.#requireCommand(b.name);
    const choices = await this.ld.autocomplete({
      user: this.#user(b.as),
      channelId: this.#channel(b.channelId),
      name: b.name,
      options: b.options.map(({ name, value }) => ({ name, value })),
      focused: b.focused,
      ...(b.subcommand ? { subcommand: b.subcommand } : {}),
    });
    return { choices: Array.isArray(choices) ? choices : [] };
  }

  async click(body: unknown) {
    const b = clickBody.parse(body);
    const user = this.#user(b.as);
    const message = this.#message(b.channelId, b.messageId, user.id);
    return this.#watch(await this.ld.clickButton({ user, message: message.id, customId: b.customId }), user.id);
  }

  async select(body: unknown) {
    const b = selectBody.parse(body);
    const user = this.#user(b.as);
    const message = this.#message(b.channelId, b.messageId, user.id);
    const ix = await this.ld.selectMenu({ user, message: message.id, customId: b.customId, values: b.values });
    return this.#watch(ix, user.id);
  }

  async modal(body: unknown) {
    const b = modalBody.parse(body);
    const user = this.#user(b.as);
    const channel = this.#channel(b.channelId);
    const message = b.messageId ? this.#message(channel, b.messageId, user.id) : undefined;
    const ix = await this.ld.submitModal({
      user,
      channelId: channel,
      customId: b.customId,
      fields: b.fields,
      ...(message ? { message: message.id } : {}),
    });
    return this.#watch(ix, user.id);
  }

  userId(as: string | null): string {
    return this.#user(persona.parse(as)).id;
  }

  #user(key: Persona) {
    return this.ld.users[key];
  }

  #channel(id: string | null): string {
    const known = Object.values(this.ld.channelIds);
    if (!id || !known.includes(id)) {
      throw new ApiError(400, `Unknown channel "${id ?? ''}": use one of ${known.join(', ')} (see GET /api/state).`);
    }
    return id;
  }

  #message(channelId: string, messageId: string, userId: string): DiscordMessageLike {
    const found = this.ld.messages(this.#channel(channelId)).find((m) => m.id === messageId);
    if (!found || !isVisibleTo(found, userId)) {
      throw new ApiError(404, `No message ${messageId} in that channel for this user: reload the page.`);
    }
    return found;
  }

  #requireCommand(name: string): void {
    if (!this.commands().some((c) => c.name === name)) {
      throw new ApiError(404, `Unknown command /${name}: the bot has not registered it. Pick one from the list.`);
    }
  }

  /** Answers at once; if the bot never acknowledges, the page hears about it as Discord would say it. */
  #watch(ix: InteractionHandle, userId: string) {
    ix.acknowledged.catch(() => {
      this.live.notify(userId, 'failed', {
        interactionId: ix.id,
        message: 'This interaction failed: the bot did not answer within 3 seconds.',
      });
    });
    return { id: ix.id };
  }
}

/** Reads a JSON body of bounded size; a clear 400 for anything else. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  let raw: Buffer;
  try {
    raw = await readBody(req, MAX_BODY);
  } catch (err) {
    if (err instanceof BodyTooLarge) throw new ApiError(413, `Request body over ${MAX_BODY} bytes.`);
    throw err;
  }
  if (raw.length === 0) throw new ApiError(400, 'Send a JSON body (Content-Type: application/json).');
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError(400, 'The body is not valid JSON.');
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendJsonReply(res, status, body, { 'cache-control': 'no-store' });
}

/** Formats a zod failure as one sentence naming the fields to fix. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}
