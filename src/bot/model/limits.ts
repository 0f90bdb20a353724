import type { APIActionRowComponent, APIComponentInMessageActionRow, APIEmbed } from 'discord.js';

/** Discord's documented message limits; every view stays inside them. */
export const LIMITS = {
  content: 2000,
  embeds: 10,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  embedTotal: 6000,
  actionRows: 5,
  buttonsPerRow: 5,
  buttonLabel: 80,
  selectOptions: 25,
  selectOptionText: 100,
  selectPlaceholder: 150,
  customId: 100,
  modalTitle: 45,
  textInputLabel: 45,
  autocompleteChoices: 25,
  choiceName: 100,
  choiceValue: 100,
} as const;

/** Cuts text to max characters, marking the cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}

export interface MessageView {
  content?: string;
  embeds: APIEmbed[];
  components: APIActionRowComponent<APIComponentInMessageActionRow>[];
}

function embedSize(e: APIEmbed): number {
  let n = (e.title ?? '').length + (e.description ?? '').length + (e.footer?.text ?? '').length;
  n += (e.author?.name ?? '').length;
  for (const f of e.fields ?? []) n += f.name.length + f.value.length;
  return n;
}

/** Every limit a message view breaks; empty when it can be sent. Used by tests and as a last guard. */
export function limitViolations(view: MessageView): string[] {
  const out: string[] = [];
  if ((view.content ?? '').length > LIMITS.content) out.push('content too long');
  if (view.embeds.length > LIMITS.embeds) out.push('too many embeds');
  let total = 0;
  for (const e of view.embeds) {
    if ((e.title ?? '').length > LIMITS.embedTitle) out.push('embed title too long');
    if ((e.description ?? '').length > LIMITS.embedDescription) out.push('embed description too long');
    if ((e.footer?.text ?? '').length > LIMITS.footer) out.push('footer too long');
    const fields = e.fields ?? [];
    if (fields.length > LIMITS.embedFields) out.push('too many fields');
    for (const f of fields) {
      if (f.name.length === 0 || f.name.length > LIMITS.fieldName) out.push(`field name length ${f.name.length}`);
      if (f.value.length === 0 || f.value.length > LIMITS.fieldValue) out.push(`field value length ${f.value.length}`);
    }
    total += embedSize(e);
  }
  if (total > LIMITS.embedTotal) out.push(`embeds total ${total} > 6000`);
  if (view.components.length > LIMITS.actionRows) out.push('too many action rows');
  for (const row of view.components) {
    if (row.components.length > LIMITS.buttonsPerRow) out.push('too many components in a row');
    for (const c of row.components) {
      const cid = 'custom_id' in c ? c.custom_id : undefined;
      if (cid !== undefined && cid.length > LIMITS.customId) out.push(`custom_id length ${cid.length}`);
      if ('label' in c && typeof c.label === 'string' && c.label.length > LIMITS.buttonLabel) out.push('button label');
      if ('options' in c && Array.isArray(c.options)) {
        if (c.options.length === 0 || c.options.length > LIMITS.selectOptions) out.push('select option count');
        for (const o of c.options) {
          if (o.label.length > LIMITS.selectOptionText || o.value.length > LIMITS.selectOptionText) out.push('option');
          if ((o.description ?? '').length > LIMITS.selectOptionText) out.push('option description');
        }
      }
      if ('placeholder' in c && (c.placeholder ?? '').length > LIMITS.selectPlaceholder) out.push('placeholder');
    }
  }
  return out;
}

/**
 * Shrinks the longest texts of each embed until the embeds together fit Discord's 6000-character
 * budget; views call it last, so odd data (very long names) never makes a message unsendable.
 */
export function fitView(view: MessageView): MessageView {
  const embeds = view.embeds.map((e) => ({ ...e, fields: e.fields?.map((f) => ({ ...f })) }));
  const budget = Math.floor(LIMITS.embedTotal / Math.max(1, embeds.length));
  for (const e of embeds) {
    let over = embedSize(e) - budget;
    while (over > 0) {
      const texts: Array<{ len: number; set: (s: string) => void; get: () => string }> = [];
      if (e.description)
        texts.push({ len: e.description.length, get: () => e.description ?? '', set: (s) => (e.description = s) });
      if (e.title) texts.push({ len: e.title.length, get: () => e.title ?? '', set: (s) => (e.title = s) });
      for (const f of e.fields ?? []) {
        texts.push({ len: f.value.length, get: () => f.value, set: (s) => (f.value = s) });
        texts.push({ len: f.name.length, get: () => f.name, set: (s) => (f.name = s) });
      }
      const longest = texts.sort((a, b) => b.len - a.len)[0];
      if (longest === undefined || longest.len <= 16) break;
      const target = Math.max(16, longest.len - over, Math.floor(longest.len / 2));
      longest.set(clip(longest.get(), target));
      over = embedSize(e) - budget;
    }
  }
  return { ...view, embeds };
}
