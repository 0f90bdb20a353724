// What a user ended up seeing in a deferred /markets reply: the card, a rate-limit notice, another notice, or nothing.

export type Shown = 'card' | 'rate-limit' | 'other' | 'none';

interface ReplyLike {
  content?: string;
  embeds?: { title?: string; description?: string }[];
  components?: unknown[];
}

export function classify(messages: readonly ReplyLike[]): Shown {
  const last = messages.at(-1);
  if (!last || ((last.embeds?.length ?? 0) === 0 && !last.content)) return 'none';
  const text = JSON.stringify([last.content, last.embeds]);
  // "Queued behind the gateway's limit…" is an interim reply: the card (or a refusal) replaces it.
  if (/Queued behind/i.test(text)) return 'none';
  // A 429 is a word of its own: a card's Discord timestamp (<t:1796429700:f>) may hold the digits.
  if (/rate limit|card limit|\b429\b|too many/i.test(text)) return 'rate-limit';
  return (last.components?.length ?? 0) > 0 || last.embeds?.some((e) => e.title) ? 'card' : 'other';
}
