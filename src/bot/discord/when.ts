/** A start time as Discord timestamps: each reader sees it in their own zone, with "in 2 hours" beside it. */
export function startsText(startTime: string | null | undefined): string | undefined {
  if (!startTime) return undefined;
  const ms = Date.parse(startTime);
  if (!Number.isFinite(ms)) return undefined;
  const unix = Math.floor(ms / 1000);
  return `<t:${unix}:f> (<t:${unix}:R>)`;
}
