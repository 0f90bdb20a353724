import { describe, expect, it } from 'vitest';
import { parseLeagueList } from '../../../src/bot/model/leagues.js';

describe('a list of leagues as a member types it', () => {
  it('takes keys and preset names, any case, comma separated, each once', () => {
    expect(parseLeagueList('nrl, AFL,Rugby Union, rugby_union , nrl')).toEqual(['nrl', 'afl', 'rugby_union']);
  });
  it('refuses an unknown league by name, with the keys to pick from', () => {
    expect(() => parseLeagueList('nrl, quidditch')).toThrow(/Unknown league: `quidditch`\. .*from: afl, nrl/);
  });
  it('refuses an empty list with an example', () => {
    expect(() => parseLeagueList(' , ')).toThrow(/Name at least one league, e\.g\. `nrl`/);
  });
});
