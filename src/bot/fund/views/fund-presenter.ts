// The words of the fund service's posts (src/bot/fund/presenter.ts names what it says): the composition hands this to
// it, so the service decides and the views speak (decision 1930).
import { monthlyStatementView, strikeHeldView, strikeView } from './fund.js';

export const fundViews = {
  strike: strikeView,
  monthlyStatement: monthlyStatementView,
  strikeHeld: strikeHeldView,
};
