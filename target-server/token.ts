// The check of the run's bearer token, shared by the control routes (PUT /config, POST /reset: express) and
// POST /peer-cancel (on node:http, like /work): the same token opens both, and every target of a run has it.

import { createHash, timingSafeEqual } from 'node:crypto';

/** Whether an Authorization header carries `token`; with no token every request passes. */
export function tokenCheck(token: string | null): (authorization: string | undefined) => boolean {
  if (token === null) return () => true;
  const expected = digest(token);
  return (authorization) => {
    const h = authorization ?? '';
    const given = h.startsWith('Bearer ') ? h.slice(7) : '';
    // Compare digests so timing says nothing about the token, whatever length was sent.
    return timingSafeEqual(digest(given), expected);
  };
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}
