/**
 * The bank stakes and share caps are sized by: the fund's NAV at its last strike when a fund is open, else the bank
 * an admin set with /settings bank. Read through one port so the NAV can be plugged in without touching its users.
 */

import { accountName } from '../model/slip-rules.js';
import { type GuildSettings, getSettings, updateSettings } from '../settings/index.js';
import type { BotStore } from '../store/index.js';

export interface Bank {
  cents: number;
  source: 'nav' | 'set';
  asOf: Date;
}

export interface BankSource {
  /** The guild's bank, or null when neither a fund nor a set bank gives one. */
  bankFor(guildId: string, settings?: GuildSettings): Promise<Bank | null>;
  /**
   * The fund's accounts (`bookie/username`) while the server has a fund holding one; null with no fund. A bet
   * through any other account is outside the fund (decision 1910).
   */
  fundAccounts?(guildId: string): Promise<ReadonlySet<string> | null>;
  /** The bank a bet outside the fund is sized from: the set bank, never the fund's NAV. */
  outsideBankFor?(guildId: string): Promise<Bank | null>;
}

/** The bank one bet is sized from, and whether its account is outside the server's fund. */
export interface BankAtAccount {
  bankCents: number | null;
  outsideFund: boolean;
}

/**
 * The bank a bet through one account is sized from (decision 1910): with a fund open and the account not one of
 * its own, the set bank (or none), never the fund's NAV; otherwise the bank already read (`known`) or the source's.
 * `username` undefined (the session list could not be read): treated as outside, so the fund's NAV sizes nothing
 * it cannot vouch for.
 */
export async function bankAtAccount(
  source: BankSource | undefined,
  guildId: string | null,
  at: { bookie: string; username: string | undefined },
  known?: number | null,
): Promise<BankAtAccount> {
  const fund = guildId === null ? null : ((await source?.fundAccounts?.(guildId)) ?? null);
  const inside = at.username !== undefined && fund?.has(accountName({ bookie: at.bookie, username: at.username }));
  if (fund === null || inside) return { bankCents: await bankCentsFor(source, guildId, known), outsideFund: false };
  const outside = guildId === null ? null : ((await source?.outsideBankFor?.(guildId)) ?? null);
  return { bankCents: outside?.cents ?? null, outsideFund: true };
}

/** The bank a settings record holds (null: none set). */
export function setBankOf(s: GuildSettings): Bank | null {
  if (s.bankCents === undefined) return null;
  return { cents: s.bankCents, source: 'set', asOf: new Date(s.bankSetAt ?? 0) };
}

/** The admin-set bank, from the guild's settings. */
export class SetBank implements BankSource {
  constructor(private readonly store: BotStore) {}

  /** `settings`: the guild's settings when the caller has read them already (one read per request). */
  async bankFor(guildId: string, settings?: GuildSettings): Promise<Bank | null> {
    return setBankOf(settings ?? (await getSettings(this.store, guildId)));
  }

  /** Sets (cents > 0) or clears (undefined) the guild's bank; share caps move with it from the next slip on. */
  static async set(store: BotStore, guildId: string, cents: number | undefined, at: number): Promise<GuildSettings> {
    return updateSettings(store, guildId, (s) => {
      const { bankCents: _b, bankSetAt: _t, ...rest } = s;
      return cents === undefined ? rest : { ...rest, bankCents: cents, bankSetAt: at };
    });
  }
}

/** The bank in cents for share caps: the one already read (`known`, null meaning none), else the source's. */
export async function bankCentsFor(
  source: BankSource | undefined,
  guildId: string | null,
  known?: number | null,
  settings?: GuildSettings,
): Promise<number | null> {
  if (known !== undefined) return known;
  if (!source || guildId === null) return null;
  return (await source.bankFor(guildId, settings))?.cents ?? null;
}

/** The fund's NAV at its last strike, as the bank reads it (null: no strike yet). */
export type LastNav = (guildId: string) => Promise<{ navCents: number; at: Date } | null>;
/** The names (`bookie/username`) of the accounts a server's fund owns; empty with no fund. */
export type FundAccountNames = (guildId: string) => Promise<readonly string[]>;

/**
 * The fund's NAV at its last strike when the fund holds money, else the bank an admin set: caps and suggested
 * stakes move at a strike, never between two.
 */
export class NavOrSetBank implements BankSource {
  readonly #set: SetBank;
  constructor(
    store: BotStore,
    private readonly lastNav: LastNav,
    private readonly accountNames?: FundAccountNames,
  ) {
    this.#set = new SetBank(store);
  }

  async fundAccounts(guildId: string): Promise<ReadonlySet<string> | null> {
    const names = (await this.accountNames?.(guildId)) ?? [];
    return names.length === 0 ? null : new Set(names);
  }

  outsideBankFor(guildId: string): Promise<Bank | null> {
    return this.#set.bankFor(guildId);
  }

  async bankFor(guildId: string, settings?: GuildSettings): Promise<Bank | null> {
    const strike = await this.lastNav(guildId);
    if (strike && strike.navCents > 0) return { cents: strike.navCents, source: 'nav', asOf: strike.at };
    return this.#set.bankFor(guildId, settings);
  }
}
