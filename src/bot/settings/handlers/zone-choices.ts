import type { ApplicationCommandOptionChoiceData } from 'discord.js';
import { timeOfDayIn } from '../../model/dates.js';
import { LIMITS } from '../../model/limits.js';
import { matchText } from '../../model/match-text.js';

/** The IANA zones this runtime knows, UTC first (a fresh server's zone, and not in Intl's list). */
let zones: string[] | undefined;
const allZones = (): string[] => {
  zones ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
  return zones;
};

/**
 * `/settings timezone zone:` as one types: the zones whose name holds the text ("sydney", "new_york", "london"),
 * each with the time there now, so an admin sees the zone is the one meant ("Australia/Sydney · 06:46 GMT+11").
 */
export function zoneChoices(typed: string, now: number): ApplicationCommandOptionChoiceData<string>[] {
  const text = typed.trim().replace(/ /g, '_');
  return matchText(allZones(), text, (z) => z)
    .slice(0, LIMITS.autocompleteChoices)
    .map((z) => ({ name: `${z.replace(/_/g, ' ')} · ${timeOfDayIn(now, z)}`, value: z }));
}
