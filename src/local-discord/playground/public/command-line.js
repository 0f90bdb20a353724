// Pure logic of the message box: reads "/name sub option:value other:value with spaces" against the
// registered commands (Discord's JSON), says what to suggest next and builds the interaction options.
// No DOM here, so it is tested in Node (where discord-api-types/v10 is the package itself).
import { ApplicationCommandOptionType } from 'discord-api-types/v10';

const isSub = (o) => o.type === ApplicationCommandOptionType.Subcommand;

/** The options a command takes once its subcommand (if any) is known. */
export function leafOptions(command, subcommandName) {
  const opts = command?.options ?? [];
  if (opts.some(isSub)) return opts.find((o) => isSub(o) && o.name === subcommandName)?.options ?? [];
  return opts;
}

/**
 * Splits the typed line. Values run until the next " known-option:" so they may hold spaces, as in
 * Discord's own box. `stage` says what the user is typing at the end of the line. A trailing space ends the
 * last value, except in an autocomplete option whose value was typed rather than picked (`picked` maps an
 * option to the choice taken from a list): Discord keeps that space in the value it sends the bot.
 */
export function parseLine(text, commands, picked = {}) {
  const result = { command: undefined, subcommand: undefined, segments: [], stage: 'none', prefix: '', rest: '' };
  if (!text.startsWith('/')) return result;
  const m = /^\/(\S*)(\s?)(.*)$/s.exec(text);
  const name = m[1];
  if (!m[2]) return { ...result, stage: 'command', prefix: name };
  result.command = commands.find((c) => c.name === name);
  if (!result.command) return { ...result, stage: 'unknown-command', prefix: name };
  let rest = m[3];
  if ((result.command.options ?? []).some(isSub)) {
    const s = /^(\S*)(\s?)(.*)$/s.exec(rest);
    if (!s[2]) return { ...result, stage: 'subcommand', prefix: s[1] };
    result.subcommand = s[1];
    rest = s[3];
  }
  result.rest = rest;
  const names = leafOptions(result.command, result.subcommand).map((o) => o.name);
  const starts = [];
  if (names.length) {
    const re = new RegExp(`(^|\\s)(${names.map(escapeRe).join('|')}):`, 'g');
    for (let hit = re.exec(rest); hit; hit = re.exec(rest)) {
      starts.push({ name: hit[2], at: hit.index + hit[1].length, valueAt: hit.index + hit[0].length });
    }
  }
  for (const [i, s] of starts.entries()) {
    const end = starts[i + 1]?.at ?? rest.length;
    result.segments.push({ name: s.name, raw: rest.slice(s.valueAt, end), at: s.at });
  }
  const last = result.segments.at(-1);
  const tail = last ? last.raw : rest;
  const trailingWord = /(\S*)$/.exec(tail)[1];
  if (last && (!/\s$/.test(last.raw) || typedIntoAutocomplete(result, last, picked))) {
    result.stage = 'value';
    result.prefix = last.raw.trimStart();
  } else {
    result.stage = 'option';
    result.prefix = last ? '' : trailingWord;
  }
  return result;
}

/** Whether the last value is free text in an autocomplete option, not a choice picked from its list. */
function typedIntoAutocomplete(parsed, last, picked) {
  const option = leafOptions(parsed.command, parsed.subcommand).find((o) => o.name === last.name);
  if (!option?.autocomplete) return false;
  const value = last.raw.trim();
  return value !== '' && picked[last.name]?.name !== value;
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Suggestions for the end of the line: `{ label, detail, text }` where `text` is the whole new line.
 * Autocomplete options return `{ autocomplete: optionName }` instead; the page asks the bot.
 */
export function suggest(text, commands, lookups = {}, picked = {}) {
  const p = parseLine(text, commands, picked);
  if (p.stage === 'command') {
    return commands
      .filter((c) => c.name.startsWith(p.prefix))
      .map((c) => ({ label: `/${c.name}`, detail: c.description ?? '', text: `/${c.name} ` }));
  }
  if (p.stage === 'subcommand') {
    return (p.command.options ?? [])
      .filter((o) => isSub(o) && o.name.startsWith(p.prefix))
      .map((o) => ({
        label: `/${p.command.name} ${o.name}`,
        detail: o.description ?? '',
        text: `/${p.command.name} ${o.name} `,
      }));
  }
  if (p.stage === 'value') {
    const option = leafOptions(p.command, p.subcommand).find((o) => o.name === p.segments.at(-1).name);
    if (option?.autocomplete) return [{ autocomplete: option.name, prefix: p.prefix }];
    const base = text.slice(0, text.length - p.prefix.length);
    if (option?.choices) {
      const q = p.prefix.toLowerCase();
      return option.choices
        .filter((c) => c.name.toLowerCase().includes(q))
        .map((c) => ({
          label: c.name,
          detail: option.name,
          text: `${base}${c.name} `,
          choice: { option: option.name, ...c },
        }));
    }
    const picker = pickerEntries(option, lookups);
    if (picker) {
      const q = p.prefix.replace(/^[@#]/, '').toLowerCase();
      return picker
        .filter((e) => e.name.toLowerCase().includes(q))
        .map((e) => ({
          label: e.label,
          detail: option.name,
          text: `${base}${e.label} `,
          choice: { option: option.name, name: e.label, value: e.id },
        }));
    }
    if (option?.type === ApplicationCommandOptionType.Boolean) {
      return ['true', 'false']
        .filter((v) => v.startsWith(p.prefix))
        .map((v) => ({ label: v, detail: option.name, text: `${base}${v} ` }));
    }
    return [];
  }
  if (p.stage === 'option') {
    const used = new Set(p.segments.map((s) => s.name));
    const base = text.slice(0, text.length - p.prefix.length);
    const sep = base === '' || /\s$/.test(base) ? '' : ' ';
    return leafOptions(p.command, p.subcommand)
      .filter((o) => !used.has(o.name) && o.name.startsWith(p.prefix))
      .sort((a, b) => Number(Boolean(b.required)) - Number(Boolean(a.required)))
      .map((o) => ({
        label: `${o.name}${o.required ? '' : ' (optional)'}`,
        detail: o.description ?? '',
        text: `${base}${sep}${o.name}:`,
      }));
  }
  return [];
}

// Discord's pickers for user, role and channel options: what each lists, and the sign before a name.
const PICKERS = {
  [ApplicationCommandOptionType.User]: [['users', '@']],
  [ApplicationCommandOptionType.Role]: [['roles', '@']],
  [ApplicationCommandOptionType.Mentionable]: [
    ['users', '@'],
    ['roles', '@'],
  ],
  [ApplicationCommandOptionType.Channel]: [['channels', '#']],
};

/** The picker's entries for an option (`{ id, name, label }`, one per id), or undefined if it has none. */
function pickerEntries(option, lookups) {
  const kinds = PICKERS[option?.type];
  if (!kinds) return undefined;
  const seen = new Set();
  const entries = [];
  for (const [kind, sign] of kinds) {
    for (const [name, id] of Object.entries(lookups[kind] ?? {})) {
      if (seen.has(id)) continue;
      seen.add(id);
      entries.push({ id, name, label: `${sign}${name}` });
    }
  }
  return entries;
}

/** The id a typed name ("@Bettor", "bettor", "#bets") or id stands for among `kinds` of lookups. */
function lookUp(raw, lookups, kinds) {
  if (/^\d+$/.test(raw)) return raw;
  const name = raw.replace(/^[@#]/, '').toLowerCase();
  for (const kind of kinds) {
    for (const [key, id] of Object.entries(lookups[kind] ?? {})) if (key.toLowerCase() === name) return id;
  }
  return undefined;
}

/** The text to put in the box after the user picks an autocomplete choice for the last option. */
export function applyChoice(text, commands, choiceName, picked = {}) {
  const p = parseLine(text, commands, picked);
  if (p.stage !== 'value') return text;
  return `${text.slice(0, text.length - p.prefix.length)}${choiceName} `;
}

/**
 * Builds what the page sends for the line, or `{ error }` saying what to fix. `picked` maps an
 * option name to `{ name, value }` choices the user picked, so a shown name sends its value.
 */
export function buildCommand(text, commands, picked = {}, lookups = {}) {
  const line = text.trim();
  if (!line.startsWith('/')) return { error: 'Commands start with "/": type / to see them.' };
  const p = parseLine(`${line} `, commands);
  if (!p.command) {
    const name = /^\/(\S*)/.exec(line)[1];
    return { error: `There is no /${name} command here. Type / to see the list.` };
  }
  const subs = (p.command.options ?? []).filter(isSub);
  if (subs.length && !subs.some((s) => s.name === p.subcommand)) {
    return { error: `/${p.command.name} needs one of: ${subs.map((s) => s.name).join(', ')}.` };
  }
  const defs = leafOptions(p.command, p.subcommand);
  const lead = p.segments.length ? p.rest.slice(0, p.segments[0].at) : p.rest;
  if (lead.trim()) {
    return {
      error: `"${lead.trim()}" is not an option. Write options as name:value (${defs.map((o) => o.name).join(', ') || 'none'}).`,
    };
  }
  const options = [];
  for (const seg of p.segments) {
    const def = defs.find((o) => o.name === seg.name);
    const raw = seg.raw.trim();
    if (!raw) return { error: `Give a value for ${seg.name}, or remove it.` };
    const converted = convert(def, raw, picked[seg.name], lookups);
    if ('error' in converted) return converted;
    options.push({ name: def.name, type: def.type, value: converted.value });
  }
  const missing = defs.filter((o) => o.required && !options.some((x) => x.name === o.name)).map((o) => o.name);
  if (missing.length)
    return { error: `Missing required option${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}.` };
  return { name: p.command.name, ...(p.subcommand ? { subcommand: p.subcommand } : {}), options };
}

function convert(def, raw, picked, lookups) {
  const fromChoice = picked && picked.name === raw ? picked.value : def.choices?.find((c) => c.name === raw)?.value;
  if (fromChoice !== undefined) return { value: fromChoice };
  switch (def.type) {
    case ApplicationCommandOptionType.Integer: {
      if (!/^-?\d+$/.test(raw)) return { error: `${def.name} must be a whole number.` };
      return withinRange(def, Number(raw));
    }
    case ApplicationCommandOptionType.Number: {
      const n = Number(raw);
      if (raw === '' || !Number.isFinite(n)) return { error: `${def.name} must be a number, like 12.5.` };
      return withinRange(def, n);
    }
    case ApplicationCommandOptionType.Boolean:
      if (raw !== 'true' && raw !== 'false') return { error: `${def.name} must be true or false.` };
      return { value: raw === 'true' };
    case ApplicationCommandOptionType.User: {
      const id = lookUp(raw, lookups, ['users']);
      return id ? { value: id } : { error: `${def.name} must name a member, like @bettor: pick one from the list.` };
    }
    case ApplicationCommandOptionType.Role: {
      const id = lookUp(raw, lookups, ['roles']);
      return id ? { value: id } : { error: `${def.name} must name a role, like @Bettor: pick one from the list.` };
    }
    case ApplicationCommandOptionType.Mentionable: {
      const id = lookUp(raw, lookups, ['users', 'roles']);
      return id ? { value: id } : { error: `${def.name} must name a member or a role: pick one from the list.` };
    }
    case ApplicationCommandOptionType.Channel: {
      const id = lookUp(raw, lookups, ['channels']);
      return id ? { value: id } : { error: `${def.name} must name a channel, like #bets: pick one from the list.` };
    }
    default:
      if (def.choices?.length)
        return { error: `${def.name} must be one of: ${def.choices.map((c) => c.name).join(', ')}.` };
      if (def.min_length && raw.length < def.min_length)
        return { error: `${def.name} needs at least ${def.min_length} characters.` };
      if (def.max_length && raw.length > def.max_length)
        return { error: `${def.name} takes at most ${def.max_length} characters.` };
      return { value: raw };
  }
}

function withinRange(def, n) {
  if (def.min_value !== undefined && n < def.min_value)
    return { error: `${def.name} must be at least ${def.min_value}.` };
  if (def.max_value !== undefined && n > def.max_value)
    return { error: `${def.name} must be at most ${def.max_value}.` };
  return { value: n };
}

/**
 * Options typed so far, for an autocomplete request (values as text, the focused one included). Discord checks
 * the others on its side and leaves out those that fail; a member, role or channel typed by name goes as its id.
 */
export function partialOptions(text, commands, picked = {}, lookups = {}) {
  const p = parseLine(text, commands, picked);
  if (!p.command) return undefined;
  const defs = leafOptions(p.command, p.subcommand);
  const options = p.segments.map((s, i) => {
    const def = defs.find((o) => o.name === s.name);
    const raw = i === p.segments.length - 1 ? s.raw.trimStart() : s.raw.trim();
    // Options already picked from a list send their value, as Discord does; the focused one sends its text.
    let value = picked[s.name]?.name === raw ? picked[s.name].value : raw;
    const kinds = PICKERS[def?.type];
    if (value === raw && kinds && i < p.segments.length - 1) {
      const names = kinds.map(([kind]) => kind);
      value = lookUp(raw, lookups, names) ?? raw;
    }
    return { name: s.name, type: def?.type ?? ApplicationCommandOptionType.String, value };
  });
  return { name: p.command.name, subcommand: p.subcommand, options, focused: p.segments.at(-1)?.name };
}

/**
 * The commands a member with `permissions` (a bit field as a decimal string) is offered: Discord hides a command
 * whose default_member_permissions they lack.
 */
export function commandsFor(commands, permissions) {
  const granted = BigInt(permissions ?? '0');
  return commands.filter((c) => {
    if (c.default_member_permissions === undefined || c.default_member_permissions === null) return true;
    const required = BigInt(c.default_member_permissions);
    return (granted & required) === required;
  });
}
