// Types for the page's emoji module, so tests can import it under strict TypeScript.
export const EMOJI_BASE: string;
export function emojiFile(emoji: string): string;
export function isEmoji(text: string): boolean;
export function emojiImg(emoji: string, className?: string): string;
export function emojify(html: string): string;
export function splitEmoji(text: string): Array<{ text: string } | { emoji: string }>;
