import { ComponentType } from 'discord-api-types/v10';
import { FormErrors } from './form-errors.js';

type Json = Record<string, unknown>;

const asObject = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});

/** Autocomplete results (callback type 8): at most 25 choices, names and string values 1–100 characters. */
export function validateAutocompleteData(data: Json): void {
  const errors = new FormErrors();
  const choices = data.choices;
  if (!Array.isArray(choices)) {
    errors.add(['data', 'choices'], 'BASE_TYPE_REQUIRED', 'This field is required');
    errors.throwIfAny();
    return;
  }
  errors.maxItems(['data', 'choices'], choices, 25);
  choices.forEach((raw, i) => {
    const c = asObject(raw);
    errors.lengthBetween(['data', 'choices', i, 'name'], c.name, 1, 100);
    if (typeof c.value === 'string') errors.maxLength(['data', 'choices', i, 'value'], c.value, 100);
    else if (typeof c.value !== 'number') errors.required(['data', 'choices', i, 'value'], undefined);
  });
  errors.throwIfAny();
}

/** Modals (callback type 9): title 1–45, custom_id 1–100, 1–5 rows or labels each holding one input. */
export function validateModalData(data: Json): void {
  const errors = new FormErrors();
  errors.lengthBetween(['data', 'title'], data.title, 1, 45);
  errors.lengthBetween(['data', 'custom_id'], data.custom_id, 1, 100);
  const rows = Array.isArray(data.components) ? data.components : [];
  if (rows.length < 1 || rows.length > 5) {
    errors.add(['data', 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
  }
  rows.forEach((rawRow, i) => {
    const row = asObject(rawRow);
    const at = ['data', 'components', i] as const;
    if (row.type === ComponentType.Label) {
      errors.lengthBetween([...at, 'label'], row.label, 1, 45);
      errors.maxLength([...at, 'description'], row.description, 100);
      validateModalInput(errors, asObject(row.component), [...at, 'component']);
    } else if (row.type === ComponentType.ActionRow) {
      const inner = Array.isArray(row.components) ? row.components : [];
      if (inner.length !== 1)
        errors.add([...at, 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 1 in length.');
      inner.forEach((c, j) => {
        validateModalInput(errors, asObject(c), [...at, 'components', j]);
      });
    } else if (row.type !== 10) {
      // type 10 is a text display, allowed in modals; anything else is not
      errors.add(
        [...at, 'type'],
        'COMPONENT_TYPE_INVALID',
        `Component type ${String(row.type)} is not allowed in a modal`,
      );
    }
  });
  errors.throwIfAny();
}

function validateModalInput(errors: FormErrors, c: Json, at: readonly (string | number)[]): void {
  errors.lengthBetween([...at, 'custom_id'], c.custom_id, 1, 100);
  if (c.type === ComponentType.TextInput) {
    if (c.label !== undefined) errors.lengthBetween([...at, 'label'], c.label, 1, 45);
    errors.maxLength([...at, 'placeholder'], c.placeholder, 100);
    errors.maxLength([...at, 'value'], c.value, 4000);
    if (c.style !== 1 && c.style !== 2)
      errors.add([...at, 'style'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2}.');
    for (const key of ['min_length', 'max_length'] as const) {
      const v = c[key];
      if (v !== undefined && (typeof v !== 'number' || v < 0 || v > 4000)) {
        errors.add([...at, key], 'NUMBER_TYPE_MAX', 'int value should be between 0 and 4000.');
      }
    }
  }
}
