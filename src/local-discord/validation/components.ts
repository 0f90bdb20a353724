import { ButtonStyle, ComponentType } from 'discord-api-types/v10';
import type { FormErrors, Path } from './form-errors.js';

type Json = Record<string, unknown>;

const asObject = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});

const SELECTS = new Set<number>([
  ComponentType.StringSelect,
  ComponentType.UserSelect,
  ComponentType.RoleSelect,
  ComponentType.MentionableSelect,
  ComponentType.ChannelSelect,
]);
const PREMIUM = 6;

/** Message components as Discord checks them: rows, buttons, selects, custom ids. */
export function validateMessageComponents(
  errors: FormErrors,
  components: unknown,
  opts: { v2: boolean },
  base: Path = ['components'],
): void {
  if (components === undefined || components === null) return;
  if (!Array.isArray(components)) {
    errors.add(base, 'BASE_TYPE_ARRAY', 'Must be an array.');
    return;
  }
  // Five rows is the legacy limit; components v2 layouts are counted in message.ts instead.
  if (!opts.v2) errors.maxItems(base, components, 5);
  const seen = new Set<string>();
  components.forEach((rawRow, i) => {
    const row = asObject(rawRow);
    const rowPath = [...base, i];
    if (row.type !== ComponentType.ActionRow) {
      // Layout components (sections, containers, text) exist only in components v2 messages.
      if (!opts.v2)
        errors.add(
          [...rowPath, 'type'],
          'COMPONENT_TYPE_INVALID',
          'Only action rows are allowed without the IS_COMPONENTS_V2 flag',
        );
      return;
    }
    const children = Array.isArray(row.components) ? row.components : [];
    if (children.length === 0) {
      errors.add([...rowPath, 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
    }
    const hasSelect = children.some((c) => SELECTS.has(Number(asObject(c).type)));
    if (hasSelect && children.length > 1) {
      errors.add(
        [...rowPath, 'components'],
        'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
        'The specified component exceeds the maximum width',
      );
    }
    errors.maxItems([...rowPath, 'components'], children, 5);
    children.forEach((rawChild, j) => {
      const c = asObject(rawChild);
      const at = [...rowPath, 'components', j];
      if (c.type === ComponentType.Button) validateButton(errors, c, at);
      else if (SELECTS.has(Number(c.type))) validateSelect(errors, c, at);
      else
        errors.add(
          [...at, 'type'],
          'COMPONENT_TYPE_INVALID',
          `Component type ${String(c.type)} is not allowed in a message row`,
        );
      if (typeof c.custom_id === 'string') {
        if (seen.has(c.custom_id)) {
          errors.add(
            [...at, 'custom_id'],
            'COMPONENT_CUSTOM_ID_DUPLICATED',
            'Component custom id cannot be duplicated',
          );
        }
        seen.add(c.custom_id);
      }
    });
  });
}

function validateButton(errors: FormErrors, c: Json, at: Path): void {
  errors.maxLength([...at, 'label'], c.label, 80);
  if (c.style === ButtonStyle.Link) {
    errors.required([...at, 'url'], c.url);
    if (c.custom_id !== undefined) {
      errors.add(
        [...at, 'custom_id'],
        'BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED',
        'A custom id cannot be set on a link button',
      );
    }
    return;
  }
  if (c.style === PREMIUM) return;
  if (errors.required([...at, 'custom_id'], c.custom_id)) errors.maxLength([...at, 'custom_id'], c.custom_id, 100);
  if (typeof c.style !== 'number' || c.style < 1 || c.style > 6) {
    errors.add([...at, 'style'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2, 3, 4, 5, 6}.');
  }
}

function validateSelect(errors: FormErrors, c: Json, at: Path): void {
  if (errors.required([...at, 'custom_id'], c.custom_id)) errors.maxLength([...at, 'custom_id'], c.custom_id, 100);
  errors.maxLength([...at, 'placeholder'], c.placeholder, 150);
  for (const key of ['min_values', 'max_values'] as const) {
    const v = c[key];
    if (v !== undefined && (typeof v !== 'number' || v < (key === 'min_values' ? 0 : 1) || v > 25)) {
      errors.add([...at, key], 'NUMBER_TYPE_MAX', 'int value should be between 0 and 25.');
    }
  }
  if (c.type !== ComponentType.StringSelect) return;
  const options = Array.isArray(c.options) ? c.options : [];
  if (options.length === 0)
    errors.add([...at, 'options'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 25 in length.');
  errors.maxItems([...at, 'options'], options, 25);
  options.forEach((rawOption, k) => {
    const o = asObject(rawOption);
    const op = [...at, 'options', k];
    if (errors.required([...op, 'label'], o.label)) errors.maxLength([...op, 'label'], o.label, 100);
    if (errors.required([...op, 'value'], o.value)) errors.maxLength([...op, 'value'], o.value, 100);
    errors.maxLength([...op, 'description'], o.description, 100);
  });
  if (typeof c.max_values === 'number' && c.max_values > options.length && options.length > 0) {
    errors.add([...at, 'max_values'], 'BASE_TYPE_MAX', `Must be less than or equal to ${options.length}.`);
  }
}

/** Every component of a message, rows and components-v2 containers flattened. */
export function flattenComponents(components: unknown): Json[] {
  const out: Json[] = [];
  const walk = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const raw of list) {
      if (!raw || typeof raw !== 'object') continue;
      const c = raw as Json;
      out.push(c);
      walk(c.components);
      if (c.accessory) walk([c.accessory]);
      if (c.component) walk([c.component]);
    }
  };
  walk(components);
  return out;
}
