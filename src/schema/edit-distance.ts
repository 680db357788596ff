/** The edit distance of the "did you mean" suggestions (field names, country names). */

/**
 * Optimal string alignment distance (Levenshtein with adjacent transpositions). Three rows of the
 * table at a time (a transposition looks two rows back): a file of 40,000 unknown fields asks
 * for it hundreds of thousands of times, and a whole table each time kept the collector busy.
 */
export function editDistance(a: string, b: string): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, before[j - 2]! + 1);
      current[j] = v;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}
