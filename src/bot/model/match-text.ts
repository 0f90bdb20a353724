/** Case-insensitive "contains" ranking: prefix matches first. */
export function matchText<T>(items: T[], typed: string, text: (t: T) => string): T[] {
  const q = typed.trim().toLowerCase();
  if (q === '') return items;
  const scored = items
    .map((item) => ({ item, at: text(item).toLowerCase().indexOf(q) }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => (a.at === 0 ? 0 : 1) - (b.at === 0 ? 0 : 1));
  return scored.map((x) => x.item);
}
