import type { Logger } from '../config/logger.js';

/** Shutdown steps, run last-first; one that fails is logged and the rest still run. */
export class Stops {
  readonly #steps: Array<() => Promise<void> | void> = [];
  constructor(private readonly logger: Pick<Logger, 'warn'>) {}
  push(step: () => Promise<void> | void): void {
    this.#steps.push(step);
  }
  /** Runs `fn` every `ms` (never keeping the process alive) until shutdown; a failed run is logged. */
  every(ms: number, what: string, fn: () => Promise<unknown>): void {
    const timer = setInterval(() => void fn().catch((err) => this.logger.warn(`${what} failed`, { err })), ms);
    timer.unref();
    this.push(() => clearInterval(timer));
  }
  async run(): Promise<void> {
    for (const s of this.#steps.reverse()) {
      try {
        await s();
      } catch (err) {
        this.logger.warn('shutdown step failed', { err });
      }
    }
    this.#steps.length = 0;
  }
}
