import { describe, expect, it } from 'vitest';
import settings from '../../../commands/settings.js';
import watch from '../../../commands/watch.js';
import { leagueListChoices } from '../../../src/bot/catalog/handlers/choices.js';
import { zoneChoices } from '../../../src/bot/settings/handlers/zone-choices.js';

// Issue 45: an admin typing `/settings timezone zone:` or `/watch server-rule leagues:` got no choices, so a zone or a
// league key had to be known by heart.
const NOW = Date.parse('2026-11-28T12:46:00Z');

/** The option `name` of subcommand `sub` in a command's registration, as Discord receives it. */
function optionOf(command: { data: { toJSON(): unknown } }, sub: string, name: string) {
  const json = command.data.toJSON() as { options: Array<{ name: string; options?: Array<Record<string, unknown>> }> };
  return json.options.find((o) => o.name === sub)?.options?.find((o) => o.name === name);
}

describe("an admin's choices as they type", () => {
  it('the time zone: offered as one types, each with the time there now', () => {
    expect(optionOf(settings, 'timezone', 'zone')?.autocomplete).toBe(true);
    expect(zoneChoices('sydney', NOW)[0]).toEqual({
      name: 'Australia/Sydney · 23:46 GMT+11',
      value: 'Australia/Sydney',
    });
    expect(zoneChoices('new york', NOW).map((c) => c.value)).toContain('America/New_York');
    // A fresh server's zone first, with nothing typed.
    expect(zoneChoices('', NOW)[0]).toEqual({ name: 'UTC · 12:46 UTC', value: 'UTC' });
    expect(zoneChoices('', NOW).length).toBeLessThanOrEqual(25);
  });

  it("the server rule's leagues: each league added to the list typed so far, by name, none twice", () => {
    expect(optionOf(watch, 'server-rule', 'leagues')?.autocomplete).toBe(true);
    expect(leagueListChoices('nr')).toContainEqual({ name: 'NRL', value: 'nrl' });
    const after = leagueListChoices('nrl, a');
    expect(after).toContainEqual({ name: 'NRL, AFL', value: 'nrl, afl' });
    expect(after.map((c) => c.value)).not.toContain('nrl, nrl');
  });
});
