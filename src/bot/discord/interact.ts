import {
  type ApplicationCommandOptionChoiceData,
  type AutocompleteInteraction,
  DiscordAPIError,
  type Interaction,
  MessageFlags,
  type RepliableInteraction,
} from 'discord.js';
import { COLOUR } from '../model/colours.js';
import { clip, LIMITS, type MessageView } from '../model/limits.js';

/** A plain ephemeral answer: an error that says what to do, or a short confirmation. */
export function noticeView(text: string, kind: 'error' | 'ok' | 'info' = 'error'): MessageView {
  const color = kind === 'error' ? COLOUR.refused : kind === 'ok' ? COLOUR.ok : COLOUR.info;
  return { embeds: [{ description: clip(text, LIMITS.embedDescription), color }], components: [] };
}

/** Discord's "Unknown interaction": the 3 s window passed (or the user typed on); nothing left to answer. */
export const UNKNOWN_INTERACTION = 10062;
export const ALREADY_ACKNOWLEDGED = 40060;

export function isDiscordCode(err: unknown, code: number): boolean {
  return err instanceof DiscordAPIError && err.code === code;
}

/** An ephemeral message that says what went wrong and what to do, whatever state the interaction is in. */
export async function replyEphemeral(interaction: Interaction, text: string, kind: 'error' | 'ok' | 'info' = 'error') {
  if (!interaction.isRepliable()) return;
  const view = noticeView(text, kind);
  const r = interaction as RepliableInteraction;
  if (r.deferred && !r.replied && !r.isMessageComponent() && !r.isModalSubmit()) {
    await r.editReply({ embeds: view.embeds, components: [] });
  } else if (r.deferred || r.replied) {
    await r.followUp({ embeds: view.embeds, flags: MessageFlags.Ephemeral });
  } else {
    await r.reply({ embeds: view.embeds, flags: MessageFlags.Ephemeral });
  }
}

/**
 * A refusal of what a member asked: one `info` line ("request refused") with what was asked and the sentence the
 * member was shown, then that sentence as an ephemeral answer. Every refusal goes through here or the router.
 */
export async function refuse(
  logger: { info(msg: string, fields?: Record<string, unknown>): void },
  interaction: Interaction,
  text: string,
): Promise<void> {
  logRefusal(logger, interaction, text);
  await replyEphemeral(interaction, text);
}

export function logRefusal(
  logger: { info(msg: string, fields?: Record<string, unknown>): void },
  interaction: Interaction,
  message: string,
  extra: Record<string, unknown> = {},
): void {
  const command = interaction.isCommand() ? interaction.commandName : undefined;
  const control =
    interaction.isMessageComponent() || interaction.isModalSubmit()
      ? interaction.customId.split(':').slice(0, 3).join(':')
      : undefined;
  logger.info('request refused', { kind: interaction.type, command, control, message, ...extra });
}

/** Answers autocomplete within limits; a late answer (10062) is dropped silently. */
export async function respondChoices(
  interaction: AutocompleteInteraction,
  choices: ApplicationCommandOptionChoiceData<string>[],
): Promise<void> {
  const fitted = choices
    .filter((c) => c.value.length > 0 && c.value.length <= LIMITS.choiceValue)
    .slice(0, LIMITS.autocompleteChoices)
    .map((c) => ({ name: clip(c.name, LIMITS.choiceName), value: c.value }));
  try {
    await interaction.respond(fitted);
  } catch (err) {
    if (!isDiscordCode(err, UNKNOWN_INTERACTION) && !isDiscordCode(err, ALREADY_ACKNOWLEDGED)) throw err;
  }
}

/**
 * A number option already typed, read in an autocomplete: Discord sends every Integer and Number option there as
 * a string (discord-api-types#1175), so discord.js's getNumber/getInteger hand back "3", not 3. Null when absent
 * or not a finite number.
 */
export function typedNumber(interaction: AutocompleteInteraction, name: string): number | null {
  const value = interaction.options.get(name)?.value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value.trim());
  return Number.isFinite(n) ? n : null;
}
