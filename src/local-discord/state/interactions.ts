/** What the double remembers about one interaction it dispatched: who, where, and how it was answered. */
export interface InteractionRecord {
  id: string;
  token: string;
  /** 2 command, 3 component, 4 autocomplete, 5 modal submit. */
  type: number;
  channelId: string;
  guildId: string;
  userId: string;
  /** Clock time of dispatch: the 3 s and 15 min windows count from here. */
  createdAt: number;
  commandName?: string;
  /** The message a component (or a modal opened from one) sits on. */
  sourceMessageId?: string;
  ack: { type: number; at: number } | null;
  /** The message `@original` names: the reply, the deferred placeholder, or the component's message. */
  originalMessageId: string | null;
  followUpIds: string[];
  modal?: Record<string, unknown>;
  /** The last callback the double refused (e.g. `50035 Invalid Form Body`), named when the deadline passes. */
  lastRefusal?: string;
  settleAck(result: { type: number; ms: number }): void;
  failAck(error: Error): void;
  /** Resolved by an autocomplete result (callback type 8). */
  settleChoices?(choices: unknown[]): void;
}

/** Interactions by id and by token; tokens let the webhook routes find theirs without bot auth. */
export class InteractionRegistry {
  readonly #byId = new Map<string, InteractionRecord>();
  readonly #byToken = new Map<string, InteractionRecord>();

  add(record: InteractionRecord): void {
    this.#byId.set(record.id, record);
    this.#byToken.set(record.token, record);
  }

  /** Forgets interactions created before `cutoff`: their tokens are dead, so nothing can reach them. */
  prune(cutoff: number): void {
    for (const [id, r] of this.#byId) {
      if (r.createdAt >= cutoff) continue;
      this.#byId.delete(id);
      this.#byToken.delete(r.token);
    }
  }

  byId(id: string): InteractionRecord | undefined {
    return this.#byId.get(id);
  }

  byToken(token: string): InteractionRecord | undefined {
    return this.#byToken.get(token);
  }

  /** The latest modal the bot opened for this user with this custom id (a modal submit answers it). */
  findModal(userId: string, customId: string): InteractionRecord | undefined {
    let found: InteractionRecord | undefined;
    for (const r of this.#byId.values()) {
      if (r.userId === userId && r.modal && r.modal.custom_id === customId) found = r;
    }
    return found;
  }
}
