import { FormErrors, type Path } from './form-errors.js';

type Json = Record<string, unknown>;

const asObject = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});

// Discord's name rule for chat-input commands and options (lowercase where a case exists).
const NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const SUBCOMMAND = 1;
const SUBCOMMAND_GROUP = 2;
const CHAT_INPUT = 1;

/** Validates a bulk-overwrite body (PUT .../commands) the way Discord does; throws 50035 on any problem. */
export function validateCommandList(body: unknown): Json[] {
  const errors = new FormErrors();
  if (!Array.isArray(body)) {
    errors.add([], 'BASE_TYPE_ARRAY', 'Must be an array of application commands.');
    errors.throwIfAny();
    return [];
  }
  if (body.length > 100) errors.add([], 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.');
  const names = new Set<string>();
  body.forEach((raw, i) => {
    const cmd = asObject(raw);
    collectCommandErrors(errors, cmd, [i]);
    const key = `${String(cmd.type ?? CHAT_INPUT)}:${String(cmd.name)}`;
    if (names.has(key))
      errors.add([i, 'name'], 'APPLICATION_COMMANDS_DUPLICATE_NAME', `Application command names must be unique`);
    names.add(key);
  });
  errors.throwIfAny();
  return body.map(asObject);
}

export function validateCommand(body: unknown): Json {
  const errors = new FormErrors();
  collectCommandErrors(errors, asObject(body), []);
  errors.throwIfAny();
  return asObject(body);
}

function collectCommandErrors(errors: FormErrors, cmd: Json, at: Path): void {
  const type = cmd.type ?? CHAT_INPUT;
  if (type === CHAT_INPUT) {
    checkName(errors, cmd.name, [...at, 'name']);
    errors.lengthBetween([...at, 'description'], cmd.description, 1, 100);
    checkOptions(errors, cmd.options, [...at, 'options'], 0);
  } else {
    errors.lengthBetween([...at, 'name'], cmd.name, 1, 32);
  }
}

function checkName(errors: FormErrors, name: unknown, at: Path): void {
  if (typeof name !== 'string' || !NAME.test(name) || name !== name.toLowerCase()) {
    errors.add(
      at,
      'APPLICATION_COMMAND_INVALID_NAME',
      `Command name is invalid: use 1-32 lowercase letters, digits, - or _`,
    );
  }
}

function checkOptions(errors: FormErrors, options: unknown, at: Path, depth: number): void {
  if (options === undefined || options === null) return;
  if (!Array.isArray(options)) {
    errors.add(at, 'BASE_TYPE_ARRAY', 'Must be an array.');
    return;
  }
  errors.maxItems(at, options, 25);
  const names = new Set<string>();
  let sawOptional = false;
  options.forEach((raw, i) => {
    const o = asObject(raw);
    const op = [...at, i];
    checkName(errors, o.name, [...op, 'name']);
    errors.lengthBetween([...op, 'description'], o.description, 1, 100);
    if (typeof o.name === 'string') {
      if (names.has(o.name))
        errors.add([...op, 'name'], 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS', 'Option names must be unique');
      names.add(o.name);
    }
    const type = Number(o.type);
    if (!(type >= 1 && type <= 11)) errors.add([...op, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of {1..11}.');
    if (type === SUBCOMMAND || type === SUBCOMMAND_GROUP) {
      const allowed = depth === 0 || (depth === 1 && type === SUBCOMMAND);
      if (!allowed)
        errors.add(
          [...op, 'type'],
          'APPLICATION_COMMAND_OPTION_TYPE_INVALID',
          'Subcommands nest at most one group deep',
        );
      checkOptions(errors, o.options, [...op, 'options'], depth + 1);
      return;
    }
    if (o.required === true && sawOptional) {
      errors.add(
        [...op, 'required'],
        'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
        'Required options must be placed before non-required options',
      );
    }
    if (o.required !== true) sawOptional = true;
    if (o.autocomplete === true && Array.isArray(o.choices) && o.choices.length > 0) {
      errors.add(
        [...op, 'autocomplete'],
        'APPLICATION_COMMAND_AUTOCOMPLETE_INVALID',
        'Autocomplete cannot be set with choices',
      );
    }
    if (Array.isArray(o.choices)) {
      errors.maxItems([...op, 'choices'], o.choices, 25);
      o.choices.forEach((rawChoice, k) => {
        const c = asObject(rawChoice);
        errors.lengthBetween([...op, 'choices', k, 'name'], c.name, 1, 100);
        if (typeof c.value === 'string') errors.maxLength([...op, 'choices', k, 'value'], c.value, 100);
      });
    }
  });
}
