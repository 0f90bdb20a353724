import type { ButtonInteraction, ModalSubmitInteraction, StringSelectMenuInteraction } from 'discord.js';
import type { BotContext } from '../context.js';

/** What a button, select menu or modal submit hands its handler; the handlers' tables import only this. */
export type ComponentInteraction = ButtonInteraction | StringSelectMenuInteraction | ModalSubmitInteraction;
/** A handler for one custom-id scope:action, given the custom id's arguments. */
export type ComponentHandler = (interaction: ComponentInteraction, args: string[], ctx: BotContext) => Promise<void>;

/** The kinds of interaction a control sends. */
export type ComponentKind = 'button' | 'select' | 'modal';

/** A handler and the one kind of interaction it takes: the router answers any other kind itself. */
export interface ComponentRoute {
  kind: ComponentKind;
  handle: ComponentHandler;
}

export const buttonRoute = (handle: ComponentHandler): ComponentRoute => ({ kind: 'button', handle });
export const selectRoute = (handle: ComponentHandler): ComponentRoute => ({ kind: 'select', handle });
export const modalRoute = (handle: ComponentHandler): ComponentRoute => ({ kind: 'modal', handle });

export function componentKind(interaction: ComponentInteraction): ComponentKind {
  if (interaction.isButton()) return 'button';
  return interaction.isModalSubmit() ? 'modal' : 'select';
}
