// Where hedgebench sends load without being told otherwise: loopback and the lab's benchmarking range
// (198.18.0.0/15, the addresses scripts/lab.sh gives its test hosts). Anything else needs an explicit
// --allow-any-target from the user, so a typo never aims a load loop at someone else's machine.

/** True for localhost, ::1, 127.0.0.0/8 and 198.18.0.0/15 (a URL hostname; IPv6 brackets allowed). */
export function isLocalTargetHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  return (
    h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || /^198\.1[89]\.\d+\.\d+$/.test(h)
  );
}
