/**
 * An integer with en-US thousands separators ("1,234,567", "-20"), exactly as `toLocaleString('en-US')` writes it,
 * without Intl: a process's first Intl call pages in the node binary's ICU data (about 7 MB resident, issue 47),
 * and counts and money are shown on the first card. Anything but a safe integer (a fraction, -0, NaN, 1e21) is left
 * to `toLocaleString`, so it reads as it always did.
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}
