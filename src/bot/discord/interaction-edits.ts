import type { Client } from 'discord.js';

/**
 * The interaction tokens that can edit a message (decision 2030). A button pressed on a message and answered with
 * an update (deferred or not) leaves a token whose `@original` is that message for 15 minutes: an edit sent with it
 * goes through the interaction's webhook, outside the bot token's global limit and its channel's one queue in
 * discord.js, where a bet's "submitted" edit and its receipt otherwise wait behind every other bet's edits.
 * In memory only: after a restart, or once the token is too old, edits go through the bot token as before.
 */

/** Discord keeps an interaction's token for 15 minutes from its creation; a minute is left for skew and sending. */
export const TOKEN_LIFE_MS = 14 * 60_000;

/** A token an update answer proved can edit the message (the interaction's original is the message pressed). */
export interface EditToken {
  applicationId: string;
  token: string;
}

interface Pressed extends EditToken {
  messageId: string;
  at: number;
}

/** Callback types that make the pressed message the interaction's original: DeferredMessageUpdate, UpdateMessage. */
const UPDATE_CALLBACKS = new Set([6, 7]);

export class InteractionEdits {
  /** Presses not yet acknowledged, by interaction id. */
  readonly #pressed = new Map<string, Pressed>();
  /** Live tokens by message id, oldest first (a Map keeps insertion order; a newer press re-inserts). */
  readonly #byMessage = new Map<string, Pressed>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** A component interaction on a message reached the desk. */
  pressed(interactionId: string, messageId: string, applicationId: string, token: string): void {
    this.#pressed.set(interactionId, { messageId, applicationId, token, at: this.now() });
  }

  /** The interaction's callback was accepted with this type: an update answer makes its token the message's. */
  acknowledged(interactionId: string, callbackType: number | undefined): void {
    const p = this.#pressed.get(interactionId);
    if (!p) return;
    this.#pressed.delete(interactionId);
    if (callbackType === undefined || !UPDATE_CALLBACKS.has(callbackType)) return;
    this.#byMessage.delete(p.messageId);
    this.#byMessage.set(p.messageId, p);
    this.#sweep();
  }

  /** Handling ended: a press never acknowledged is forgotten. */
  finished(interactionId: string): void {
    this.#pressed.delete(interactionId);
  }

  /** A live token that edits this message, if a press left one. */
  tokenFor(messageId: string): EditToken | undefined {
    const p = this.#byMessage.get(messageId);
    if (!p) return undefined;
    if (this.now() - p.at < TOKEN_LIFE_MS) return { applicationId: p.applicationId, token: p.token };
    this.#byMessage.delete(messageId);
    return undefined;
  }

  /** Discord refused the token (expired, unknown): the message's edits go through the bot token again. */
  refused(messageId: string, token: string): void {
    if (this.#byMessage.get(messageId)?.token === token) this.#byMessage.delete(messageId);
  }

  get size(): number {
    return this.#byMessage.size + this.#pressed.size;
  }

  /** Drops expired tokens from the front (oldest first), so the map holds 15 minutes of presses at most. */
  #sweep(): void {
    const now = this.now();
    for (const [messageId, p] of this.#byMessage) {
      if (now - p.at < TOKEN_LIFE_MS) break;
      this.#byMessage.delete(messageId);
    }
  }
}

const ofClient = new WeakMap<Client, InteractionEdits>();

/** The tokens kept for this client's messages (botClient makes them; a client made elsewhere has none). */
export function interactionEditsOf(client: Client): InteractionEdits | undefined {
  return ofClient.get(client);
}

export function keepInteractionEdits(client: Client, edits: InteractionEdits): void {
  ofClient.set(client, edits);
}

/** The callback type of an interaction callback's JSON body (`{"type":6}`), read without parsing the whole body. */
export function callbackTypeOf(body: unknown): number | undefined {
  if (typeof body !== 'string') return undefined;
  const m = /^\s*\{\s*"type"\s*:\s*(\d+)/.exec(body.slice(0, 40));
  return m ? Number(m[1]) : undefined;
}
