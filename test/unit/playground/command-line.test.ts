import { describe, expect, it } from 'vitest';
import {
  applyChoice,
  buildCommand,
  type Command,
  commandsFor,
  partialOptions,
  suggest,
} from '../../../src/local-discord/playground/public/command-line.js';

const commands: Command[] = [
  {
    name: 'markets',
    description: 'Show a market card',
    options: [
      { name: 'event', type: 3, required: true, autocomplete: true },
      { name: 'bookie', type: 3, required: true, choices: [{ name: 'Bookie A', value: 'bookie_a' }] },
      { name: 'tier', type: 3 },
    ],
  },
  {
    name: 'events',
    options: [
      { name: 'league', type: 3 },
      { name: 'days', type: 4, min_value: 0, max_value: 7 },
    ],
  },
  {
    name: 'settings',
    options: [
      { name: 'show', type: 1 },
      { name: 'limits', type: 1, options: [{ name: 'per_bet', type: 10, required: true }] },
    ],
  },
];

describe('the message box', () => {
  it('suggests commands whose name starts with what was typed', () => {
    expect(suggest('/ma', commands).map((s) => s.text)).toEqual(['/markets ']);
  });

  it('suggests required options first, then optional ones not yet used', () => {
    expect(suggest('/markets ', commands).map((s) => s.text)).toEqual([
      '/markets event:',
      '/markets bookie:',
      '/markets tier:',
    ]);
    // A value picked from the list ends at the space after it.
    const picked = { event: { name: 'x', value: 'e1' } };
    expect(suggest('/markets event:x ', commands, {}, picked).map((s) => s.text)).toEqual([
      '/markets event:x bookie:',
      '/markets event:x tier:',
    ]);
  });

  it('asks the bot for choices while an autocomplete option is typed', () => {
    expect(suggest('/markets event:Lak', commands)).toEqual([{ autocomplete: 'event', prefix: 'Lak' }]);
  });

  it('keeps a typed autocomplete value going across a trailing space, as Discord does, and sends the space', () => {
    expect(suggest('/markets event:Fremantle v ', commands)).toEqual([
      { autocomplete: 'event', prefix: 'Fremantle v ' },
    ]);
    expect(partialOptions('/markets event:Fremantle v ', commands)).toMatchObject({
      focused: 'event',
      options: [{ name: 'event', value: 'Fremantle v ' }],
    });
    expect(applyChoice('/markets event:Fremantle v ', commands, 'Fremantle v Geelong')).toBe(
      '/markets event:Fremantle v Geelong ',
    );
  });

  it('ends a non-autocomplete value at a trailing space and suggests the next options', () => {
    expect(suggest('/markets event:e1 bookie:Bookie A ', commands, {}, {}).map((s) => s.text)).toEqual([
      '/markets event:e1 bookie:Bookie A tier:',
    ]);
  });

  it('offers fixed choices by name and sends their value', () => {
    const [choice] = suggest('/markets event:e1 bookie:boo', commands);
    expect(choice?.text).toBe('/markets event:e1 bookie:Bookie A ');
    const built = buildCommand('/markets event:e1 bookie:Bookie A', commands);
    expect(built).toEqual({
      name: 'markets',
      options: [
        { name: 'event', type: 3, value: 'e1' },
        { name: 'bookie', type: 3, value: 'bookie_a' },
      ],
    });
  });

  it('keeps spaces inside a value and sends a picked autocomplete value instead of its shown name', () => {
    const picked = { event: { name: 'Lakers v Celtics', value: 'basketball/us/nba/lakers_v_celtics/2025-01-01' } };
    const built = buildCommand('/markets event:Lakers v Celtics bookie:Bookie A', commands, picked);
    expect(built).toMatchObject({ options: [{ name: 'event', value: picked.event.value }, { name: 'bookie' }] });
    expect(partialOptions('/markets event:Lakers v Celtics bookie:Bo', commands, picked)).toMatchObject({
      focused: 'bookie',
      options: [
        { name: 'event', value: picked.event.value },
        { name: 'bookie', value: 'Bo' },
      ],
    });
  });

  it('sends the text of options typed before the focused one, a member typed by name as its id', () => {
    const withMember: Command[] = [
      {
        name: 'give',
        options: [
          { name: 'member', type: 6 },
          { name: 'amount', type: 10 },
          { name: 'session', type: 3, autocomplete: true },
        ],
      },
    ];
    const lookups = { users: { Ben: '200' } };
    expect(partialOptions('/give member:@Ben amount:100 session:', withMember, {}, lookups)).toMatchObject({
      focused: 'session',
      options: [
        { name: 'member', value: '200' },
        { name: 'amount', value: '100' },
        { name: 'session', value: '' },
      ],
    });
  });

  it('refuses a line with a missing required option and names it', () => {
    expect(buildCommand('/markets event:e1', commands)).toEqual({ error: 'Missing required option: bookie.' });
  });

  it('converts integers and enforces their bounds', () => {
    expect(buildCommand('/events days:3', commands)).toMatchObject({ options: [{ name: 'days', value: 3 }] });
    expect(buildCommand('/events days:9', commands)).toEqual({ error: 'days must be at most 7.' });
    expect(buildCommand('/events days:two', commands)).toEqual({ error: 'days must be a whole number.' });
  });

  it('needs a subcommand for commands that have them and reads its options', () => {
    expect(buildCommand('/settings', commands)).toEqual({ error: '/settings needs one of: show, limits.' });
    expect(buildCommand('/settings limits per_bet:25.5', commands)).toEqual({
      name: 'settings',
      subcommand: 'limits',
      options: [{ name: 'per_bet', type: 10, value: 25.5 }],
    });
  });

  it('says how to write options when text is not name:value', () => {
    expect(buildCommand('/events NBA', commands)).toMatchObject({ error: expect.stringContaining('name:value') });
  });

  it('names an unknown command', () => {
    expect(buildCommand('/nope', commands)).toEqual({
      error: 'There is no /nope command here. Type / to see the list.',
    });
  });
});

describe('commands offered to a member', () => {
  const all = [
    { name: 'bet', options: [] },
    { name: 'settings', options: [], default_member_permissions: '32' },
  ];

  it('hides a command whose default_member_permissions the member lacks, as Discord does', () => {
    expect(commandsFor(all, '0').map((c) => c.name)).toEqual(['bet']);
    expect(commandsFor(all, String(1n << 11n)).map((c) => c.name)).toEqual(['bet']);
  });

  it('offers it to a member who has them', () => {
    expect(commandsFor(all, String(32n | 8n)).map((c) => c.name)).toEqual(['bet', 'settings']);
  });
});

describe("the message box's pickers for roles, members and channels", () => {
  const withPickers: Command[] = [
    {
      name: 'settings',
      options: [
        { name: 'bet-role', type: 1, options: [{ name: 'role', type: 8, required: true }] },
        { name: 'results-channel', type: 1, options: [{ name: 'channel', type: 7, required: true }] },
        { name: 'limit', type: 1, options: [{ name: 'member', type: 6, required: true }] },
      ],
    },
  ];
  const lookups = {
    users: { Ben: '101', bettor: '101', Ada: '102' },
    channels: { bets: '201', results: '202' },
    roles: { Admin: '302', Bettor: '301', everyone: '300' },
  };

  it("lists the guild's roles filtered by what is typed, and a pick sends the role's id", () => {
    const items = suggest('/settings bet-role role:bet', withPickers, lookups);
    expect(items.map((s) => s.label)).toEqual(['@Bettor']);
    expect(items[0]).toMatchObject({
      text: '/settings bet-role role:@Bettor ',
      choice: { option: 'role', name: '@Bettor', value: '301' },
    });
    expect(suggest('/settings bet-role role:', withPickers, lookups).map((s) => s.label)).toEqual([
      '@Admin',
      '@Bettor',
      '@everyone',
    ]);
  });

  it('sends the id for a role typed by name, with or without @, in any case', () => {
    for (const typed of ['Bettor', '@Bettor', 'bettor']) {
      expect(buildCommand(`/settings bet-role role:${typed}`, withPickers, {}, lookups)).toEqual({
        name: 'settings',
        subcommand: 'bet-role',
        options: [{ name: 'role', type: 8, value: '301' }],
      });
    }
  });

  it('refuses a role name the guild does not have and says to pick one', () => {
    expect(buildCommand('/settings bet-role role:Punters', withPickers, {}, lookups)).toEqual({
      error: 'role must name a role, like @Bettor: pick one from the list.',
    });
  });

  it('lists each member once and channels with #, sending their ids', () => {
    expect(suggest('/settings limit member:', withPickers, lookups).map((s) => s.label)).toEqual(['@Ben', '@Ada']);
    expect(suggest('/settings results-channel channel:#res', withPickers, lookups)).toMatchObject([
      { label: '#results', choice: { value: '202' } },
    ]);
    expect(buildCommand('/settings results-channel channel:#results', withPickers, {}, lookups)).toMatchObject({
      options: [{ name: 'channel', value: '202' }],
    });
  });
});
