import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import {
  isAdmin,
  isChecker,
  isTreasurer,
  mayBet,
  memberOf,
  memberRoles,
} from '../../../src/bot/settings/handlers/permissions.js';

/** An asker as an interaction carries it: roles as ids (raw member) or in discord.js's cache, and a permission set. */
const asker = (roles: string[], opts: { admin?: boolean; cached?: boolean } = {}) => ({
  user: { id: 'u1' },
  member: opts.cached ? { roles: { cache: new Map(roles.map((r) => [r, {}])) } } : { roles },
  memberPermissions: { has: (bit: bigint) => opts.admin === true && bit === PermissionFlagsBits.ManageGuild },
});

describe('the one door for permissions', () => {
  it('reads roles from a raw member and from the cache alike, none outside a server', () => {
    expect(memberRoles(asker(['r1', 'r2']))).toEqual(['r1', 'r2']);
    expect(memberRoles(asker(['r1', 'r2'], { cached: true }))).toEqual(['r1', 'r2']);
    expect(memberRoles({ member: null })).toEqual([]);
  });

  it('counts Manage Server as admin, and nothing else', () => {
    expect(isAdmin(asker([], { admin: true }))).toBe(true);
    expect(isAdmin(asker(['r1']))).toBe(false);
    expect(isAdmin({ memberPermissions: null })).toBe(false);
  });

  it('keeps betting closed by default: admins only until a bet role is set, then its members too', () => {
    expect(mayBet(asker(['r1']), {})).toBe(false);
    expect(mayBet(asker([], { admin: true }), {})).toBe(true);
    expect(mayBet(asker(['bet']), { betRoleId: 'bet' })).toBe(true);
    expect(mayBet(asker(['other']), { betRoleId: 'bet' })).toBe(false);
  });

  it('makes treasurers of admins and the treasurer role; checkers also of the approver role', () => {
    const settings = { fundTreasurerRoleId: 'treasurer', approverRoleId: 'approver' };
    expect(isTreasurer(asker(['treasurer']), settings)).toBe(true);
    expect(isTreasurer(asker(['approver']), settings)).toBe(false);
    expect(isTreasurer(asker([]), {})).toBe(false);
    expect(isChecker(asker(['approver']), settings)).toBe(true);
    expect(isChecker(asker(['treasurer']), settings)).toBe(true);
    expect(isChecker(asker(['member']), settings)).toBe(false);
    expect(isChecker(asker([], { admin: true }), settings)).toBe(true);
  });

  it('hands the approval rules the member: id, roles and Manage Server', () => {
    expect(memberOf(asker(['r1'], { admin: true }))).toEqual({ id: 'u1', roles: ['r1'], manager: true });
  });
});
