import { describe, expect, it } from 'vitest';
import { DiscordApiError } from '../../../src/local-discord/api-error.js';
import { validateAutocompleteData, validateModalData } from '../../../src/local-discord/validation/callback.js';
import { validateCommandList } from '../../../src/local-discord/validation/commands.js';
import { validateMessageBody } from '../../../src/local-discord/validation/message.js';

type Json = Record<string, unknown>;

/** The nested error paths of a 50035, flattened to 'embeds.0.title' style strings. */
function errorPaths(run: () => void): string[] {
  try {
    run();
  } catch (error) {
    if (!(error instanceof DiscordApiError)) throw error;
    expect(error.code).toBe(50035);
    const paths: string[] = [];
    const walk = (node: Json, at: string[]) => {
      for (const [k, v] of Object.entries(node)) {
        if (k === '_errors') paths.push(at.join('.'));
        else walk(v as Json, [...at, k]);
      }
    };
    walk(error.errors ?? {}, []);
    return paths;
  }
  return [];
}

const msg = (body: Json) => () => validateMessageBody(body, { requireContent: true });
const button = (extra: Json = {}) => ({ type: 2, style: 1, label: 'Go', custom_id: `b${Math.random()}`, ...extra });
const row = (components: Json[]) => ({ type: 1, components });
const embed = (extra: Json = {}) => ({ description: 'ok', ...extra });
const field = (name = 'n', value = 'v') => ({ name, value });

describe('message limits (50035 with the field path Discord reports)', () => {
  const cases: [string, Json, string][] = [
    ['content over 2000 characters', { content: 'x'.repeat(2001) }, 'content'],
    ['more than 10 embeds', { embeds: Array.from({ length: 11 }, () => embed()) }, 'embeds'],
    ['embed title over 256', { embeds: [embed({ title: 't'.repeat(257) })] }, 'embeds.0.title'],
    ['embed description over 4096', { embeds: [embed({ description: 'd'.repeat(4097) })] }, 'embeds.0.description'],
    [
      'more than 25 fields',
      { embeds: [embed({ fields: Array.from({ length: 26 }, () => field()) })] },
      'embeds.0.fields',
    ],
    ['field name over 256', { embeds: [embed({ fields: [field('n'.repeat(257))] })] }, 'embeds.0.fields.0.name'],
    [
      'field value over 1024',
      { embeds: [embed({ fields: [field('n', 'v'.repeat(1025))] })] },
      'embeds.0.fields.0.value',
    ],
    ['footer text over 2048', { embeds: [embed({ footer: { text: 'f'.repeat(2049) } })] }, 'embeds.0.footer.text'],
    ['author name over 256', { embeds: [embed({ author: { name: 'a'.repeat(257) } })] }, 'embeds.0.author.name'],
    [
      'embeds totalling over 6000 characters',
      { embeds: [embed({ description: 'd'.repeat(4000) }), embed({ description: 'd'.repeat(2001) })] },
      'embeds',
    ],
    ['more than 5 action rows', { components: Array.from({ length: 6 }, () => row([button()])) }, 'components'],
    [
      'more than 5 buttons in a row',
      { components: [row(Array.from({ length: 6 }, () => button()))] },
      'components.0.components',
    ],
    [
      'a button without custom_id',
      { components: [row([{ type: 2, style: 1, label: 'x' }])] },
      'components.0.components.0.custom_id',
    ],
    [
      'custom_id over 100',
      { components: [row([button({ custom_id: 'c'.repeat(101) })])] },
      'components.0.components.0.custom_id',
    ],
    [
      'button label over 80',
      { components: [row([button({ label: 'l'.repeat(81) })])] },
      'components.0.components.0.label',
    ],
    [
      'select menu with more than 25 options',
      {
        components: [
          row([
            {
              type: 3,
              custom_id: 's',
              options: Array.from({ length: 26 }, (_, i) => ({ label: `o${i}`, value: `v${i}` })),
            },
          ]),
        ],
      },
      'components.0.components.0.options',
    ],
    [
      'select option label over 100',
      { components: [row([{ type: 3, custom_id: 's', options: [{ label: 'l'.repeat(101), value: 'v' }] }])] },
      'components.0.components.0.options.0.label',
    ],
    [
      'select option value over 100',
      { components: [row([{ type: 3, custom_id: 's', options: [{ label: 'l', value: 'v'.repeat(101) }] }])] },
      'components.0.components.0.options.0.value',
    ],
    [
      'select option description over 100',
      {
        components: [
          row([{ type: 3, custom_id: 's', options: [{ label: 'l', value: 'v', description: 'd'.repeat(101) }] }]),
        ],
      },
      'components.0.components.0.options.0.description',
    ],
  ];
  it.each(cases)('rejects %s', (_name, body, path) => {
    expect(errorPaths(msg(body))).toContain(path);
  });

  it('accepts a message at every limit exactly', () => {
    const body = {
      content: 'x'.repeat(2000),
      embeds: [
        embed({
          title: 't'.repeat(256),
          description: 'd'.repeat(1000),
          fields: Array.from({ length: 25 }, () => field('n'.repeat(10), 'v'.repeat(100))),
          footer: { text: 'f'.repeat(100) },
          author: { name: 'a'.repeat(256) },
        }),
      ],
      components: [
        ...Array.from({ length: 4 }, () => row(Array.from({ length: 5 }, () => button({ label: 'l'.repeat(80) })))),
        row([{ type: 2, style: 5, label: 'Docs', url: 'https://example.com' }]),
      ],
    };
    expect(errorPaths(msg(body))).toEqual([]);
  });

  it('refuses an empty new message with 50006 and allows an empty edit', () => {
    expect(() => validateMessageBody({}, { requireContent: true })).toThrow(expect.objectContaining({ code: 50006 }));
    expect(() => validateMessageBody({ content: '' }, { requireContent: false })).not.toThrow();
  });

  it('refuses duplicate custom ids in one message', () => {
    const body = { components: [row([button({ custom_id: 'same' }), button({ custom_id: 'same' })])] };
    expect(errorPaths(msg(body))).toContain('components.0.components.1.custom_id');
  });
});

describe('components v2 messages', () => {
  const text = (content: string) => ({ type: 10, content });
  const v2 = (components: Json[], extra: Json = {}) => ({ flags: 1 << 15, components, ...extra });
  it('accepts layout components with the IS_COMPONENTS_V2 flag', () => {
    const container = { type: 17, components: [text('Card'), row([button()])] };
    expect(errorPaths(msg(v2([container, text('footer')])))).toEqual([]);
  });
  it('refuses layout components without the flag', () => {
    expect(errorPaths(msg({ components: [text('Card')] }))).toContain('components.0.type');
  });
  it('refuses content and embeds next to components v2', () => {
    expect(errorPaths(msg(v2([text('Card')], { content: 'hi', embeds: [embed()] })))).toEqual(['content', 'embeds']);
  });
  it('refuses more than 40 components in total', () => {
    const rows = Array.from({ length: 8 }, () => row(Array.from({ length: 5 }, () => button())));
    expect(errorPaths(msg(v2(rows)))).toContain('components');
  });
  it('judges an edit by the flags of the message it edits', () => {
    const edit = { components: [text('updated')] };
    expect(() => validateMessageBody(edit, { requireContent: false, currentFlags: 1 << 15 })).not.toThrow();
    expect(() => validateMessageBody(edit, { requireContent: false, currentFlags: 0 })).toThrow(
      expect.objectContaining({ code: 50035 }),
    );
  });
});

describe('autocomplete and modal limits', () => {
  const choice = (name = 'n', value: unknown = 'v') => ({ name, value });
  it('rejects more than 25 autocomplete choices', () => {
    expect(
      errorPaths(() => validateAutocompleteData({ choices: Array.from({ length: 26 }, () => choice()) })),
    ).toContain('data.choices');
  });
  it('rejects choice names and values over 100 characters', () => {
    const paths = errorPaths(() =>
      validateAutocompleteData({ choices: [choice('n'.repeat(101)), choice('n', 'v'.repeat(101))] }),
    );
    expect(paths).toEqual(['data.choices.0.name', 'data.choices.1.value']);
  });
  it('accepts 25 choices with numeric values', () => {
    expect(
      errorPaths(() => validateAutocompleteData({ choices: Array.from({ length: 25 }, (_, i) => choice(`c${i}`, i)) })),
    ).toEqual([]);
  });

  const input = (id: string) => ({ type: 1, components: [{ type: 4, custom_id: id, label: 'Stake', style: 1 }] });
  it('rejects a modal title over 45 characters', () => {
    expect(
      errorPaths(() => validateModalData({ title: 't'.repeat(46), custom_id: 'm', components: [input('a')] })),
    ).toContain('data.title');
  });
  it('rejects a modal with more than 5 rows', () => {
    const components = Array.from({ length: 6 }, (_, i) => input(`f${i}`));
    expect(errorPaths(() => validateModalData({ title: 'Stake', custom_id: 'm', components }))).toContain(
      'data.components',
    );
  });
  it('accepts a label-style modal', () => {
    const label = { type: 18, label: 'Stake', component: { type: 4, custom_id: 'stake', style: 1 } };
    expect(errorPaths(() => validateModalData({ title: 'Stake', custom_id: 'm', components: [label] }))).toEqual([]);
  });
});

describe('command registration limits', () => {
  const cmd = (extra: Json = {}) => ({ name: 'markets', description: 'Show markets', ...extra });
  it.each([
    ['an uppercase name', [cmd({ name: 'Markets' })], '0.name'],
    ['a name with spaces', [cmd({ name: 'my markets' })], '0.name'],
    ['a name over 32 characters', [cmd({ name: 'm'.repeat(33) })], '0.name'],
    ['an empty description', [cmd({ description: '' })], '0.description'],
    ['a description over 100 characters', [cmd({ description: 'd'.repeat(101) })], '0.description'],
    ['duplicate names', [cmd(), cmd()], '1.name'],
    [
      'a required option after an optional one',
      [
        cmd({
          options: [
            { type: 3, name: 'a', description: 'a' },
            { type: 3, name: 'b', description: 'b', required: true },
          ],
        }),
      ],
      '0.options.1.required',
    ],
    [
      'more than 25 choices',
      [
        cmd({
          options: [
            {
              type: 3,
              name: 'a',
              description: 'a',
              choices: Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `v${i}` })),
            },
          ],
        }),
      ],
      '0.options.0.choices',
    ],
  ] as [string, Json[], string][])('rejects %s', (_name, body, path) => {
    expect(errorPaths(() => validateCommandList(body))).toContain(path);
  });
  it('accepts a command with subcommands and options', () => {
    const body = [
      cmd({
        options: [
          {
            type: 1,
            name: 'list',
            description: 'List',
            options: [{ type: 3, name: 'league', description: 'League', required: true }],
          },
        ],
      }),
    ];
    expect(errorPaths(() => validateCommandList(body))).toEqual([]);
  });
});
