/**
 * Ranks of the edits of one slip message (the stage of the bet each shows): the outbox lets a higher rank
 * replace a lower one still waiting, and never lets a lower one overwrite a higher one already sent.
 */
export const RANK = {
  submitted: 10,
  unknown: 20,
  final: 30,
} as const;
