import { randomBytes } from 'node:crypto';

/** Discord's epoch (2015-01-01): snowflakes carry milliseconds since it in their top 42 bits. */
export const DISCORD_EPOCH = 1_420_070_400_000n;

/** Makes snowflakes whose timestamp part follows the given clock, so discord.js derives createdAt from them. */
export function createSnowflakes(now: () => number): () => string {
  let increment = 0n;
  return () => {
    increment = (increment + 1n) & 0xfffn;
    const ms = BigInt(Math.max(0, Math.floor(now()))) - DISCORD_EPOCH;
    return ((ms << 22n) | (1n << 17n) | increment).toString();
  };
}

/** The time a snowflake carries (ms since 1970), as discord.js reads createdAt from it. */
export function msOfSnowflake(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}

/** A bot token shaped like Discord's (base64 user id, timestamp part, hmac part); random per instance. */
export function makeBotToken(botUserId: string): string {
  const id = Buffer.from(botUserId).toString('base64url');
  return `${id}.${randomBytes(4).toString('base64url')}.${randomBytes(27).toString('base64url')}`;
}

/** Interaction tokens are long opaque strings; they authorise the webhook routes of one interaction. */
export function makeInteractionToken(): string {
  return `aW50ZXJhY3Rpb24.${randomBytes(48).toString('base64url')}`;
}

export function isoFromMs(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}
