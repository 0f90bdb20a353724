import type { InteractionHandle, LocalMessage } from '../../src/local-discord/index.js';
import { until } from './wait.js';

/** Discord's window for acknowledging an interaction. */
export const ACK_DEADLINE_MS = 3000;

/** Everything a user reads in a message: content, embed text, field names/values, button and menu labels. */
export function textOf(m: Pick<LocalMessage, 'content' | 'embeds' | 'components'> | undefined): string {
  if (!m) return '';
  const parts: string[] = [m.content ?? ''];
  for (const e of m.embeds ?? []) {
    parts.push(e.title ?? '', e.description ?? '', e.author?.name ?? '', e.footer?.text ?? '');
    for (const f of e.fields ?? []) parts.push(f.name, f.value);
  }
  const walk = (items: unknown[]) => {
    for (const c of items as Array<Record<string, unknown>>) {
      if (typeof c.label === 'string') parts.push(c.label);
      if (typeof c.placeholder === 'string') parts.push(c.placeholder);
      if (Array.isArray(c.options)) for (const o of c.options as Array<{ label?: string }>) parts.push(o.label ?? '');
      if (Array.isArray(c.components)) walk(c.components);
    }
  };
  walk((m.components ?? []) as unknown[]);
  return parts.filter(Boolean).join('\n');
}

/** Every custom id of the message's buttons and menus. */
export function customIdsOf(m: LocalMessage): string[] {
  const out: string[] = [];
  const walk = (items: unknown[]) => {
    for (const c of items as Array<Record<string, unknown>>) {
      if (typeof c.custom_id === 'string') out.push(c.custom_id);
      if (Array.isArray(c.components)) walk(c.components);
    }
  };
  walk((m.components ?? []) as unknown[]);
  return out;
}

/** The first button or menu whose label or custom id matches. */
export function findControl(
  m: LocalMessage,
  match: RegExp,
): { customId: string; type: number; options?: Array<{ value: string; label: string }> } | undefined {
  let found: { customId: string; type: number; options?: Array<{ value: string; label: string }> } | undefined;
  const walk = (items: unknown[]) => {
    for (const c of items as Array<Record<string, unknown>>) {
      if (found) return;
      const id = c.custom_id;
      if (typeof id === 'string' && (match.test(String(c.label ?? '')) || match.test(id))) {
        found = {
          customId: id,
          type: Number(c.type),
          ...(Array.isArray(c.options) ? { options: c.options as Array<{ value: string; label: string }> } : {}),
        };
        return;
      }
      if (Array.isArray(c.components)) walk(c.components);
    }
  };
  walk((m.components ?? []) as unknown[]);
  return found;
}

/** Waits for the acknowledgement and checks it came within Discord's 3 s; returns the time taken. */
export async function ackTime(handle: InteractionHandle): Promise<number> {
  const { ms } = await handle.acknowledged;
  if (!(ms < ACK_DEADLINE_MS)) throw new Error(`interaction ${handle.id} acknowledged after ${ms} ms (limit 3000)`);
  return ms;
}

/** Waits until the interaction produced a response whose text matches (edits applied); returns it. */
export function responseMatching(handle: InteractionHandle, match: RegExp, timeoutMs = 10_000): Promise<LocalMessage> {
  return until(`a response matching ${match}`, () => handle.responses().find((m) => match.test(textOf(m))), {
    timeoutMs,
    seen: () => {
      const seen = handle
        .responses()
        .map((m) => JSON.stringify(textOf(m)))
        .join(' | ');
      return `responses so far: ${seen || '(none)'}`;
    },
  });
}

/** The latest text of any response of the interaction (for "what did the user see" checks). */
export function lastResponseText(handle: InteractionHandle): string {
  const all = handle.responses();
  return textOf(all[all.length - 1]);
}
