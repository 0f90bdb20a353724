export {
  type Attribution,
  type AttributionOptions,
  attribution,
  betPnlCents,
  type FundAccountRef,
  fundBetTest,
  type TipsterRow,
} from './attribution.js';
export type { BetFact } from './facts.js';
export { type MultiCount, multiCount } from './multis.js';
export { type CurvePoint, profitCurve } from './series.js';
export { type Skill, skillOf } from './skill.js';
export { analyticsSource } from './source.js';
export { multiCountText } from './views/multis.js';
export { skillText } from './views/stats.js';
