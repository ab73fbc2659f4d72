// A bounded record of [t, inflight] samples through a point: the evidence of a collapse (in-flight count
// growing through the run) without memory that grows with the run's length.

/** Samples of (seconds since t0, attempts in flight), thinned to at most `max` points. */
export class InflightTimeline {
  private samples: Array<[number, number]> = [];
  private every = 1;
  private seen = 0;

  constructor(private readonly max = 1000) {}

  /** Offers one sample; keeps every `every`-th, and halves the resolution when full. */
  add(tSeconds: number, inflight: number): void {
    if (this.seen++ % this.every !== 0) return;
    this.samples.push([Math.round(tSeconds * 1000) / 1000, inflight]);
    if (this.samples.length >= this.max) {
      this.samples = this.samples.filter((_, i) => i % 2 === 0);
      this.every *= 2;
    }
  }

  /** The samples kept, oldest first. */
  toArray(): Array<[number, number]> {
    return this.samples.slice();
  }
}
