// Handlers of the events list (`ev:*` custom ids).

import { MessageFlags } from 'discord.js';
import type { ComponentHandler } from '../../discord/component-handler.js';
import { row, select } from '../../discord/components.js';
import { encodeCustomId, pageArg } from '../../discord/custom-id.js';
import { UserFacingError } from '../../model/user-facing-error.js';
import { listingLeftOut } from '../book-offer.js';
import type { CardRef } from '../card-ref.js';
import { type EventsQueryRef, eventsForDay } from '../events-query.js';
import { getRef, ownerOf, putRef } from '../refs.js';
import { eventLine, eventPickValue, eventsView } from '../views/events.js';
import { openCard } from './card-show.js';
import type { CatalogDeps } from './deps.js';

async function listing(ctx: CatalogDeps, ref: string | undefined, what: string) {
  const q = ref ? await getRef<EventsQueryRef>(ctx.store, ref) : undefined;
  if (!q) throw new UserFacingError(`This listing is too old to ${what}. Run /events again.`);
  const events = await eventsForDay(ctx, q);
  return { q, events, leftOut: await listingLeftOut(ctx, events) };
}

export const eventsPage: ComponentHandler<CatalogDeps> = async (interaction, [ref, page], ctx) => {
  if (!interaction.isButton()) return;
  await interaction.deferUpdate();
  const { q, events, leftOut } = await listing(ctx, ref, 'page');
  const view = eventsView({
    events,
    leftOut,
    league: q.league,
    date: q.day,
    timezone: q.timezone,
    ...(q.from === undefined ? {} : { from: q.from }),
    page: pageArg(page),
    ref: ref as string,
    ...(q.status ? { status: q.status } : {}),
  });
  await interaction.editReply({ embeds: view.embeds, components: view.components });
};

/** The card of an event to open once its book is known (the picker's second step). */
type PickedEvent = Omit<CardRef, 'bookie'> & { books: string[] };

/**
 * An event picked under /events: its card at its only book at once, or a menu of the books that list it. The
 * listing is re-read (cached); an event no longer at the picked place is not guessed at.
 */
export const eventPick: ComponentHandler<CatalogDeps> = async (interaction, [ref], ctx) => {
  if (!interaction.isStringSelectMenu()) return;
  const [indexText = '', tag] = (interaction.values[0] ?? '').split(':');
  const { q, events, leftOut } = await listing(ctx, ref, 'open');
  const event = events[Number(indexText)];
  if (!event || eventPickValue(Number(indexText), event.event_id) !== `${indexText}:${tag}`) {
    throw new UserFacingError('The listing changed since it was shown. Run /events again and pick the event.');
  }
  const books = event.books ?? [];
  if (books.length === 0) throw new UserFacingError(`No book lists ${event.name} yet: there is no card to open.`);
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const picked: PickedEvent = { epk: event.event_id, eventName: event.name, startTime: event.start_time, books };
  if (books.length === 1) return showCardAt(interaction, ctx, picked, books[0] as string);
  const pickRef = await putRef(ctx.store, picked, ownerOf(interaction));
  await interaction.editReply({
    content: `**${event.name}**\n${eventLine(event, q.timezone, ctx.now(), leftOut[event.event_id])}\nPick a book to open its market card.`,
    components: [
      row(
        select(
          encodeCustomId('ev', 'book', pickRef),
          'Open the card at…',
          books.map((b) => ({ label: b, value: b })),
        ),
      ),
    ],
  });
};

/** A book picked for an event from the picker: its market card replaces the menu. */
export const eventBook: ComponentHandler<CatalogDeps> = async (interaction, [ref], ctx) => {
  if (!interaction.isStringSelectMenu()) return;
  const picked = ref ? await getRef<PickedEvent>(ctx.store, ref) : undefined;
  if (!picked) throw new UserFacingError('This menu is too old. Run /events again and pick the event.');
  const bookie = interaction.values[0] ?? '';
  if (!picked.books.includes(bookie)) throw new UserFacingError(`${bookie} does not list ${picked.eventName}.`);
  await interaction.deferUpdate();
  await showCardAt(interaction, ctx, picked, bookie);
};

async function showCardAt(
  interaction: Parameters<ComponentHandler>[0],
  ctx: CatalogDeps,
  picked: PickedEvent,
  bookie: string,
): Promise<void> {
  const { books: _books, ...event } = picked;
  const view = await openCard(ctx, { ...event, bookie }, ownerOf(interaction), (content) =>
    interaction.editReply({ content }),
  );
  await interaction.editReply({ content: '', embeds: view.embeds, components: view.components });
}
