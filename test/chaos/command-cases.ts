import type { RegisteredCommand } from '../../src/local-discord/index.js';
import type { Rng } from './rng.js';

type Json = Record<string, unknown>;
type Value = string | number | boolean;

export interface CommandCase {
  name: string;
  subcommand?: string;
  subcommandGroup?: string;
  options: Record<string, Value>;
}

export interface CommandCaseContext {
  rng: Rng;
  userIds: string[];
  channelIds: string[];
  roleIds: string[];
  /** Real values (event keys, leagues, dates) mixed in so some cases get past the first check. */
  realStrings: string[];
}

const HOSTILE_STRINGS = [
  ' ',
  'nba',
  'NBA',
  'soccer',
  'today',
  'tomorrow',
  '2026-02-30',
  '9999-99-99',
  '1900-01-01',
  '-1',
  '0',
  'NaN',
  'Infinity',
  '1e309',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '{"epk":"x"}',
  '[]',
  '@everyone',
  '<@1200000000000000401>',
  '<#1200000000000000301>',
  '**bold** `code` ||spoiler||',
  '../../etc/passwd',
  "'; DROP TABLE slips; --",
  '%00%0a',
  '\u0000\u0001',
  '\u202Eevil',
  '👍🏽🎉💥',
  'ﷺ𒐫',
  'a/b/c/d/e',
  'basketball/us/nba/x_v_y/2026-01-01',
  'x'.repeat(100),
];

function stringFor(ctx: CommandCaseContext, def: Json): string {
  const min = Math.max(1, Number(def.min_length ?? 1));
  const max = Math.min(6000, Number(def.max_length ?? 6000));
  let s: string;
  const roll = ctx.rng.next();
  if (roll < 0.25 && ctx.realStrings.length > 0) s = ctx.rng.pick(ctx.realStrings);
  else if (roll < 0.85) s = ctx.rng.pick(HOSTILE_STRINGS);
  else if (roll < 0.95) s = 'y'.repeat(ctx.rng.int(min, max));
  else s = String.fromCodePoint(...Array.from({ length: ctx.rng.int(1, 30) }, () => ctx.rng.int(0x20, 0x2fff)));
  if (s.length < min) s = s.padEnd(min, 'z');
  return s.slice(0, max);
}

function numberFor(ctx: CommandCaseContext, def: Json, integer: boolean): number {
  const lo = typeof def.min_value === 'number' ? def.min_value : -(2 ** 53) + 1;
  const hi = typeof def.max_value === 'number' ? def.max_value : 2 ** 53 - 1;
  const pool = integer
    ? [lo, hi, 0, 1, -1, 2, 7, 100, 1000, 99_999, lo + 1, hi - 1]
    : [lo, hi, 0, 0.01, 0.005, 1e-9, 1, 1.5, 2.5, 5, 10, 99.99, 100, 100.01, 1e6, 1e15, -0.01, -50];
  let v = ctx.rng.chance(0.7) ? ctx.rng.pick(pool) : lo + ctx.rng.next() * Math.min(hi - lo, 1e6);
  if (integer) v = Math.round(v);
  return Math.min(hi, Math.max(lo, v));
}

function valueFor(ctx: CommandCaseContext, def: Json): Value | undefined {
  const choices = def.choices as Array<{ value: Value }> | undefined;
  if (choices && choices.length > 0) return ctx.rng.pick(choices).value;
  switch (def.type) {
    case 3:
      return stringFor(ctx, def);
    case 4:
      return numberFor(ctx, def, true);
    case 10:
      return numberFor(ctx, def, false);
    case 5:
      return ctx.rng.chance(0.5);
    case 6:
    case 9:
      return ctx.rng.pick(ctx.userIds);
    case 7:
      return ctx.rng.pick(ctx.channelIds);
    case 8:
      return ctx.rng.pick(ctx.roleIds);
    default:
      return undefined; // attachments: not fuzzed
  }
}

/** A random, well-typed option set for one of the registered commands (what a user could really send). */
export function makeCommandCase(ctx: CommandCaseContext, commands: RegisteredCommand[]): CommandCase | undefined {
  const command = ctx.rng.pick(commands);
  let defs = (command.options ?? []) as Json[];
  const out: CommandCase = { name: command.name, options: {} };
  const group = defs.filter((d) => d.type === 2);
  const subs = defs.filter((d) => d.type === 1);
  if (group.length > 0 || subs.length > 0) {
    const pick = ctx.rng.pick([...group, ...subs]);
    if (pick.type === 2) {
      out.subcommandGroup = String(pick.name);
      const inner = (pick.options ?? []) as Json[];
      if (inner.length === 0) return undefined;
      const sub = ctx.rng.pick(inner);
      out.subcommand = String(sub.name);
      defs = (sub.options ?? []) as Json[];
    } else {
      out.subcommand = String(pick.name);
      defs = (pick.options ?? []) as Json[];
    }
  }
  for (const def of defs) {
    if (!def.required && ctx.rng.chance(0.4)) continue;
    const v = valueFor(ctx, def);
    if (v === undefined) {
      if (def.required) return undefined;
      continue;
    }
    out.options[String(def.name)] = v;
  }
  return out;
}
