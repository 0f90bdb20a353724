import type { ButtonInteraction, ModalSubmitInteraction, StringSelectMenuInteraction } from 'discord.js';
import type { BotContext } from '../context.js';

/** What a button, select menu or modal submit hands its handler; the handlers' tables import only this. */
export type ComponentInteraction = ButtonInteraction | StringSelectMenuInteraction | ModalSubmitInteraction;
/** A handler for one custom-id scope:action, given the custom id's arguments. */
export type ComponentHandler = (interaction: ComponentInteraction, args: string[], ctx: BotContext) => Promise<void>;
