/**
 * The one gate of the fund's money (decision 1950). Every bet reaches the book through Placement.confirm's claim,
 * so this gate runs there, for every kind of slip (a command, an alert's Bet button, a proposal's last approval,
 * racing, promos, best-price routing): it decides whose the bet is (the fund owning its account now, or none),
 * refuses another server's bet through a fund's account before anything is held, and works out the rooms the claim
 * then reserves atomically with the bet's record: the fund's money in the account (cash less float less what the
 * book has not taken yet), the daily loss limit and one event's share of NAV.
 */

import type { FundCapName, FundClaim, FundDecision } from '../betting/index.js';
import type { GatewayPort } from '../gateway-port.js';
import { balanceCents } from '../model/gateway-amounts.js';
import { formatMoney } from '../model/money.js';
import type { SlipPayload } from '../model/slip-rules.js';
import { getSettings } from '../settings/index.js';
import { type RiskCtx, type RiskPicture, riskPicture } from './fund-risk.js';
import { accountName } from './model/fund-records.js';
import { checkDailyLoss, checkEventShare, eventCapCents, stopRefusal } from './model/risk-limits.js';

export interface FundGateDeps extends RiskCtx {
  gateway: Pick<GatewayPort, 'balances' | 'sessions'>;
}

/** The account (`bookie`, `username`) a slip's session belongs to: the slip names it, else the session list. */
async function accountOf(d: FundGateDeps, p: SlipPayload): Promise<{ bookie: string; username: string } | undefined> {
  if (p.account) return { bookie: p.bookie, username: p.account };
  const cached = await d.catalog.peekSessions();
  const sessions = cached?.some((s) => s.session_id === p.sessionId) ? cached : await d.gateway.sessions.list();
  const s = sessions.find((x) => x.session_id === p.sessionId);
  return s?.username ? { bookie: String(s.bookie ?? p.bookie), username: String(s.username) } : undefined;
}

export class FundGate {
  constructor(private readonly d: FundGateDeps) {}

  /**
   * Whose the slip's bet would be and what its claim must fit. `guildKey` is the server the slip was made in. An
   * account whose owner cannot be named (its session is not on the key any more) is refused: its money cannot be
   * told apart.
   */
  async decide(p: SlipPayload, guildKey: string): Promise<FundDecision> {
    const at = await accountOf(this.d, p);
    if (!at) {
      return {
        ok: false,
        message: `Not placed: the account of session ${p.sessionId} at ${p.bookie} could not be read, so whose money this stake is cannot be told. Try again shortly, or pick another book.`,
      };
    }
    const account = accountName(at);
    const owner = await this.d.fund.repo.accountOwner(at.bookie, at.username);
    const none: FundClaim = { fundKey: null, account, bookie: at.bookie, username: at.username };
    if (!owner) return { ok: true, claim: none, overText: () => '' };
    if (owner.guildKey !== guildKey) {
      return {
        ok: false,
        message: `Not placed: ${account} is another server's fund account; only that server's members can bet through it. Pick another book or account (see /sessions).`,
      };
    }
    const fundKey = owner.guildKey;
    const { timezone } = await getSettings(this.d.store, fundKey);
    const picture = await riskPicture(this.d, fundKey, timezone);
    const { limits, stop } = picture.state;
    if (stop) {
      const refusal = stopRefusal(stop, limits);
      return { ok: false, message: refusal.ok ? 'Not placed: the drawdown stop is on.' : refusal.message };
    }
    // Open stake of fund bets claimed before whose a bet was stored: the claim's statement does not see them.
    const legacyOpenCents = picture.legacyOpenCents;
    const claim: FundClaim = { ...none, fundKey };
    let cashCents: number | undefined;
    if (!p.useBonusBet) {
      const readAt = this.d.now();
      const b = await this.d.gateway.balances.get({ session_id: p.sessionId }).catch(() => undefined);
      if (!b) {
        return {
          ok: false,
          message: `Not placed: the balance of the fund's account ${account} could not be read, so the fund's money in it is not known. Try again shortly.`,
        };
      }
      cashCents = balanceCents(b).cashCents;
      claim.accountRoomCents = Math.max(0, cashCents - owner.floatCents);
      claim.cashReadAt = readAt;
    }
    if (limits.dailyLossCents !== undefined) {
      // stake + max(0, open − realised) ≤ limit: stake ≤ limit here, open + stake ≤ limit + realised at the claim.
      if (p.stakeCents > limits.dailyLossCents) {
        const check = checkDailyLoss({ ...picture, limitCents: limits.dailyLossCents, stakeCents: p.stakeCents });
        if (!check.ok) return { ok: false, message: check.message };
      }
      claim.dailyLossRoomCents = Math.max(0, limits.dailyLossCents + picture.realisedTodayCents - legacyOpenCents);
    }
    if (limits.eventShareBps !== undefined && picture.navCents !== null) {
      claim.eventCapCents = Math.max(0, eventCapCents(picture.navCents, limits.eventShareBps));
    }
    const overText = capOverText({
      limits,
      picture,
      legacyOpenCents,
      claim,
      floatCents: owner.floatCents,
      account,
      cashCents,
      eventName: p.eventName,
    });
    return { ok: true, claim, overText };
  }
}

/** The words of a cap the claim found full: which cap, how much room was left, and what to do. */
function capOverText(o: {
  limits: RiskPicture['state']['limits'];
  picture: RiskPicture;
  legacyOpenCents: number;
  claim: FundClaim;
  floatCents: number;
  account: string;
  cashCents: number | undefined;
  eventName: string;
}): (cap: FundCapName, usedCents: number, stakeCents: number) => string {
  return (cap: FundCapName, usedCents: number, stakeCents: number): string => {
    if (cap === 'fund_daily_loss') {
      const check = checkDailyLoss({
        limitCents: o.limits.dailyLossCents,
        realisedTodayCents: o.picture.realisedTodayCents,
        openStakeCents: usedCents + o.legacyOpenCents,
        stakeCents,
      });
      return check.ok ? '' : check.message;
    }
    if (cap === 'fund_event') {
      const check = checkEventShare({
        shareBps: o.limits.eventShareBps,
        navCents: o.picture.navCents,
        eventOpenCents: usedCents,
        stakeCents,
        eventName: o.eventName,
      });
      return check.ok ? '' : check.message;
    }
    const room = Math.max(0, (o.claim.accountRoomCents ?? 0) - usedCents);
    const float = o.floatCents > 0 ? ` less its float of ${formatMoney(o.floatCents)}` : '';
    const flying = usedCents > 0 ? ` less ${formatMoney(usedCents)} of fund bets not yet taken from it` : '';
    return (
      `Not placed: the fund has ${formatMoney(room)} of its own money in ${o.account} ` +
      `(its cash of ${formatMoney(o.cashCents ?? 0)}${float}${flying}), less than this ${formatMoney(stakeCents)} stake. ` +
      "The float is not the fund's to bet. Try a smaller stake, or another of the fund's accounts (see /fund accounts)."
    );
  };
}
