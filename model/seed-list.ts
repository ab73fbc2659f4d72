// The seeds `--seed` may name instead of a matrix's: one (`3`), a range (`1-12`), or a list of both (`1,4,7-9`).
// Several seeds are how a claim's verdict is told from the luck of one seed: `hedgebench claims` gives the
// verdict of a majority of seeds and says which claims depend on the seed.

/** The most seeds one `--seed` may name: a sweep of seeds, not a typo such as 1-1000000. */
export const MAX_FLAG_SEEDS = 1000;

/** What `--seed` accepts, for its error message. */
export const SEED_LIST_FLAG_TEXT = `a seed ≥ 0, a range or a comma-separated list of them (e.g. 3, 1-12 or 1,4,7-9; at most ${MAX_FLAG_SEEDS} seeds, none twice)`;

/** The seeds a `--seed` text names, in its order; null when it names none, too many, one twice or a bad range. */
export function parseSeedList(text: string): number[] | null {
  const seeds: number[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (m === null) return null;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || to < from) return null;
    if (seeds.length + (to - from + 1) > MAX_FLAG_SEEDS) return null;
    for (let s = from; s <= to; s++) seeds.push(s);
  }
  return new Set(seeds).size === seeds.length ? seeds : null;
}
