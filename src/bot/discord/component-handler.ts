import type { ButtonInteraction, ModalSubmitInteraction, StringSelectMenuInteraction } from 'discord.js';
import type { RoutedContext } from './command.js';

/** What a button, select menu or modal submit hands its handler; the handlers' tables import only this. */
export type ComponentInteraction = ButtonInteraction | StringSelectMenuInteraction | ModalSubmitInteraction;
/** A handler for one custom-id scope:action, given the custom id's arguments. */
export type ComponentHandler<C extends RoutedContext = RoutedContext> = (
  interaction: ComponentInteraction,
  args: string[],
  ctx: C,
) => Promise<void>;

/** The kinds of interaction a control sends. */
export type ComponentKind = 'button' | 'select' | 'modal';

/** A handler and the one kind of interaction it takes: the router answers any other kind itself. */
export interface ComponentRoute<C extends RoutedContext = RoutedContext> {
  kind: ComponentKind;
  handle: ComponentHandler<C>;
}

export const buttonRoute = <C extends RoutedContext>(handle: ComponentHandler<C>): ComponentRoute<C> => ({
  kind: 'button',
  handle,
});
export const selectRoute = <C extends RoutedContext>(handle: ComponentHandler<C>): ComponentRoute<C> => ({
  kind: 'select',
  handle,
});
export const modalRoute = <C extends RoutedContext>(handle: ComponentHandler<C>): ComponentRoute<C> => ({
  kind: 'modal',
  handle,
});

export function componentKind(interaction: ComponentInteraction): ComponentKind {
  if (interaction.isButton()) return 'button';
  return interaction.isModalSubmit() ? 'modal' : 'select';
}
