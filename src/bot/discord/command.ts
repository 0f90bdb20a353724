import type {
  AutocompleteInteraction,
  ChatInputCommandInteraction,
  SlashCommandBuilder,
  SlashCommandOptionsOnlyBuilder,
  SlashCommandSubcommandsOnlyBuilder,
} from 'discord.js';
import type { Logger } from '../config/logger.js';

/**
 * What the router itself reads of the context it hands every command and control: the rest is the composition's
 * (`BotContext`, built by `startBot`), and each wing's handlers name only the part they use (their wing's deps).
 */
export interface RoutedContext {
  logger: Logger;
}

/** What every file in commands/ exports by default (discord.js guide style), over the context it is handed. */
export interface Command<C extends RoutedContext = RoutedContext> {
  data: SlashCommandBuilder | SlashCommandOptionsOnlyBuilder | SlashCommandSubcommandsOnlyBuilder;
  execute(interaction: ChatInputCommandInteraction, ctx: C): Promise<void>;
  autocomplete?(interaction: AutocompleteInteraction, ctx: C): Promise<void>;
}
