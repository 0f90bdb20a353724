/** One line of /exposure: what is held or at risk in a scope, and the room its cap leaves. */
export interface ExposureLine {
  label: string;
  cents: number;
  capCents: number | undefined;
}

export interface ExposureReport {
  /** The event asked about (epk and name), or undefined for the whole desk. */
  event: { epk: string; name: string } | undefined;
  totalOpenCents: number;
  events: ExposureLine[];
  markets: ExposureLine[];
  members: ExposureLine[];
  accounts: ExposureLine[];
  syndicateDay: ExposureLine;
}
