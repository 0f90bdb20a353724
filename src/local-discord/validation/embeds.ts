import { type FormErrors, len, type Path } from './form-errors.js';

type Json = Record<string, unknown>;

const asObject = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});

/** Discord's embed limits, including the 6000-character total across every embed of one message. */
export function validateEmbeds(errors: FormErrors, embeds: unknown, base: Path = ['embeds']): void {
  if (embeds === undefined || embeds === null) return;
  if (!Array.isArray(embeds)) {
    errors.add(base, 'BASE_TYPE_ARRAY', 'Must be an array.');
    return;
  }
  errors.maxItems(base, embeds, 10);
  let total = 0;
  embeds.forEach((raw, i) => {
    const e = asObject(raw);
    const at = (...p: (string | number)[]) => [...base, i, ...p];
    errors.maxLength(at('title'), e.title, 256);
    errors.maxLength(at('description'), e.description, 4096);
    const footer = asObject(e.footer);
    const author = asObject(e.author);
    if (e.footer !== undefined) errors.maxLength(at('footer', 'text'), footer.text, 2048);
    if (e.author !== undefined) errors.maxLength(at('author', 'name'), author.name, 256);
    total += len(e.title) + len(e.description) + len(footer.text) + len(author.name);
    const fields = Array.isArray(e.fields) ? e.fields : [];
    errors.maxItems(at('fields'), fields, 25);
    fields.forEach((rawField, j) => {
      const f = asObject(rawField);
      if (errors.required(at('fields', j, 'name'), f.name)) errors.maxLength(at('fields', j, 'name'), f.name, 256);
      if (errors.required(at('fields', j, 'value'), f.value)) errors.maxLength(at('fields', j, 'value'), f.value, 1024);
      total += len(f.name) + len(f.value);
    });
  });
  if (total > 6000) errors.add(base, 'MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000');
}
