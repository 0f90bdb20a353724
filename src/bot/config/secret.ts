import { inspect } from 'node:util';

const HIDDEN = '[redacted]';

/** A credential that cannot be printed by accident: String(), JSON, util.inspect and template strings all hide it. */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The real value, for the one place that must send it (a header, a login). */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return HIDDEN;
  }

  toJSON(): string {
    return HIDDEN;
  }

  [inspect.custom](): string {
    return `Secret(${HIDDEN})`;
  }
}
