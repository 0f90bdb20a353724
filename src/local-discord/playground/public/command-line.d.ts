// Types for the page's hand-written command-line module, so tests can import it under strict TypeScript.

export interface CommandOption {
  name: string;
  type: number;
  description?: string;
  required?: boolean;
  autocomplete?: boolean;
  choices?: Array<{ name: string; value: string | number }>;
  options?: CommandOption[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
}

export interface Command {
  name: string;
  description?: string;
  options?: CommandOption[];
}

export interface Suggestion {
  label?: string;
  detail?: string;
  text?: string;
  autocomplete?: string;
  prefix?: string;
  choice?: { option: string; name: string; value: string | number };
}

export interface ParsedLine {
  command: Command | undefined;
  subcommand: string | undefined;
  segments: Array<{ name: string; raw: string; at: number }>;
  stage: 'none' | 'command' | 'unknown-command' | 'subcommand' | 'option' | 'value';
  prefix: string;
  rest: string;
}

export type Picked = Record<string, { name: string; value: string | number }>;
export interface Lookups {
  users?: Record<string, string>;
  channels?: Record<string, string>;
  roles?: Record<string, string>;
}
export type Built =
  | { error: string }
  | { name: string; subcommand?: string; options: Array<{ name: string; type: number; value: unknown }> };

export function leafOptions(command: Command | undefined, subcommandName?: string): CommandOption[];
export function parseLine(text: string, commands: Command[], picked?: Picked): ParsedLine;
export function suggest(text: string, commands: Command[], lookups?: Lookups, picked?: Picked): Suggestion[];
export function applyChoice(text: string, commands: Command[], choiceName: string, picked?: Picked): string;
export function buildCommand(text: string, commands: Command[], picked?: Picked, lookups?: Lookups): Built;
export function partialOptions(
  text: string,
  commands: Command[],
  picked?: Picked,
  lookups?: Lookups,
):
  | {
      name: string;
      subcommand: string | undefined;
      options: Array<{ name: string; type: number; value: unknown }>;
      focused: string | undefined;
    }
  | undefined;
export function commandsFor(
  commands: Array<Command & { default_member_permissions?: string | null }>,
  permissions: string | undefined,
): Command[];
