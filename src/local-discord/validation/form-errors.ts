import { DiscordApiError } from '../api-error.js';

export type Path = readonly (string | number)[];

/**
 * Collects field errors in Discord's nested shape: `{ embeds: { 0: { title: { _errors: [{ code, message }] } } } }`,
 * so a DiscordAPIError in discord.js prints the same paths a real server would.
 */
export class FormErrors {
  readonly #root: Record<string, unknown> = {};
  #count = 0;

  add(path: Path, code: string, message: string): void {
    let node = this.#root;
    for (const key of path) {
      const k = String(key);
      node[k] ??= {};
      node = node[k] as Record<string, unknown>;
    }
    node._errors ??= [];
    (node._errors as { code: string; message: string }[]).push({ code, message });
    this.#count++;
  }

  maxLength(path: Path, value: unknown, max: number): void {
    if (typeof value === 'string' && [...value].length > max) {
      this.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
    }
  }

  lengthBetween(path: Path, value: unknown, min: number, max: number): void {
    if (typeof value !== 'string') {
      this.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
      return;
    }
    const n = [...value].length;
    if (n < min || n > max) this.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
  }

  required(path: Path, value: unknown): boolean {
    if (value === undefined || value === null || value === '') {
      this.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
      return false;
    }
    return true;
  }

  maxItems(path: Path, value: unknown, max: number): void {
    if (Array.isArray(value) && value.length > max) {
      this.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
    }
  }

  get empty(): boolean {
    return this.#count === 0;
  }

  /** Throws Discord's 50035 when anything was collected. */
  throwIfAny(): void {
    if (!this.empty) throw new DiscordApiError(400, 50035, 'Invalid Form Body', this.#root);
  }
}

export function len(value: unknown): number {
  return typeof value === 'string' ? [...value].length : 0;
}
