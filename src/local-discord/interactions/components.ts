import type { World } from '../state/world.js';
import type { LocalMessage } from '../types.js';
import { flattenComponents } from '../validation/components.js';
import { CommandInputError } from './command-options.js';

type Json = Record<string, unknown>;

/** A message as callers name it: the stored message, anything with its id, or the id. */
export type MessageRef = { id: string } | string;

/** The message as the user sees it now; a user cannot click on someone else's ephemeral reply. */
export function currentMessage(world: World, message: MessageRef, userId: string): LocalMessage {
  const id = typeof message === 'string' ? message : message.id;
  const current = world.messages.get(id);
  if (!current) throw new CommandInputError(`message ${id} does not exist (deleted?)`);
  if (current.visibleTo !== null && current.visibleTo !== userId) {
    throw new CommandInputError(`message ${id} is ephemeral and only visible to user ${current.visibleTo}`);
  }
  return current;
}

export function findComponent(message: LocalMessage, customId: string, kinds: number[], what: string): Json {
  const all = flattenComponents(message.components);
  const component = all.find((c) => c.custom_id === customId);
  if (!component) {
    const ids = all.filter((c) => typeof c.custom_id === 'string').map((c) => c.custom_id);
    throw new CommandInputError(
      `message ${message.id} has no component "${customId}"; it has: ${ids.join(', ') || 'none'}`,
    );
  }
  if (!kinds.includes(Number(component.type))) {
    throw new CommandInputError(`component "${customId}" is not a ${what} (type ${String(component.type)})`);
  }
  if (component.disabled === true)
    throw new CommandInputError(`component "${customId}" is disabled; a user cannot use it`);
  return component;
}

/** The values a user could pick in a select menu, checked against its options and min/max. */
export function checkSelectValues(component: Json, values: string[]): void {
  const min = typeof component.min_values === 'number' ? component.min_values : 1;
  const max = typeof component.max_values === 'number' ? component.max_values : 1;
  if (values.length < min || values.length > max) {
    throw new CommandInputError(
      `select "${String(component.custom_id)}" takes ${min} to ${max} values, got ${values.length}`,
    );
  }
  if (component.type === 3) {
    const allowed = ((component.options ?? []) as Json[]).map((o) => o.value);
    const bad = values.filter((v) => !allowed.includes(v));
    if (bad.length > 0)
      throw new CommandInputError(
        `select "${String(component.custom_id)}" has no option ${bad.join(', ')}; options: ${allowed.join(', ')}`,
      );
  }
}

/**
 * Builds a modal submit's `components` from the modal the bot opened, in the same layout (action rows or
 * labels), and checks required inputs and lengths the way the Discord client would before sending.
 */
export function modalSubmitComponents(modal: Json, fields: Record<string, string>): Json[] {
  const known = new Set<string>();
  const input = (c: Json): Json => {
    const id = String(c.custom_id);
    known.add(id);
    const value = fields[id] ?? '';
    const required = c.required !== false;
    if (required && value === '') throw new CommandInputError(`modal field "${id}" is required`);
    if (typeof c.min_length === 'number' && value !== '' && value.length < c.min_length) {
      throw new CommandInputError(`modal field "${id}" needs at least ${c.min_length} characters`);
    }
    if (typeof c.max_length === 'number' && value.length > c.max_length) {
      throw new CommandInputError(`modal field "${id}" allows at most ${c.max_length} characters`);
    }
    return { type: c.type, id: c.id, custom_id: id, value };
  };
  const rows = ((modal.components ?? []) as Json[]).flatMap((row): Json[] => {
    if (row.type === 18 && row.component) return [{ type: 18, id: row.id, component: input(row.component as Json) }];
    if (row.type === 1) return [{ type: 1, id: row.id, components: ((row.components ?? []) as Json[]).map(input) }];
    return [];
  });
  const unknown = Object.keys(fields).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    throw new CommandInputError(
      `modal "${String(modal.custom_id)}" has no field ${unknown.join(', ')}; fields: ${[...known].join(', ')}`,
    );
  }
  return JSON.parse(JSON.stringify(rows)) as Json[];
}
