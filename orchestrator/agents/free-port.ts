// A free TCP port on the loopback interface, for agents of the embedded default.
import { createServer } from 'node:net';

/** Asks the kernel for a free port on `host` (bind to 0, read it, close). Races are rare and fail loudly. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port > 0 ? resolve(port) : reject(new Error(`no free port on ${host}`))));
    });
  });
}
