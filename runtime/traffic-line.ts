// The first line a command prints before it sends load to a user's service (`probe`, `run` with a foreign
// target): what will be sent, where, how fast and for how long — one wording for every such command.

/** What a command is about to send to a service it did not build. */
interface TrafficPlan {
  /** The command, e.g. `probe`, `hedgebench run`. */
  who: string;
  /** The URL every request GETs. */
  url: string;
  /** How many requests and how fast, e.g. `open-loop Poisson steps … up to at most 400 req/s`. */
  what: string;
  /** How long at most, e.g. `at most 180 s in all`. */
  bound: string;
}

/** The plan as one line (bodies are never read: any service answers the same way). */
export function trafficLine(t: TrafficPlan): string {
  return `${t.who}: GET ${t.url} (bodies discarded unread) — ${t.what}; ${t.bound}`;
}
