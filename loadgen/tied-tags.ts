// A tied point's copies name their siblings' replicas on their request (`GET /work?call=N&attempt=K&peers=1,3`),
// so the server that starts one can cancel the others — even a later copy not yet sent (gapMs > 0): the `random`
// balancer's picks are a pure function of the call (model/tied-peers.ts), the very replicas the balancer, and the
// simulator, will send them to. The point spec refuses the balancers whose picks cannot be told in advance.

import { balancerDraw, peerCancelCopies, type TiedPeerSetup, tiedPeers } from '../model/index.ts';
import type { ResolvedOptions } from './loadgen-options.ts';

/** The query a copy's request gains (`&peers=…`), from the replicas its call used so far; null: not tied. */
export type TiedTag = (call: number, copy: number, used: readonly number[]) => string;

/** The tags of `o`'s copies over `R` replicas, or null when the point's calls are not tied. */
export function tiedTags(o: ResolvedOptions, R: number): TiedTag | null {
  const copies = peerCancelCopies(o.config);
  if (copies === 0 || R < 2) return null;
  const s: TiedPeerSetup = {
    replicas: R,
    copies,
    balancer: o.balancer ?? 'random',
    draw: balancerDraw(o.seed),
  };
  return (call, copy, used) => `&peers=${tiedPeers(s, call, copy, used).join(',')}`;
}
