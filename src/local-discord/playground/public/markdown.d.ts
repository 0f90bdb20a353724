// Types for the page's markdown module, so tests can import it under strict TypeScript.
import type { Clock } from './timestamps.js';
export function escapeHtml(s: string): string;
export function markdown(text: string, names?: Record<string, string>, clock?: Clock): string;
