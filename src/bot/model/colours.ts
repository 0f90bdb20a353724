/** Embed colours: one meaning each. */
export const COLOUR = {
  info: 0x5865f2,
  ok: 0x57f287,
  pending: 0xfee75c,
  refused: 0xed4245,
  muted: 0x99aab5,
} as const;
