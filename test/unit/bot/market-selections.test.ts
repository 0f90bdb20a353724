import type { APIStringSelectComponent } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { marketView } from '../../../src/bot/catalog/views/card.js';
import { decodeCustomId } from '../../../src/bot/discord/custom-id.js';
import { limitViolations, type MessageView } from '../../../src/bot/model/limits.js';
import type { MarketCard } from '../../../src/gateway/index.js';

function cardWith(selections: number): MarketCard {
  return {
    epk: 'e',
    bookie: 'bookie_a',
    bound: true,
    market_ref_betting_enabled: true,
    markets: [
      {
        market: 'scorer',
        label: 'Anytime scorer',
        tier: 'popular',
        selections: Array.from({ length: selections }, (_, j) => ({
          label: `Player ${j}`,
          odds: 2 + j / 10,
          line: null,
          market_ref: `ref-${j}`,
          bettable: true,
        })),
      },
    ],
  };
}

const menuOf = (view: MessageView) =>
  view.components.flatMap((r) => r.components).find((c) => c.type === 3) as APIStringSelectComponent | undefined;
const buttonsOf = (view: MessageView) =>
  view.components.flatMap((r) => r.components).filter((c) => c.type === 2) as Array<{
    custom_id?: string;
    label?: string;
    disabled?: boolean;
  }>;

describe('a market with more selections than one menu holds', () => {
  const card = cardWith(60);
  const view = (selectionPage: number) =>
    marketView({ card, eventName: 'A v B', ref: 'r1', marketIndex: 0, selectionPage });

  it('offers the first 25 selections with a Next button to the rest', () => {
    const first = view(0);
    expect(menuOf(first)?.options.map((o) => o.value)).toEqual(Array.from({ length: 25 }, (_, j) => String(j)));
    const next = buttonsOf(first).find((b) => b.label?.startsWith('Next'));
    expect(next?.disabled).toBe(false);
    expect(decodeCustomId(next?.custom_id ?? '')).toMatchObject({
      scope: 'card',
      action: 'sels',
      args: ['r1', '0', '1'],
    });
    expect(limitViolations(first)).toEqual([]);
  });

  it('makes every selection reachable: the last page holds the remainder and Next is disabled', () => {
    const last = view(2);
    expect(menuOf(last)?.options.map((o) => o.value)).toEqual(Array.from({ length: 10 }, (_, j) => String(50 + j)));
    expect(buttonsOf(last).find((b) => b.label?.startsWith('Next'))?.disabled).toBe(true);
    expect(last.embeds[0]?.footer?.text).toContain('selections 51–60 of 60');
  });

  it('clamps a page past the end to the last page', () => {
    expect(menuOf(view(9))?.options[0]?.value).toBe('50');
  });

  it('shows no pager when the selections fit in one menu', () => {
    const small = marketView({ card: cardWith(25), eventName: 'A v B', ref: 'r1', marketIndex: 0 });
    expect(menuOf(small)?.options).toHaveLength(25);
    expect(buttonsOf(small).map((b) => b.label)).toEqual(['◀ Back to the card']);
  });
});
