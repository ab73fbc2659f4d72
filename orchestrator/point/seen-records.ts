// Which records of a point the drain has already written. A batch the recorder retried after a Redis
// restart can be in the stream twice (the server applied it, the reply was lost), and a raw file must
// hold each call, and each (call, attempt), exactly once.

/** Attempts 1..16 live in a per-call bitmask; anything else (never seen in practice) in a Set. */
const MASK_ATTEMPTS = 16;
/** Calls beyond this index go to the Set too, so a malformed index cannot allocate gigabytes. */
const MAX_DENSE_CALL = 2 ** 27;

/** A set of (call, attempt) keys, compact for the dense 0..calls-1 × 1..maxAttempts of a real point. */
export class SeenRecords {
  private mask = new Uint16Array(1024);
  private readonly other = new Set<string>();

  /** Marks the record of `line` seen; false when an earlier line had the same key (a duplicate). */
  addLine(line: string, withAttempt: boolean): boolean {
    const c1 = line.indexOf(',');
    const callText = c1 < 0 ? line : line.slice(0, c1);
    let attemptText = '1';
    if (withAttempt) {
      const c2 = line.indexOf(',', c1 + 1);
      attemptText = c1 < 0 ? '' : line.slice(c1 + 1, c2 < 0 ? undefined : c2);
    }
    const call = Number(callText);
    const attempt = Number(attemptText);
    if (
      String(call) !== callText ||
      String(attempt) !== attemptText ||
      !Number.isInteger(call) ||
      call < 0 ||
      call >= MAX_DENSE_CALL ||
      !Number.isInteger(attempt) ||
      attempt < 1 ||
      attempt > MASK_ATTEMPTS
    ) {
      // Not a canonical key: compare the key text itself (the analysis reports a malformed line).
      const key = `${callText},${attemptText}`;
      if (this.other.has(key)) return false;
      this.other.add(key);
      return true;
    }
    if (call >= this.mask.length) {
      let size = this.mask.length;
      while (size <= call) size *= 2;
      const grown = new Uint16Array(size);
      grown.set(this.mask);
      this.mask = grown;
    }
    const bit = 1 << (attempt - 1);
    const seen = this.mask[call]!;
    if ((seen & bit) !== 0) return false;
    this.mask[call] = seen | bit;
    return true;
  }
}
