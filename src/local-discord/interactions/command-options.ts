import { ApplicationCommandOptionType } from 'discord-api-types/v10';
import type { RegisteredCommand } from '../state/commands.js';
import type { World } from '../state/world.js';

type Json = Record<string, unknown>;

type OptionValue = string | number | boolean;

/**
 * Option values as a test writes them: `{ league: 'nba', stake: 5 }`, or Discord's `[{ name, value }]` (an entry
 * without a value counts as not given; `type` and `focused` are taken from the command and `focused` input).
 */
export type OptionInput =
  | Record<string, OptionValue>
  | { name: string; value?: OptionValue; type?: number; focused?: boolean }[];

export class CommandInputError extends Error {
  override name = 'CommandInputError';
}

function entries(options: OptionInput | undefined): [string, OptionValue][] {
  if (!options) return [];
  if (Array.isArray(options)) {
    return options.flatMap((o): [string, OptionValue][] => (o.value === undefined ? [] : [[o.name, o.value]]));
  }
  return Object.entries(options);
}

/**
 * Builds `data` for a chat-input command (or its autocomplete) the way the Discord client would: typed options
 * under the subcommand, `resolved` users/members/channels/roles, and checks the registered definition so a test
 * cannot send what a user could not.
 */
export function buildCommandData(
  world: World,
  command: RegisteredCommand,
  input: { options?: OptionInput; subcommand?: string; subcommandGroup?: string; focused?: string },
  /** A modified client's payload: option values go as given (any JSON), unchecked against type, range or choices. */
  unchecked = false,
): Json {
  let defs = (command.options ?? []) as Json[];
  const path: Json[] = [];
  for (const [kind, name] of [
    [ApplicationCommandOptionType.SubcommandGroup, input.subcommandGroup],
    [ApplicationCommandOptionType.Subcommand, input.subcommand],
  ] as const) {
    if (name === undefined) continue;
    const def = defs.find((d) => d.type === kind && d.name === name);
    if (!def)
      throw new CommandInputError(
        `/${command.name} has no ${kind === 1 ? 'subcommand' : 'subcommand group'} "${name}"`,
      );
    path.push({ type: kind, name, options: [] });
    defs = (def.options ?? []) as Json[];
  }
  if (
    path.length === 0 &&
    defs.some(
      (d) =>
        d.type === ApplicationCommandOptionType.Subcommand || d.type === ApplicationCommandOptionType.SubcommandGroup,
    )
  ) {
    const names = defs.map((d) => d.name).join(', ');
    throw new CommandInputError(`/${command.name} needs a subcommand: pass subcommand (one of ${names})`);
  }
  const resolved: Record<string, Json> = {};
  const values: Json[] = [];
  const given = entries(input.options);
  for (const [name, value] of given) {
    const def = defs.find((d) => d.name === name);
    if (!def) {
      throw new CommandInputError(
        `/${command.name} has no option "${name}"; options: ${defs.map((d) => d.name).join(', ') || 'none'}`,
      );
    }
    if (unchecked) {
      values.push({ name, type: def.type, value });
    } else if (input.focused === undefined) {
      values.push({ name, type: def.type, value: coerce(command.name, def, value, world, resolved) });
    } else if (input.focused === name) {
      // The option being typed is not validated: its text goes as it stands, an empty or half-typed number too.
      values.push({ name, type: def.type, value: String(value), focused: true });
    } else {
      const checked = autocompleteValue(command.name, def, value, world, resolved);
      if (checked !== undefined) values.push({ name, type: def.type, value: checked });
    }
  }
  if (input.focused === undefined) {
    for (const def of defs) {
      if (def.required === true && !given.some(([n]) => n === def.name)) {
        throw new CommandInputError(`/${command.name} option "${String(def.name)}" is required`);
      }
    }
  } else if (!given.some(([n]) => n === input.focused)) {
    throw new CommandInputError(`focused option "${input.focused}" must be among the options with its partial value`);
  }
  let options: Json[] = values;
  for (const level of [...path].reverse()) {
    level.options = options;
    options = [level];
  }
  return {
    id: command.id,
    name: command.name,
    type: command.type,
    ...(command.guild_id ? { guild_id: command.guild_id } : {}),
    options,
    ...(Object.keys(resolved).length > 0 ? { resolved } : {}),
  };
}

/**
 * What Discord sends for an option that is not focused in an autocomplete interaction: it is validated as the
 * command's option would be (a typed "100" reads as the number 100, within min/max), an option that fails is
 * left out rather than refused, and numbers go as strings (discord-api-docs#4358, discord-api-types#1175).
 */
function autocompleteValue(
  commandName: string,
  def: Json,
  value: OptionValue,
  world: World,
  resolved: Record<string, Json>,
): OptionValue | undefined {
  const type = Number(def.type);
  const numeric = type === ApplicationCommandOptionType.Integer || type === ApplicationCommandOptionType.Number;
  let typed: OptionValue = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (numeric && /^-?(\d+\.?\d*|\.\d+)$/.test(text)) typed = Number(text);
    else if (type === ApplicationCommandOptionType.Boolean && (text === 'true' || text === 'false'))
      typed = text === 'true';
  }
  const scratch: Record<string, Json> = {};
  let checked: OptionValue;
  try {
    checked = coerce(commandName, def, typed, world, scratch);
  } catch (err) {
    if (err instanceof CommandInputError) return undefined;
    throw err;
  }
  if (numeric && !withinBounds(def, Number(checked))) return undefined;
  if (type === ApplicationCommandOptionType.String && !withinLength(def, String(checked))) return undefined;
  for (const [kind, entries] of Object.entries(scratch)) Object.assign(bucket(resolved, kind), entries);
  return numeric ? String(checked) : checked;
}

function withinBounds(def: Json, n: number): boolean {
  return !(
    (typeof def.min_value === 'number' && n < def.min_value) ||
    (typeof def.max_value === 'number' && n > def.max_value)
  );
}

function withinLength(def: Json, s: string): boolean {
  return !(
    (typeof def.min_length === 'number' && s.length < def.min_length) ||
    (typeof def.max_length === 'number' && s.length > def.max_length)
  );
}

function coerce(
  commandName: string,
  def: Json,
  value: string | number | boolean,
  world: World,
  resolved: Record<string, Json>,
) {
  const where = `/${commandName} option "${String(def.name)}"`;
  const type = Number(def.type);
  const fail = (what: string) => new CommandInputError(`${where} expects ${what}, got ${JSON.stringify(value)}`);
  const choices = Array.isArray(def.choices) ? (def.choices as Json[]) : null;
  if (choices && !choices.some((c) => c.value === value)) {
    throw new CommandInputError(
      `${where} must be one of its choices: ${choices.map((c) => JSON.stringify(c.value)).join(', ')}`,
    );
  }
  switch (type) {
    case ApplicationCommandOptionType.String:
      if (typeof value !== 'string') throw fail('a string');
      return value;
    case ApplicationCommandOptionType.Integer:
      if (typeof value !== 'number' || !Number.isInteger(value)) throw fail('an integer');
      return value;
    case ApplicationCommandOptionType.Number:
      if (typeof value !== 'number' || !Number.isFinite(value)) throw fail('a number');
      return value;
    case ApplicationCommandOptionType.Boolean:
      if (typeof value !== 'boolean') throw fail('a boolean');
      return value;
    case ApplicationCommandOptionType.User:
    case ApplicationCommandOptionType.Mentionable: {
      const id = String(value);
      const user = world.user(id);
      const role = type === ApplicationCommandOptionType.Mentionable ? world.role(id) : undefined;
      if (!user && !role) throw fail('a fixture user id');
      if (user) {
        bucket(resolved, 'users')[id] = user;
        const member = world.member(id);
        if (member) {
          const { user: _user, ...rest } = member;
          bucket(resolved, 'members')[id] = { ...rest, permissions: world.permissionsOf(id).toString() };
        }
      } else if (role) bucket(resolved, 'roles')[id] = role;
      return id;
    }
    case ApplicationCommandOptionType.Channel: {
      const channel = world.channel(String(value));
      if (!channel) throw fail('a fixture channel id');
      bucket(resolved, 'channels')[channel.id] = {
        ...channel,
        permissions: world.permissionsOf(world.botUser.id).toString(),
      };
      return channel.id;
    }
    case ApplicationCommandOptionType.Role: {
      const role = world.role(String(value));
      if (!role) throw fail('a fixture role id');
      bucket(resolved, 'roles')[role.id] = role;
      return role.id;
    }
    default:
      throw new CommandInputError(`${where}: option type ${type} cannot be sent from the local Discord`);
  }
}

/** The map for one kind of resolved object (users, members, channels, roles), created on first use. */
function bucket(resolved: Record<string, Json>, kind: string): Json {
  resolved[kind] ??= {};
  return resolved[kind];
}
