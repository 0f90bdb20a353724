import { emptyMessage } from '../api-error.js';
import { flattenComponents, validateMessageComponents } from './components.js';
import { validateEmbeds } from './embeds.js';
import { FormErrors } from './form-errors.js';

type Json = Record<string, unknown>;

const COMPONENTS_V2 = 1 << 15;

/** With IS_COMPONENTS_V2 the components are the whole message: no content or embeds, at most 40 components. */
function validateComponentsV2(errors: FormErrors, body: Json): void {
  if (typeof body.content === 'string' && body.content.length > 0) {
    errors.add(
      ['content'],
      'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
      'The content field cannot be used when using MessageFlags.IS_COMPONENTS_V2',
    );
  }
  if (Array.isArray(body.embeds) && body.embeds.length > 0) {
    errors.add(
      ['embeds'],
      'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
      'The embeds field cannot be used when using MessageFlags.IS_COMPONENTS_V2',
    );
  }
  if (flattenComponents(body.components).length > 40) {
    errors.add(['components'], 'BASE_TYPE_MAX_LENGTH', 'Must be 40 or fewer in length.');
  }
}

/**
 * Checks a message body (create or edit) against Discord's limits and throws 50035 with every problem found.
 * `requireContent`: a new message must carry content, an embed, a component, a sticker, a poll or a file.
 * `currentFlags`: for edits, the flags of the message being edited.
 */
export function validateMessageBody(
  body: Json,
  opts: { requireContent: boolean; hasFiles?: boolean; currentFlags?: number },
): void {
  const errors = new FormErrors();
  if (body.content !== undefined && body.content !== null && typeof body.content !== 'string') {
    errors.add(['content'], 'BASE_TYPE_STRING', 'Must be a string.');
  }
  errors.maxLength(['content'], body.content, 2000);
  validateEmbeds(errors, body.embeds);
  // An edit keeps the message's components-v2 flag unless it sends flags of its own.
  const v2 = (Number(body.flags ?? opts.currentFlags ?? 0) & COMPONENTS_V2) !== 0;
  validateMessageComponents(errors, body.components, { v2 });
  if (v2) validateComponentsV2(errors, body);
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
