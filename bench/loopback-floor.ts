// The floor under transit: a bare node:http server that answers at once (in a child process) and an undici
// client, nothing else — the round trip and the server's CPU per request, over loopback TCP or a Unix-domain
// socket. Whatever the harness adds to a call's transit cannot go below this on the same machine.
//
//   npx tsx bench/loopback-floor.ts [--seconds 4] [--rates 100,800] [--transports tcp,uds]
import { fork } from 'node:child_process';
import { unlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'undici';
import { percentileOf } from '../contract/index.ts';

if (process.argv[2] === '--serve') {
  // The child: one route, a fixed JSON body, no timers.
  const body = '{"queueMs":0.1,"serviceMs":10.2,"worker":3,"intendedMs":10.1}';
  const where = process.argv[3]!;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  const ready = () => process.send?.('ready');
  if (where.startsWith('/')) server.listen(where, ready);
  else server.listen(Number(where), '127.0.0.1', ready);
  process.on('message', () => process.send?.(JSON.stringify(process.cpuUsage())));
} else {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '4' },
      rates: { type: 'string', default: '100,800' },
      transports: { type: 'string', default: 'tcp,uds' },
    },
  });
  const ms = Number(values.seconds) * 1000;
  console.log(`# bench/loopback-floor.ts — node ${process.version}, ${new Date().toISOString()}`);
  console.log(
    'transport | rate/s | done | server cores | server µs/request | round trip p50 / p99 / max (ms)',
  );
  for (const transport of values.transports.split(',')) {
    for (const rate of values.rates.split(',').map(Number)) console.log(await measure(transport, rate, ms));
  }
}

async function measure(transport: string, rate: number, ms: number): Promise<string> {
  const sock = join(tmpdir(), `hb-floor-${process.pid}.sock`);
  const where = transport === 'uds' ? sock : '18999';
  try {
    unlinkSync(sock);
  } catch {}
  const child = fork(import.meta.filename, ['--serve', where], { execArgv: ['--import', 'tsx'] });
  const next = () => new Promise<string>((r) => child.once('message', (m) => r(String(m))));
  await next();
  const opts = transport === 'uds' ? { socketPath: sock, pipelining: 1 } : { pipelining: 1 };
  const origin = transport === 'uds' ? 'http://localhost' : 'http://127.0.0.1:18999';
  const clients = Array.from({ length: 64 }, () => new Client(origin, opts));
  child.send('cpu');
  const cpu0 = JSON.parse(await next());
  const rtts: number[] = [];
  const pending: Promise<void>[] = [];
  const t0 = performance.now();
  // Open loop at a fixed gap, bounded in time: the floor, not a capacity test.
  for (let k = 0; performance.now() - t0 < ms; k++) {
    const sent = performance.now();
    pending.push(
      clients[k % clients.length]!.request({ path: '/work', method: 'GET' }).then(async (r) => {
        await r.body.text();
        rtts.push(performance.now() - sent);
      }),
    );
    await new Promise((r) => setTimeout(r, 1000 / rate));
  }
  await Promise.all(pending);
  const elapsed = performance.now() - t0;
  child.send('cpu');
  const cpu1 = JSON.parse(await next());
  child.kill();
  await Promise.all(clients.map((c) => c.close()));
  const cpuMs = (cpu1.user - cpu0.user + cpu1.system - cpu0.system) / 1000;
  const f = (x: number) => x.toFixed(2);
  return `${transport} | ${rate} | ${rtts.length} | ${(cpuMs / elapsed).toFixed(3)} | ${((cpuMs * 1000) / rtts.length).toFixed(0)} | ${f(percentileOf(rtts, 50))} / ${f(percentileOf(rtts, 99))} / ${f(Math.max(...rtts))}`;
}
