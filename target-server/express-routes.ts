// The express app of the target server: /clock, /health, /stats, /metrics, and the token-protected control
// routes PUT /config and POST /reset (GET /work, the load, and POST /peer-cancel, as frequent, skip express:
// work-route.ts, peer-cancel-route.ts). Bad input gets a JSON error, never a crash.

import { performance } from 'node:perf_hooks';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { parseConfigPatch } from './config.ts';
import { BadParameterError, TargetServerError, UnauthorizedError } from './errors.ts';
import type { TargetMetrics } from './metrics.ts';
import type { Target } from './target-service.ts';
import { tokenCheck } from './token.ts';

/** Largest accepted control body (PUT /config); larger bodies get 413. */
const BODY_LIMIT = '16kb';

/** Builds the express app around `target`; `token` (if set) guards the control routes. */
export function createApp(target: Target, metrics: TargetMetrics, token: string | null): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  const json = express.json({ limit: BODY_LIMIT, strict: true, type: () => true });
  const authorized = tokenCheck(token);

  const guard = (req: Request, _res: Response, next: NextFunction): void => {
    next(authorized(req.headers.authorization) ? undefined : new UnauthorizedError());
  };

  // The target's clock for the load generator's offset estimate (runtime/clock-offset.ts): the same clock
  // its records use. Headers first and the clock read last, right before the one write: the time between
  // the read and the write would be charged to the reply's transit and bias the estimate.
  app.get('/clock', (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('cache-control', 'no-store');
    res.end(`{"nowMs":${target.clock.now()},"timeOriginMs":${performance.timeOrigin}}`);
  });

  app.get('/health', (_req, res) => {
    res.json({ ok: true, version: target.version });
  });

  app.get('/stats', (_req, res) => {
    res.json(target.stats());
  });

  app.get('/metrics', async (_req, res, next) => {
    try {
      res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    } catch (err) {
      next(err);
    }
  });

  app.put('/config', guard, json, async (req, res, next) => {
    try {
      const patch = parseConfigPatch(req.body);
      const { config, previous } = await target.reconfigure(patch);
      res.json({ ok: true, config, previous });
    } catch (err) {
      if (err instanceof BadParameterError) target.countBadRequest();
      next(err);
    }
  });

  app.post('/reset', guard, (_req, res, next) => {
    try {
      target.reset();
      res.json({ ok: true });
    } catch (err) {
      next(err);
    }
  });

  app.use((req, res) => {
    res.status(404).json({
      error: {
        code: 'HB_NOT_FOUND',
        message: `no route ${req.method} ${req.path.slice(0, 100)}; routes: GET /work?call=&attempt=, GET /clock, GET /health, GET /stats, GET /metrics, PUT /config, POST /reset, POST /peer-cancel?call=&attempt=`,
      },
    });
  });

  // Express 5 error middleware: known errors map to their status; body-parser errors keep theirs.
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    sendError(res, err);
  });

  return app;
}

function sendError(res: Response, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof TargetServerError) {
    res.status(err.status).json(err.toJSON());
    return;
  }
  const e = err as { status?: number; type?: string; message?: string };
  if (e.type === 'entity.too.large') {
    res.status(413).json({
      error: {
        code: 'HB_BODY_TOO_LARGE',
        message: `request body is larger than ${BODY_LIMIT}; send only the fields that change`,
      },
    });
    return;
  }
  if (
    e.type === 'entity.parse.failed' ||
    e.type === 'encoding.unsupported' ||
    e.type === 'charset.unsupported'
  ) {
    res.status(400).json({
      error: {
        code: 'HB_BAD_PARAMETER',
        message: `request body is not valid JSON: ${e.message ?? ''}`.trim(),
      },
    });
    return;
  }
  const status = typeof e.status === 'number' && e.status >= 400 && e.status < 600 ? e.status : 500;
  res.status(status).json({ error: { code: 'HB_INTERNAL', message: e.message ?? String(err) } });
}
