// Suggests the intended word for a typo ("did you mean `max-iterations`?") by edit distance.

/** Levenshtein distance between two strings (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The candidate nearest to `word` (case-insensitive), or undefined when none is plausibly meant. */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `hint` followed by "; did you mean `x`?" when a candidate is close to `word`. */
export function withSuggestion(hint: string, word: string, candidates: readonly string[]): string {
  const match = closestMatch(word, candidates);
  return match === undefined ? hint : `${hint}; did you mean \`${match}\`?`;
}
