// Emoji as Twemoji images, as Discord's own client draws them: a bare machine has no colour-emoji font,
// so the glyphs would show as empty boxes. The SVGs come from the @twemoji/svg package (served under /vendor).

export const EMOJI_BASE = '/vendor/@twemoji/svg/';

// One emoji each: flags, keycaps, ZWJ sequences and skin tones count as one.
const EMOJI = /\p{RGI_Emoji}/gv;
const ZWJ = '\u200d';

/** Twemoji's file name for one emoji: its code points in hex, without U+FE0F unless it is a ZWJ sequence. */
export function emojiFile(emoji) {
  const text = emoji.includes(ZWJ) ? emoji : emoji.replace(/\ufe0f/g, '');
  return `${[...text].map((c) => c.codePointAt(0).toString(16)).join('-')}.svg`;
}

export function isEmoji(text) {
  return new RegExp(`^${EMOJI.source}$`, 'v').test(text);
}

/** The image tag for one emoji; falls back to the text if the package lacks that image. */
export function emojiImg(emoji, className = 'emoji') {
  return `<img class="${className}" src="${EMOJI_BASE}${emojiFile(emoji)}" alt="${emoji}" draggable="false" onerror="this.replaceWith(this.alt)">`;
}

/** Replaces emoji in the text parts of an HTML string (never inside a tag) with Twemoji images. */
export function emojify(html) {
  return html
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith('<') ? part : part.replace(EMOJI, (e) => emojiImg(e))))
    .join('');
}

/** The text cut at its emoji, in order: `[{ text: 'Bet placed ' }, { emoji: '✅' }]`. */
export function splitEmoji(text) {
  const parts = [];
  let last = 0;
  for (const m of text.matchAll(EMOJI)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index) });
    parts.push({ emoji: m[0] });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
