/** An error answered the way Discord answers it: an HTTP status and a `{ code, message, errors? }` body. */
export class DiscordApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DiscordApiError';
  }

  /** Extra top-level body fields (e.g. a 429's `retry_after`). */
  extra: Record<string, unknown> = {};
  /** Extra response headers (e.g. a 429's `retry-after`). */
  headers: Record<string, string> = {};

  body(): Record<string, unknown> {
    return { message: this.message, code: this.code, ...(this.errors ? { errors: this.errors } : {}), ...this.extra };
  }
}

export const notFound = () => new DiscordApiError(404, 0, '404: Not Found');
export const unauthorized = () => new DiscordApiError(401, 0, '401: Unauthorized');
export const unknownInteraction = () => new DiscordApiError(404, 10062, 'Unknown interaction');
export const alreadyAcknowledged = () => new DiscordApiError(400, 40060, 'Interaction has already been acknowledged.');
export const invalidWebhookToken = () => new DiscordApiError(401, 50027, 'Invalid Webhook Token');
export const unknownWebhook = () => new DiscordApiError(404, 10015, 'Unknown Webhook');
export const unknownMessage = () => new DiscordApiError(404, 10008, 'Unknown Message');
export const unknownChannel = () => new DiscordApiError(404, 10003, 'Unknown Channel');
export const unknownGuild = () => new DiscordApiError(404, 10004, 'Unknown Guild');
export const unknownMember = () => new DiscordApiError(404, 10007, 'Unknown Member');
export const missingAccess = () => new DiscordApiError(403, 50001, 'Missing Access');
export const unknownCommand = () => new DiscordApiError(404, 10063, 'Unknown application command');
export const emptyMessage = () => new DiscordApiError(400, 50006, 'Cannot send an empty message');
export const otherUsersMessage = () =>
  new DiscordApiError(403, 50005, 'Cannot edit a message authored by another user');
