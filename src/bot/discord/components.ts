import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APISelectMenuOption,
  type APIStringSelectComponent,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import { clip, LIMITS } from '../model/limits.js';

export function button(
  customId: string,
  label: string,
  style: ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Success | ButtonStyle.Danger = ButtonStyle.Secondary,
  disabled = false,
): APIButtonComponent {
  return { type: ComponentType.Button, custom_id: customId, label: clip(label, LIMITS.buttonLabel), style, disabled };
}

/** A button that opens a URL (no interaction: it works where the bot takes none, e.g. in a DM). */
export function linkButton(url: string, label: string): APIButtonComponent {
  return { type: ComponentType.Button, url, label: clip(label, LIMITS.buttonLabel), style: ButtonStyle.Link };
}

export function row(
  ...components: APIComponentInMessageActionRow[]
): APIActionRowComponent<APIComponentInMessageActionRow> {
  return { type: ComponentType.ActionRow, components };
}

export function select(
  customId: string,
  placeholder: string,
  options: APISelectMenuOption[],
): APIStringSelectComponent {
  return {
    type: ComponentType.StringSelect,
    custom_id: customId,
    placeholder: clip(placeholder, LIMITS.selectPlaceholder),
    options: options.slice(0, LIMITS.selectOptions).map((o) => ({
      ...o,
      label: clip(o.label, LIMITS.selectOptionText),
      ...(o.description === undefined ? {} : { description: clip(o.description, LIMITS.selectOptionText) }),
    })),
  };
}

/** Prev / page n of m / Next, or nothing for a single page. */
export function pager(
  idFor: (page: number) => string,
  page: number,
  pages: number,
): APIActionRowComponent<APIComponentInMessageActionRow>[] {
  if (pages <= 1) return [];
  return [
    row(
      button(idFor(page - 1), '◀ Prev', ButtonStyle.Secondary, page <= 0),
      button(idFor(page + 1), 'Next ▶', ButtonStyle.Secondary, page >= pages - 1),
    ),
  ];
}
