import { describe, expect, it } from 'vitest';
import { settingsView } from '../../../src/bot/betting/views/desk.js';
import type { GuildSettings } from '../../../src/bot/settings/guild-settings.js';

const DEFAULTS = { perBetCents: 10_000, perDayCents: 50_000 };
const settings = (over: Partial<GuildSettings> = {}): GuildSettings =>
  ({ timezone: 'UTC', sessions: {}, ...over }) as GuildSettings;
const field = (view: ReturnType<typeof settingsView>, name: string) =>
  view.embeds[0]?.fields?.find((f) => f.name === name)?.value ?? '';

describe('/settings show', () => {
  it("names the fund's NAV as the bank slips size from when a fund is open, not 'not set'", () => {
    const at = new Date('2026-11-27T15:17:30Z');
    const view = settingsView(settings(), DEFAULTS, { cents: 160_000, source: 'nav', asOf: at });
    expect(field(view, 'Staking')).toContain(
      `bank: the fund's NAV, $1,600.00 at its strike of <t:${at.getTime() / 1000}:f>`,
    );
    expect(field(view, 'Staking')).not.toContain('not set');
  });

  it('says a set bank waits while the fund holds money, and shows a set bank as set', () => {
    const nav = settingsView(settings({ bankCents: 250_000 }), DEFAULTS, {
      cents: 160_000,
      source: 'nav',
      asOf: new Date(0),
    });
    expect(field(nav, 'Staking')).toContain('the set $2,500.00 applies only while the fund holds nothing');
    const set = settingsView(settings({ bankCents: 250_000, bankSetAt: 0 }), DEFAULTS);
    expect(field(set, 'Staking')).toContain('bank: $2,500.00 (set with /settings bank)');
    expect(field(settingsView(settings(), DEFAULTS, null), 'Staking')).toContain(
      'bank: not set (no suggested stakes, no share caps)',
    );
  });

  it('shows the performance fee with its period and the manager it is owed to', () => {
    const view = settingsView(
      settings({ fundFeePercent: 20, fundFeePeriod: 'quarter', fundFeeManagerId: '1200000000000000011' }),
      DEFAULTS,
    );
    expect(field(view, 'Fund')).toContain(
      'performance fee: 20% above the high-water mark, crystallised each quarter, owed to <@1200000000000000011>',
    );
    expect(field(settingsView(settings({ fundFeePercent: 10 }), DEFAULTS), 'Fund')).toContain(
      'crystallised each month, owed to no one yet (name them with /settings fund fee_manager:)',
    );
  });

  it('shows the tipster share with its rate, its cap and its period, and off by default', () => {
    const view = settingsView(settings({ fundSharePercent: 12.5, fundFeePeriod: 'quarter' }), DEFAULTS);
    expect(field(view, 'Fund')).toContain(
      "tipster share: 12.5% of each tipster's attributed profit above their own mark, capped by the fund's gain above its mark, crystallised each quarter with the fee",
    );
    expect(field(settingsView(settings(), DEFAULTS), 'Fund')).toContain(
      'tipster share: off (turn it on with /settings fund share_percent:20, any rate up to 50)',
    );
  });

  it('says how to turn the fee on as it is typed, the option before its colon (issue 45)', () => {
    expect(field(settingsView(settings(), DEFAULTS), 'Fund')).toContain(
      'performance fee: off (turn it on with /settings fund fee_percent:20, any rate up to 50)',
    );
    expect(field(settingsView(settings({ fundFeePeriod: 'quarter' }), DEFAULTS), 'Fund')).toContain(
      'performance fee: off (turn it on with /settings fund fee_percent:20, any rate up to 50; period quarter kept)',
    );
  });
});

describe('/settings show with a fund open (decision 1910)', () => {
  it("names the fund's accounts, and what sizes a bet outside them", () => {
    const at = new Date('2026-11-27T15:17:30Z');
    const view = settingsView(
      settings({ bankCents: 250_000 }),
      DEFAULTS,
      { cents: 160_000, source: 'nav', asOf: at },
      undefined,
      ['bookie_c/alpha_c'],
    );
    expect(field(view, 'Staking')).toContain("bank: the fund's NAV, $1,600.00");
    expect(field(view, 'Staking')).toContain(
      "bets through other accounts are outside the fund: sized from the set $2,500.00; best price routes only among the fund's accounts",
    );
    expect(field(view, 'Fund')).toContain('accounts: bookie_c/alpha_c');
  });

  it("says the fund's NAV becomes the bank at its first strike, not 'not set'", () => {
    const view = settingsView(settings(), DEFAULTS, null, undefined, ['bookie_c/alpha_c']);
    expect(field(view, 'Staking')).toContain("bank: the fund's NAV from its first strike (not struck yet;");
  });

  it('keeps the fee period and manager in sight while the fee is off', () => {
    const view = settingsView(
      settings({ fundFeePeriod: 'quarter', fundFeeManagerId: '1200000000000000011' }),
      DEFAULTS,
    );
    expect(field(view, 'Fund')).toContain('performance fee: off (');
    expect(field(view, 'Fund')).toContain('period quarter, manager <@1200000000000000011>');
  });
});
