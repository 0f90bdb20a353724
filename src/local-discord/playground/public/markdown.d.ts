// Types for the page's markdown module, so tests can import it under strict TypeScript.
export function escapeHtml(s: string): string;
export function markdown(text: string, names?: Record<string, string>): string;
export function relativeTime(ms: number, now?: number): string;
export function refreshRelativeTimes(
  root: {
    querySelectorAll(
      selector: string,
    ): Iterable<{ textContent: string | null; getAttribute(name: string): string | null }>;
  },
  now?: number,
): void;
