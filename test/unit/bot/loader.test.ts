import { describe, expect, it } from 'vitest';
import { CUSTOM_ID_MAX } from '../../../src/bot/discord/custom-id.js';
import { CommandModuleError, loadCommands, validateCommand } from '../../../src/bot/loader.js';
import { EXPECTED_COMMANDS } from '../../expected-commands.js';

describe('command loader', () => {
  it('loads every command with a valid, unique name and a JSON definition', async () => {
    const commands = await loadCommands();
    expect([...commands.keys()].sort()).toEqual(EXPECTED_COMMANDS);
    for (const cmd of commands.values()) {
      const json = cmd.data.toJSON();
      expect(json.description.length).toBeGreaterThan(0);
      expect(json.description.length).toBeLessThanOrEqual(100);
    }
    expect(CUSTOM_ID_MAX).toBe(100);
  });

  it('names the file and what is missing for a bad module', () => {
    expect(() => validateCommand({}, 'broken.ts')).toThrow(CommandModuleError);
    expect(() => validateCommand({ default: { data: { toJSON: () => ({}), name: 'x' } } }, 'noexec.ts')).toThrow(
      /noexec\.ts: `execute` is not a function/,
    );
    expect(() =>
      validateCommand({ default: { data: { toJSON: () => ({}), name: 'Bad Name' }, execute: async () => {} } }, 'b.ts'),
    ).toThrow(/not a valid slash command name/);
  });
});
