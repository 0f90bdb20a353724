import { makeInteractionToken } from '../ids.js';
import { buildInteractionPayload } from '../payloads/interaction.js';
import type { InteractionRecord } from '../state/interactions.js';
import type { World } from '../state/world.js';
import type { LocalMessage } from '../types.js';

type Json = Record<string, unknown>;

/** What a test or the playground holds after triggering an interaction. */
export interface InteractionHandle {
  id: string;
  /** Resolves with the callback type and how long the bot took; rejects when nothing came within the deadline. */
  acknowledged: Promise<{ type: number; ms: number }>;
  /** Messages this interaction produced or updated (original response, follow-ups), edits applied. */
  responses(): LocalMessage[];
}

export interface OpenInput {
  type: number;
  userId: string;
  channelId: string;
  data: Json;
  commandName?: string;
  message?: LocalMessage;
  /** The server the interaction comes from (default the fixture guild). */
  guildId?: string;
}

export class NoBotConnectedError extends Error {
  constructor() {
    super(
      'No bot is connected to the local Discord gateway: log a discord.js Client in with ' +
        '`rest: { api: ld.apiUrl }` and wait for Events.ClientReady before sending interactions.',
    );
    this.name = 'NoBotConnectedError';
  }
}

/** Creates the interaction, dispatches INTERACTION_CREATE and arms the acknowledgement deadline. */
export function openInteraction(
  world: World,
  input: OpenInput,
  timers: Set<NodeJS.Timeout>,
): {
  record: InteractionRecord;
  handle: InteractionHandle;
} {
  const id = world.snowflake();
  const token = makeInteractionToken();
  let settle!: (r: { type: number; ms: number }) => void;
  let fail!: (e: Error) => void;
  const acknowledged = new Promise<{ type: number; ms: number }>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  // Callers that never await the acknowledgement must not crash the process with an unhandled rejection.
  acknowledged.catch(() => undefined);
  const deadline = world.options.ackDeadlineMs;
  const timer = setTimeout(() => {
    timers.delete(timer);
    if (record.ack) return;
    const refused = record.lastRefusal ? `; the bot's last callback was refused: ${record.lastRefusal}` : '';
    fail(new Error(`interaction ${id} was not acknowledged within ${deadline} ms (Discord: 10062)${refused}`));
  }, deadline + 50);
  timer.unref();
  timers.add(timer);
  const record: InteractionRecord = {
    id,
    token,
    type: input.type,
    channelId: input.channelId,
    guildId: input.guildId ?? world.guildId,
    userId: input.userId,
    createdAt: world.now(),
    ...(input.commandName ? { commandName: input.commandName } : {}),
    ...(input.message ? { sourceMessageId: input.message.id } : {}),
    ack: null,
    originalMessageId: null,
    followUpIds: [],
    settleAck: (r) => {
      clearTimeout(timer);
      timers.delete(timer);
      settle(r);
    },
    failAck: (e) => {
      clearTimeout(timer);
      timers.delete(timer);
      fail(e);
    },
  };
  // Keep a long-running playground from growing without bound; a minute of slack past token death.
  world.interactions.prune(world.now() - world.options.tokenLifetimeMs - 60_000);
  world.interactions.add(record);
  const payload = buildInteractionPayload(world, {
    id,
    token,
    type: input.type,
    userId: input.userId,
    channelId: input.channelId,
    data: input.data,
    ...(input.message ? { message: input.message } : {}),
    ...(input.guildId ? { guildId: input.guildId } : {}),
  });
  const reached = world.dispatch('INTERACTION_CREATE', payload);
  if (reached === 0) {
    clearTimeout(timer);
    timers.delete(timer);
    throw new NoBotConnectedError();
  }
  const handle: InteractionHandle = {
    id,
    acknowledged,
    responses: () => {
      const ids = [record.originalMessageId, ...record.followUpIds].filter((m): m is string => m !== null);
      return ids
        .map((m) => world.messages.get(m))
        .filter((m): m is LocalMessage => m !== undefined)
        .map((m) => structuredClone(m));
    },
  };
  return { record, handle };
}
