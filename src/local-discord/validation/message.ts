import { emptyMessage } from '../api-error.js';
import { validateMessageComponents } from './components.js';
import { validateEmbeds } from './embeds.js';
import { FormErrors } from './form-errors.js';

type Json = Record<string, unknown>;

/**
 * Checks a message body (create or edit) against Discord's limits and throws 50035 with every problem found.
 * `requireContent`: a new message must carry content, an embed, a component, a sticker, a poll or a file.
 */
export function validateMessageBody(body: Json, opts: { requireContent: boolean; hasFiles?: boolean }): void {
  const errors = new FormErrors();
  if (body.content !== undefined && body.content !== null && typeof body.content !== 'string') {
    errors.add(['content'], 'BASE_TYPE_STRING', 'Must be a string.');
  }
  errors.maxLength(['content'], body.content, 2000);
  validateEmbeds(errors, body.embeds);
  validateMessageComponents(errors, body.components);
  errors.throwIfAny();
  if (opts.requireContent && !opts.hasFiles && isEmptyMessage(body)) throw emptyMessage();
}

function isEmptyMessage(body: Json): boolean {
  const nonEmpty = (v: unknown) => Array.isArray(v) && v.length > 0;
  return (
    (typeof body.content !== 'string' || body.content.length === 0) &&
    !nonEmpty(body.embeds) &&
    !nonEmpty(body.components) &&
    !nonEmpty(body.sticker_ids) &&
    !nonEmpty(body.attachments) &&
    body.poll === undefined
  );
}
