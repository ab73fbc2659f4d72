// A foreign target: the matrix's `"target": {"url": …}`, a service hedgebench did not build and reaches from
// outside. Its schema, and the dimensions it cannot take (they need hedgebench's own server).

import { z } from 'zod';

/**
 * A service hedgebench did not build (`"target": {"url": …}`): the load generator sends every attempt to the
 * URL and no target server is deployed. The load generator speaks HTTP/1.1 over plain TCP only.
 */
export const targetSchema = z
  .object({
    url: z
      .string({ invalid_type_error: 'must be a URL string, e.g. "http://127.0.0.1:8080/work"' })
      .superRefine((v, ctx) => {
        const problem = targetUrlProblem(v);
        if (problem !== null) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
      }),
  })
  .strict();

/** Why a target URL cannot be loaded, or null. (`URL` is the language's own, not a Node import.) */
function targetUrlProblem(v: string): string | null {
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return `${JSON.stringify(v)} is not a URL; write http://HOST:PORT/PATH`;
  }
  if (url.protocol === 'https:') {
    return `${JSON.stringify(v)} uses https://, which the load generator does not speak yet (HTTP/1.1 over plain TCP); give the service's http:// address`;
  }
  if (url.protocol !== 'http:') {
    return `${JSON.stringify(v)} uses ${url.protocol}; the target must be an http:// URL`;
  }
  if (url.hash !== '') return `${JSON.stringify(v)} has a #fragment, which is never sent; remove it`;
  return null;
}

/** A user's own service (the matrix's `target`): every attempt is a GET of `url`. */
export interface ForeignTarget {
  url: string;
}

// A foreign service is one HTTP/1.1 endpoint seen from outside: the dimensions that need hedgebench's own
// server (several pools, shared stragglers, a degraded replica, gRPC) have nothing to act on there.
export function foreignTargetIssues(
  m: {
    replicas?: number[];
    correlation?: number[];
    slowReplica?: number[];
    transport?: string[];
    model?: { pushback?: unknown };
  },
  at: (path: (string | number)[]) => string,
): string[] {
  const why = 'a foreign target (`target.url`) is one HTTP/1.1 service hedgebench cannot set up';
  const out: string[] = [];
  if ((m.replicas ?? []).some((r) => r > 1))
    out.push(`${at(['replicas'])}: ${why}, so it has no replicas to add; remove replicas (or list only 1)`);
  if ((m.correlation ?? []).some((c) => c > 0))
    out.push(
      `${at(['correlation'])}: ${why}, so its stragglers cannot be correlated; remove correlation (or list only 0)`,
    );
  if ((m.slowReplica ?? []).some((f) => f > 1))
    out.push(
      `${at(['slowReplica'])}: ${why}, so no replica can be slowed; remove slowReplica (or list only 1)`,
    );
  // The model's pushback is a rule hedgebench's target server follows; someone else's service does not.
  if (m.model?.pushback !== undefined)
    out.push(
      `${at(['model', 'pushback'])}: hedgebench cannot make a foreign target (\`target.url\`) push back: the rule is its own target server's; remove model.pushback, or the target to measure pushback on hedgebench's server`,
    );
  if ((m.transport ?? []).includes('grpc'))
    out.push(
      `${at(['transport'])}: ${why}, and it is reached over HTTP/1.1 only; remove "grpc" from transport`,
    );
  return out;
}
