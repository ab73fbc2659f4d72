// Counts established TCP connections whose local port is `port`, from /proc/net/tcp (IPv4): the server
// side of every connection a client holds to a listener on this host.
import { readFileSync } from 'node:fs';

/** Established connections to local port `port` (server side), IPv4 and IPv6. */
export function establishedTo(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  let n = 0;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // f[1] local address:port, f[3] state (01 = ESTABLISHED)
      if (f.length > 3 && f[1]!.endsWith(`:${hex}`) && f[3] === '01') n++;
    }
  }
  return n;
}
