// Turns a message as the Discord API returns it into the Discord web components.
import { ButtonStyle, ComponentType, MessageFlags } from 'discord-api-types/v10';
import { EMOJI_BASE, emojiFile, emojify, splitEmoji } from './emoji.js';
import { escapeHtml, markdown } from './markdown.js';
import { postedTime } from './timestamps.js';

// The component's button types by Discord style; any other style is drawn as secondary.
const BUTTON_TYPES = {
  [ButtonStyle.Primary]: 'primary',
  [ButtonStyle.Secondary]: 'secondary',
  [ButtonStyle.Success]: 'success',
  [ButtonStyle.Danger]: 'destructive',
  [ButtonStyle.Link]: 'secondary',
};

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) node.append(c);
  return node;
}

function html(tag, attrs, markup) {
  const node = el(tag, attrs);
  node.innerHTML = markup;
  return node;
}

const hex = (n) => `#${Number(n).toString(16).padStart(6, '0')}`;
const displayName = (u) => u?.global_name || u?.username || 'unknown';

/**
 * `ctx`: `{ names, clock: { now }, avatarFor(user), onButton(message, component), onSelect(message, component, values) }`.
 */
export function renderMessage(message, ctx) {
  const author = message.author ?? {};
  const flags = message.flags ?? 0;
  const node = el('discord-message', {
    id: `m-${message.id}`,
    'data-message-id': message.id,
    author: displayName(author),
    avatar: ctx.avatarFor(author),
    bot: Boolean(author.bot),
    // "(edited)" sits after the text; an embed-only message shows none, as in Discord.
    edited: Boolean(message.edited_timestamp && message.content),
    ephemeral: Boolean(flags & MessageFlags.Ephemeral),
    'twenty-four': true,
    // Kept to draw its time again as the clock moves ("Today at" becomes "Yesterday at").
    'data-posted': message.timestamp || undefined,
  });
  if (message.timestamp) node.timestamp = postedTime(message.timestamp, ctx.clock);
  // "Dismiss message" on an ephemeral reply hides it from this page, as in Discord.
  if (flags & MessageFlags.Ephemeral) node.dismissMessageClicked = () => node.remove();

  const used = message.interaction_metadata ?? message.interaction;
  // Discord heads a slash command's reply with who ran it; component replies carry no such line.
  if (used?.name) {
    const who = escapeHtml(displayName(used.user));
    node.append(
      html('div', { slot: 'reply', class: 'used-command' }, `<strong>${who}</strong> used /${escapeHtml(used.name)}`),
    );
  }

  if (flags & MessageFlags.Loading) {
    node.append(html('span', { class: 'thinking' }, `${escapeHtml(displayName(author))} is thinking…`));
  } else if (message.content) {
    node.append(html('span', { class: 'content' }, markdown(message.content, ctx.names, ctx.clock)));
  }
  for (const embed of message.embeds ?? []) node.append(renderEmbed(embed, ctx, message));
  // Image files no embed shows are drawn under the message, as Discord does.
  const shown = new Set(
    (message.embeds ?? [])
      .flatMap((e) => [e.image?.url, e.thumbnail?.url])
      .filter((u) => u?.startsWith('attachment://')),
  );
  const images = (message.attachments ?? []).filter(
    (a) => a.content_type?.startsWith('image/') && !shown.has(`attachment://${a.filename}`),
  );
  if (images.length) {
    const box = el('div', { class: 'attachment-images' });
    for (const a of images) box.append(el('img', { src: a.url, alt: a.filename, 'data-filename': a.filename }));
    node.append(box);
  }
  // Any other file is a card with its name (a link that downloads it), its size and a download button.
  for (const a of message.attachments ?? []) {
    if (a.content_type?.startsWith('image/')) continue;
    const size = fileSize(a.size ?? 0);
    node.append(
      el('discord-file-attachment', {
        slot: 'attachments',
        name: a.filename,
        href: a.url,
        bytes: size.bytes,
        'bytes-unit': size.unit,
        'data-filename': a.filename,
      }),
    );
  }
  const rows = (message.components ?? []).filter((c) => c.type === ComponentType.ActionRow);
  if (rows.length) {
    const box = el('discord-attachments', { slot: 'components' });
    for (const row of rows) box.append(renderRow(row, message, ctx));
    node.append(box);
  }
  return node;
}

/** A file's size as Discord writes it under the name: "512 bytes", "1.58 KB", "2.4 MB". */
export function fileSize(n) {
  if (n < 1024) return { bytes: n, unit: 'bytes' };
  const [value, unit] = n < 1024 ** 2 ? [n / 1024, 'KB'] : [n / 1024 ** 2, 'MB'];
  return { bytes: Number(value.toFixed(2)), unit };
}

/**
 * The embed component draws a title's emoji before all of its words (it gathers the words and adds them last):
 * its title and author name are drawn here instead, in order, each emoji a Twemoji image.
 */
function orderedTitle(title) {
  if (!title) return null;
  const nodes = [];
  title.split('\n').forEach((line, i) => {
    if (i > 0) nodes.push(document.createElement('br'));
    for (const part of splitEmoji(line)) {
      if ('text' in part) nodes.push(part.text);
      else
        nodes.push(
          el('discord-custom-emoji', {
            name: part.emoji,
            url: `${EMOJI_BASE}${emojiFile(part.emoji)}`,
            'embed-emoji': true,
          }),
        );
    }
  });
  return nodes;
}

/** An embed's `attachment://name` points at the message's file of that name (its URL), as in Discord. */
function resolveUrl(url, message) {
  if (!url?.startsWith('attachment://')) return url;
  const name = url.slice('attachment://'.length);
  return (message.attachments ?? []).find((a) => a.filename === name)?.url;
}

// Discord draws an embed's image up to 400 × 300 and opens it whole when clicked; the component stops at 300 px wide,
// where a chart's legend and axes cannot be read.
let embedImageSheet;
function showImageAsDiscord(node) {
  if (!embedImageSheet) {
    embedImageSheet = new CSSStyleSheet();
    embedImageSheet.replaceSync(':host .discord-embed-image { max-width: 400px; max-height: 300px; cursor: zoom-in; }');
  }
  const adopt = () => {
    const root = node.shadowRoot;
    if (root && !root.adoptedStyleSheets.includes(embedImageSheet)) {
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, embedImageSheet];
    }
  };
  // The shadow root exists once the component is connected and has drawn.
  queueMicrotask(() => (node.updateComplete ?? Promise.resolve()).then(adopt));
  node.addEventListener('click', (event) => {
    const img = event
      .composedPath()
      .find((n) => n instanceof HTMLImageElement && n.classList.contains('discord-embed-image'));
    if (img) window.open(img.src, '_blank', 'noopener');
  });
}

function renderEmbed(embed, ctx, message) {
  const node = el('discord-embed', {
    slot: 'embeds',
    color: embed.color !== undefined && embed.color !== null ? hex(embed.color) : undefined,
    'embed-title': embed.title,
    url: embed.url,
    'author-name': embed.author?.name,
    'author-url': embed.author?.url,
    thumbnail: resolveUrl(embed.thumbnail?.url, message),
    image: resolveUrl(embed.image?.url, message),
  });
  node.parseTitle = orderedTitle;
  if (embed.image?.url) showImageAsDiscord(node);
  if (embed.description) {
    node.append(
      html('discord-embed-description', { slot: 'description' }, markdown(embed.description, ctx.names, ctx.clock)),
    );
  }
  if (embed.fields?.length) {
    const fields = el('discord-embed-fields', { slot: 'fields' });
    let inlineRun = 0;
    for (const f of embed.fields) {
      inlineRun = f.inline ? (inlineRun % 3) + 1 : 0;
      const field = el('discord-embed-field', {
        'field-title': f.name,
        inline: Boolean(f.inline),
        'inline-index': f.inline ? inlineRun : undefined,
      });
      field.innerHTML = markdown(f.value, ctx.names, ctx.clock);
      fields.append(field);
    }
    node.append(fields);
  }
  if (embed.footer?.text || embed.timestamp) {
    const footer = el('discord-embed-footer', {
      slot: 'footer',
      'footer-image': embed.footer?.icon_url,
      'data-posted': embed.timestamp || undefined,
    });
    if (embed.timestamp) footer.timestamp = postedTime(embed.timestamp, ctx.clock);
    footer.insertAdjacentHTML('beforeend', emojify(escapeHtml(embed.footer?.text ?? '')));
    node.append(footer);
  }
  return node;
}

function renderRow(row, message, ctx) {
  const node = el('discord-action-row');
  for (const c of row.components ?? []) {
    if (c.type === ComponentType.Button) node.append(renderButton(c, message, ctx));
    else if (c.type === ComponentType.StringSelect) node.append(renderSelect(c, message, ctx));
  }
  return node;
}

function renderButton(c, message, ctx) {
  const label = c.label ?? c.emoji?.name ?? '';
  const node = el('discord-button', {
    type: BUTTON_TYPES[c.style] ?? 'secondary',
    disabled: Boolean(c.disabled),
    url: c.style === ButtonStyle.Link ? c.url : undefined,
    'data-custom-id': c.custom_id,
  });
  node.innerHTML = emojify(escapeHtml(label));
  if (c.style !== ButtonStyle.Link && !c.disabled) node.addEventListener('click', () => ctx.onButton(message, c));
  return node;
}

function renderSelect(c, message, ctx) {
  const node = el('discord-string-select-menu', {
    placeholder: c.placeholder ?? 'Make a selection',
    disabled: Boolean(c.disabled),
    'data-custom-id': c.custom_id,
  });
  for (const o of c.options ?? []) {
    const option = el('discord-string-select-menu-option', {
      label: o.label,
      description: o.description,
      emoji: o.emoji?.name,
      'data-value': o.value,
    });
    option.selectOption = () => {
      if (c.disabled) return;
      // The component only toggles its list on its own label; close it as Discord does on a pick.
      node._onClick?.();
      ctx.onSelect(message, c, [o.value]);
    };
    node.append(option);
  }
  node.addEventListener('click', () => requestAnimationFrame(() => placeMenu(node)));
  return node;
}

/**
 * The component always drops its list below the menu, where the message list's edge cuts it off near the
 * bottom: open it upwards when there is more room above, as Discord does.
 */
export function placeMenu(node) {
  const list = node.shadowRoot?.querySelector('.discord-string-select-menu-option-slot');
  const label = node.shadowRoot?.querySelector('label');
  if (!list || !label || list.classList.contains('discord-string-select-menu-hidden')) return;
  list.style.transform = '';
  const bounds = node.closest('.scroller')?.getBoundingClientRect() ?? { top: 0, bottom: window.innerHeight };
  const menu = label.getBoundingClientRect();
  const height = list.getBoundingClientRect().height;
  const below = bounds.bottom - menu.bottom;
  const above = menu.top - bounds.top;
  if (height > below && above > below) {
    list.style.transform = `translateY(calc(-100% - ${Math.round(menu.height)}px))`;
    node.dataset.opens = 'up';
  } else {
    node.dataset.opens = 'down';
  }
}
