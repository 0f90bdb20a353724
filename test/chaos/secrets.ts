/** Where a secret shows up in captured text, as "source: …context…" lines (the secret itself masked). */
export function findSecrets(sources: Record<string, string[]>, secrets: string[]): string[] {
  const hits: string[] = [];
  for (const [source, texts] of Object.entries(sources)) {
    for (const text of texts) {
      for (const secret of secrets) {
        if (secret.length < 4) continue;
        const at = text.indexOf(secret);
        if (at >= 0) {
          const context = text.slice(Math.max(0, at - 40), at + secret.length + 40).replace(secret, '<SECRET>');
          hits.push(`${source}: …${context}…`);
        }
      }
    }
  }
  return hits;
}
