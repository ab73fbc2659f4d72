// Redis connections from a URL (passwords and rediss:// TLS honoured) with options that fail fast while
// disconnected, and a redaction helper so no credential ever reaches a log line or an error message.

import { Redis, type RedisOptions } from 'ioredis';

/**
 * Options for connections that record data: commands fail at once while disconnected (no unbounded
 * offline queue, no silent resend of commands whose outcome is unknown); the caller keeps and retries
 * its own batch. Reconnects forever, backing off to at most 1 s.
 */
const FAIL_FAST_OPTIONS: Readonly<RedisOptions> = Object.freeze({
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  connectTimeout: 5_000,
  retryStrategy: (times: number) => Math.min(50 * times, 1_000),
});

/** Options of redisFromUrl. */
interface RedisFromUrlOptions {
  /** Extra ioredis options; they override FAIL_FAST_OPTIONS. */
  redis?: RedisOptions;
  /** Called with connection errors, already redacted; default: ignored (the recorder counts failures). */
  onError?: (message: string) => void;
}

/**
 * An ioredis client for `redis://[user:pass@]host:port[/db]` or `rediss://…` (TLS). Throws a TypeError
 * naming the redacted URL when it is not a redis URL. Connection errors go to `onError`, redacted.
 */
export function redisFromUrl(url: string, options: RedisFromUrlOptions = {}): Redis {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (err) {
    throw new TypeError(`Redis URL ${redactUrl(url)} is not a URL; use redis://[:password@]host:port[/db]`, {
      cause: err,
    });
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new TypeError(
      `Redis URL ${redactUrl(url)} has protocol ${parsed.protocol}; use redis:// or rediss:// (TLS)`,
    );
  }
  const redis = new Redis(url, { ...FAIL_FAST_OPTIONS, ...options.redis });
  const onError = options.onError;
  // Without a listener ioredis prints every reconnect failure; errors name host:port only, but redact anyway.
  redis.on('error', (err: Error) => {
    onError?.(redactText(err.message, url));
  });
  return redis;
}

/** The URL with any username and password replaced by `***`, safe to log; never throws. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    // Nothing to hide: keep the text exactly as given, so messages echo what the user wrote.
    if (u.username === '' && u.password === '') return url;
    if (u.username !== '') u.username = '***';
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    // Unparseable: keep only what cannot be a credential.
    const at = url.lastIndexOf('@');
    return at === -1 ? '<unparseable url>' : `<unparseable url>@${url.slice(at + 1)}`;
  }
}

/** `text` with the URL's password (raw or percent-decoded) replaced by `***`. */
export function redactText(text: string, url: string): string {
  let out = text;
  try {
    const u = new URL(url);
    for (const secret of [u.password, decodeURIComponent(u.password)]) {
      if (secret.length > 0) out = out.split(secret).join('***');
    }
  } catch {
    // nothing parseable to redact
  }
  return out;
}

/**
 * Resolves when `redis` is ready for commands (fail-fast clients refuse commands until then); rejects
 * after `timeoutMs` with a message naming `label` (pass a redacted URL), so a wrong address fails clearly.
 */
export async function waitForReady(redis: Redis, label: string, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(
        new Error(
          `Redis at ${label} was not reachable within ${timeoutMs} ms; check the URL and that it runs`,
        ),
      );
    }, timeoutMs);
    const onReady = (): void => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', onReady);
  });
}

/** redisFromUrl, then waitForReady: a connected client or an error naming the redacted URL. */
export async function connectRedis(
  url: string,
  options: RedisFromUrlOptions & { timeoutMs?: number } = {},
): Promise<Redis> {
  const redis = redisFromUrl(url, options);
  try {
    await waitForReady(redis, redactUrl(url), options.timeoutMs);
  } catch (err) {
    redis.disconnect();
    throw err;
  }
  return redis;
}
