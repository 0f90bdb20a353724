// Handlers of the events list (`ev:*` custom ids).
import { type EventsQueryRef, eventsForDay } from '../catalog/events-query.js';
import type { ComponentHandler } from '../discord/component-handler.js';
import { pageArg } from '../discord/custom-id.js';
import { UserFacingError } from '../model/user-facing-error.js';
import { getRef } from '../repos/refs.js';
import { eventsView } from '../views/events.js';

export const eventsPage: ComponentHandler = async (interaction, [ref, page], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferUpdate();
  const q = ref ? await getRef<EventsQueryRef>(ctx.store, ref) : undefined;
  if (!q) throw new UserFacingError('This listing is too old to page. Run /events again.');
  const events = await eventsForDay(ctx, q);
  const view = eventsView({
    events,
    league: q.league,
    date: q.day,
    timezone: q.timezone,
    page: pageArg(page),
    ref: ref as string,
    ...(q.status ? { status: q.status } : {}),
  });
  await interaction.editReply({ embeds: view.embeds, components: view.components });
};
