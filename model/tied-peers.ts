// Where a tied copy's siblings are (model/tied.ts): the replicas the other copies of its call go to, which the
// server that starts a copy must know to cancel them — possibly before a later copy has been sent (gapMs > 0).
// The `random` balancer picks each copy's replica as a pure function of (call, copy, the replicas the call
// already used) through its counter-based draw (library/balancer.ts), so the whole list is known when the
// call starts, and the load generator tags each copy's request with it. With as many replicas as copies every
// other replica holds a sibling, whatever the balancer. Otherwise round-robin, least-outstanding and
// two-choices read the client's state when the copy is sent, and no server can be told in advance: the real
// clock refuses such a point (the simulator, which sends the cancel where the copy went, runs it).

import type { BalancerDraw, BalancerName } from '../library/index.ts';
import type { HedgeConfig } from './hedge-config.ts';
import { peerCancelCopies } from './tied.ts';

/** What finding a tied call's siblings needs of its point. */
export interface TiedPeerSetup {
  replicas: number;
  copies: number;
  balancer: BalancerName;
  /** The balancer's counter-based draw for the point's seed (model/replicas.ts balancerDraw). */
  draw: BalancerDraw;
}

/** Whether every copy's siblings can be told when its call starts (see the file header). */
export function tiedPeersKnown(balancer: BalancerName, replicas: number, copies: number): boolean {
  return balancer === 'random' || replicas <= copies;
}

/**
 * The replicas of copy `copy`'s siblings (every other copy of `call`), in copy order. `used[k]` is the replica
 * copy k went to, for k = 1..copy (the balancer writes them into the call's state as each copy is sent); later
 * copies' are predicted exactly as the `random` balancer with hedgeTo `other` will pick them: among the
 * replicas the call has not used, in index order, the draw's share of them. With replicas ≤ copies: every
 * replica but copy `copy`'s own. Throws a RangeError when neither holds (run-time checks refuse such points).
 */
export function tiedPeers(s: TiedPeerSetup, call: number, copy: number, used: readonly number[]): number[] {
  const own = used[copy];
  if (s.replicas <= s.copies) {
    const out: number[] = [];
    for (let r = 0; r < s.replicas; r++) if (r !== own) out.push(r);
    return out;
  }
  if (s.balancer !== 'random') {
    throw new RangeError(
      `tiedPeers: balancer ${s.balancer} with ${s.replicas} replicas and ${s.copies} copies cannot be predicted`,
    );
  }
  const rs = used.slice(0, copy + 1);
  for (let k = copy + 1; k <= s.copies; k++) rs[k] = randomPick(s, call, k, rs);
  const out: number[] = [];
  for (let k = 1; k <= s.copies; k++) if (k !== copy) out.push(rs[k]);
  return out;
}

// The `random` balancer's pick for copy k (library/balancer.ts BalancerPolicy.pick, hedgeTo `other`): copy 1
// anywhere; a later one among the replicas copies 1..k−1 left free (all of them if none is left).
function randomPick(s: TiedPeerSetup, call: number, k: number, rs: readonly number[]): number {
  const R = s.replicas;
  if (k === 1) return Math.floor(s.draw(call, 1, 0) * R);
  const free: number[] = [];
  for (let r = 0; r < R; r++) {
    let taken = false;
    for (let j = 1; j < k; j++) if (rs[j] === r) taken = true;
    if (!taken) free.push(r);
  }
  const c = free.length > 0 ? free : Array.from({ length: R }, (_, r) => r);
  return c[Math.floor(s.draw(call, k, 0) * c.length)];
}

/**
 * Why the real clock cannot tie `config`'s copies across `replicas` replicas behind `balancer` (null when it
 * can): the load generator must name each copy's siblings when the call starts. The message says the value and
 * the fix; its caller puts the field's name (`balancer`, `--balancer`) in front.
 */
export function tiedPeersIssue(config: HedgeConfig, balancer: BalancerName, replicas: number): string | null {
  const copies = peerCancelCopies(config);
  if (copies === 0 || tiedPeersKnown(balancer, replicas, copies)) return null;
  return `${JSON.stringify(balancer)} with ${replicas} replicas cannot tie ${JSON.stringify(config.name)} on the real clock: it picks a later copy's replica only when that copy is sent, from the client's own state, so the server that starts the first copy cannot know where to send its peer cancel; use balancer "random" (a pure function of the call: each copy's request names its siblings' replicas), or replicas ≤ copies (${copies}: every other replica then holds a sibling), or \`hedgebench simulate\` for this combination`;
}
