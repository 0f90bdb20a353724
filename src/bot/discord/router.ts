import { type Client, Events, type Interaction } from 'discord.js';
import { isMemberMistake, userMessage } from '../model/user-errors.js';
import { UserFacingError } from '../model/user-facing-error.js';
import type { Command, RoutedContext } from './command.js';
import { guardComponent, type OwnerLookup } from './component-guard.js';
import { type ComponentRoute, componentKind } from './component-handler.js';
import { decodeCustomId } from './custom-id.js';
import { arrived, finished, Intake, RESTARTING } from './intake.js';
import { isDiscordCode, logRefusal, replyEphemeral, UNKNOWN_INTERACTION } from './interact.js';
import { interactionEditsOf } from './interaction-edits.js';

/** The answer to a control that got another kind of interaction than its handler takes (a forged or stale id). */
export const WRONG_KIND = 'This control does not take that kind of interaction. Run the command again.';

/**
 * One listener for every interaction: commands by name, components by the custom id's scope:action.
 * No collectors: a button on a message from before a restart routes the same way.
 */
export function attachRouter<C extends RoutedContext>(
  client: Client,
  commands: Map<string, Command<C>>,
  components: Record<string, ComponentRoute<C>>,
  owners: Record<string, OwnerLookup<C>>,
  ctx: C,
  intake: Intake = new Intake(),
): Intake {
  const edits = interactionEditsOf(client);
  client.on(Events.InteractionCreate, (interaction) => {
    arrived(interaction.id);
    if (edits && interaction.isMessageComponent())
      edits.pressed(interaction.id, interaction.message.id, interaction.applicationId, interaction.token);
    const handled = (
      intake.open ? route(interaction, commands, components, owners, ctx, intake) : refuse(interaction, ctx, intake)
    )
      .catch(() => undefined)
      .finally(() => {
        finished(interaction.id);
        edits?.finished(interaction.id);
      });
    intake.track(handled);
  });
  return intake;
}

/** While the process drains: every new interaction is told to try again (autocomplete gets no choices). */
async function refuse(interaction: Interaction, ctx: RoutedContext, intake: Intake): Promise<void> {
  intake.metrics?.interactions.inc({ ...labelsOf(interaction), outcome: 'draining' });
  try {
    if (interaction.isAutocomplete()) await interaction.respond([]);
    else await replyEphemeral(interaction, RESTARTING, 'info');
  } catch (err) {
    if (!isDiscordCode(err, UNKNOWN_INTERACTION)) ctx.logger.warn('could not answer during the drain', { err });
  }
}

/** The kind and name of an interaction for the metrics: a command's name or a control's scope:action, never an id. */
function labelsOf(interaction: Interaction): { kind: string; name: string } {
  if (interaction.isAutocomplete()) return { kind: 'autocomplete', name: interaction.commandName };
  if (interaction.isCommand()) return { kind: 'command', name: interaction.commandName };
  if ('customId' in interaction) {
    const id = decodeCustomId(interaction.customId);
    return { kind: 'component', name: id ? `${id.scope}:${id.action}` : 'unknown' };
  }
  return { kind: 'other', name: 'unknown' };
}

export async function route<C extends RoutedContext>(
  interaction: Interaction,
  commands: Map<string, Command<C>>,
  components: Record<string, ComponentRoute<C>>,
  owners: Record<string, OwnerLookup<C>>,
  shared: C,
  intake?: Intake,
): Promise<void> {
  const outcome = await routeOnce(interaction, commands, components, owners, shared);
  intake?.metrics?.interactions.inc({ ...labelsOf(interaction), outcome });
}

async function routeOnce<C extends RoutedContext>(
  interaction: Interaction,
  commands: Map<string, Command<C>>,
  components: Record<string, ComponentRoute<C>>,
  owners: Record<string, OwnerLookup<C>>,
  shared: C,
): Promise<'ok' | 'refused' | 'error'> {
  // Every line logged while handling this interaction carries its id, the member and what was used.
  const logger = shared.logger.child({
    interaction: interaction.id,
    user: interaction.user.id,
    ...(interaction.isCommand() || interaction.isAutocomplete() ? { command: interaction.commandName } : {}),
    ...('customId' in interaction ? { customId: interaction.customId } : {}),
  });
  logger.debug('interaction', { type: interaction.type });
  const ctx: C = { ...shared, logger };
  try {
    if (interaction.isAutocomplete()) {
      const cmd = commands.get(interaction.commandName);
      try {
        await cmd?.autocomplete?.(interaction, ctx);
      } catch (err) {
        if (!isDiscordCode(err, UNKNOWN_INTERACTION)) ctx.logger.warn('autocomplete failed', { err });
        return 'error';
      }
      return 'ok';
    }
    if (interaction.isChatInputCommand()) {
      const cmd = commands.get(interaction.commandName);
      if (!cmd) {
        await replyEphemeral(interaction, 'This command is not available any more. Type / to see the current ones.');
        return 'refused';
      }
      await cmd.execute(interaction, ctx);
      return 'ok';
    }
    if (interaction.isButton() || interaction.isStringSelectMenu() || interaction.isModalSubmit()) {
      const id = decodeCustomId(interaction.customId);
      const handler = id ? components[`${id.scope}:${id.action}`] : undefined;
      if (!id || !handler) {
        await replyEphemeral(interaction, 'This control is from an older version of the bot. Run the command again.');
        return 'refused';
      }
      if (componentKind(interaction) !== handler.kind) {
        ctx.logger.warn('control got another kind of interaction', {
          want: handler.kind,
          got: componentKind(interaction),
        });
        await replyEphemeral(interaction, WRONG_KIND);
        return 'refused';
      }
      // The record behind the custom id must be this server's (and this message's): checked here, once for all.
      const verdict = await guardComponent(interaction, id, owners[id.scope], ctx);
      if (!verdict.ok) {
        ctx.logger.info('component refused', { reason: verdict.reason, guild: interaction.guildId });
        await replyEphemeral(interaction, verdict.text);
        return 'refused';
      }
      await handler.handle(interaction, id.args, ctx);
    }
    return 'ok';
  } catch (err) {
    const command = interaction.isCommand() ? interaction.commandName : undefined;
    if (isMemberMistake(err)) {
      // A member's typo or a gateway refusal of what they asked: one short line, the answer tells them what to do.
      if (err instanceof UserFacingError && err.log) ctx.logger[err.log.level](err.log.line, err.log.fields);
      else {
        const error = err instanceof UserFacingError ? undefined : (err as Error).name;
        logRefusal(ctx.logger, interaction, ctx.logger.redact(userMessage(err)), error ? { error } : {});
      }
    } else {
      ctx.logger.error('interaction failed', { err, kind: interaction.type, command });
    }
    const outcome = isMemberMistake(err) ? 'refused' : 'error';
    if (isDiscordCode(err, UNKNOWN_INTERACTION)) return outcome;
    try {
      await replyEphemeral(interaction, ctx.logger.redact(userMessage(err)));
    } catch (replyErr) {
      ctx.logger.warn('could not tell the user about a failure', { err: replyErr });
    }
    return outcome;
  }
}
