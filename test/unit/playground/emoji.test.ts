import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emojiFile, emojify, isEmoji, splitEmoji } from '../../../src/local-discord/playground/public/emoji.js';
import { packageDir } from '../../../src/local-discord/playground/static-files.js';

const twemoji = packageDir('@twemoji/svg');

describe('Twemoji images for emoji in the playground', () => {
  it.each([
    ['✅', '2705.svg'],
    ['🎉', '1f389.svg'],
    ['⚠️', '26a0.svg'],
    ['🔴', '1f534.svg'],
    ['1️⃣', '31-20e3.svg'],
    ['🇦🇺', '1f1e6-1f1fa.svg'],
    ['👩‍💻', '1f469-200d-1f4bb.svg'],
  ])('names %s by its code points, a file the bundled package has', (emoji, file) => {
    expect(emojiFile(emoji)).toBe(file);
    expect(existsSync(join(twemoji, file))).toBe(true);
  });

  it('turns emoji in text into images and leaves tags, digits and words alone', () => {
    const html = emojify('<strong>Bet placed ✅</strong> at 1.85 <a href="x">link</a>');
    expect(html).toBe(
      '<strong>Bet placed <img class="emoji" src="/vendor/@twemoji/svg/2705.svg" alt="✅" draggable="false" onerror="this.replaceWith(this.alt)"></strong> at 1.85 <a href="x">link</a>',
    );
  });

  it('tells a lone emoji from text with one in it', () => {
    expect(isEmoji('🎉')).toBe(true);
    expect(isEmoji('Won🎉')).toBe(false);
    expect(isEmoji('2')).toBe(false);
  });
});

describe('text cut at its emoji', () => {
  it('keeps the words and the emoji in their order', () => {
    expect(splitEmoji('Bet placed ✅')).toEqual([{ text: 'Bet placed ' }, { emoji: '✅' }]);
    expect(splitEmoji('✅ Bet placed')).toEqual([{ emoji: '✅' }, { text: ' Bet placed' }]);
    expect(splitEmoji('a 🇬🇧 b')).toEqual([{ text: 'a ' }, { emoji: '🇬🇧' }, { text: ' b' }]);
  });
});
