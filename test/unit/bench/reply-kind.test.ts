import { describe, expect, it } from 'vitest';
import { classify } from '../../../bench/lib/reply-kind.js';

describe('classifying what a /markets user was shown', () => {
  it('a reply with a titled embed or components is a card', () => {
    expect(classify([{ embeds: [{ title: 'Lakers v Celtics' }], components: [{}] }])).toBe('card');
  });

  it('the rate-limit notice counts as a 429 shown to the user', () => {
    const notice = { embeds: [{ description: 'The gateway is rate limiting us. Try again in 2 seconds.' }] };
    expect(classify([notice])).toBe('rate-limit');
  });

  it("a card whose start time's Discord timestamp holds the digits 429 is a card, and a 429 said is a rate limit", () => {
    const card = { embeds: [{ title: 'Mets v Phillies — bookie_a', description: 'Starts <t:1796429700:f>' }] };
    expect(classify([card])).toBe('card');
    expect(classify([{ embeds: [{ description: 'The gateway answered 429: try again shortly.' }] }])).toBe(
      'rate-limit',
    );
  });

  it('another error notice is neither a card nor a rate limit', () => {
    expect(classify([{ embeds: [{ description: 'The gateway could not be reached.' }], components: [] }])).toBe(
      'other',
    );
  });

  it('only the latest message counts, and an empty deferred reply is nothing yet', () => {
    expect(classify([])).toBe('none');
    expect(classify([{ content: '', embeds: [] }])).toBe('none');
    expect(classify([{ embeds: [{ description: 'rate limit' }] }, { embeds: [{ title: 'Card' }] }])).toBe('card');
  });
});
