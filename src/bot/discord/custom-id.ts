/**
 * Component custom ids: `v1:<scope>:<action>[:<arg>...]`, at most 100 characters (Discord's limit).
 * Versioned so that buttons on old messages keep routing (or are refused clearly) after an upgrade.
 */
export const CUSTOM_ID_VERSION = 'v1';
export const CUSTOM_ID_MAX = 100;

export interface CustomId {
  scope: string;
  action: string;
  args: string[];
}

const PART = /^[A-Za-z0-9_\-./@+=%~]*$/;

export class CustomIdError extends Error {
  override name = 'CustomIdError';
}

export function encodeCustomId(scope: string, action: string, ...args: Array<string | number>): string {
  const parts = [CUSTOM_ID_VERSION, scope, action, ...args.map(String)];
  for (const p of parts) {
    if (!PART.test(p)) throw new CustomIdError(`custom id part "${p}" has a character outside [A-Za-z0-9_-./@+=%~]`);
  }
  const id = parts.join(':');
  if (id.length > CUSTOM_ID_MAX) throw new CustomIdError(`custom id is ${id.length} characters; Discord allows 100`);
  return id;
}

/** Undefined for ids of another version or shape (an old message's button, a foreign component). */
export function decodeCustomId(id: string): CustomId | undefined {
  const parts = id.split(':');
  if (parts.length < 3 || parts[0] !== CUSTOM_ID_VERSION) return undefined;
  const [, scope, action, ...args] = parts;
  if (!scope || !action) return undefined;
  return { scope, action, args };
}

/** Makes free text (a league key, a name) safe as one custom id part. */
export function safeArg(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function unsafeArg(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** A page or index argument of a custom id: a non-negative integer, 0 when missing or unreadable. */
export const pageArg = (s: string | undefined): number => Math.max(0, Number.parseInt(s ?? '0', 10) || 0);
