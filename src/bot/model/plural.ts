import { grouped } from './grouped.js';

/** "1 event", "6 events": a count with its noun, never "event(s)". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${grouped(n)} ${n === 1 ? one : many}`;
}
