import { Redis, type RedisOptions } from 'ioredis';

/**
 * Redis connections for jobs, and the one setting BullMQ cannot work
 * without: `maxmemory-policy noeviction` (any other policy lets Redis drop
 * queued jobs and locks when memory runs short).
 */

/** Reconnects forever, backing off from 0.5 s to `capMs`: a Redis that comes back is found within that. */
const backoff = (capMs: number) => (times: number) => Math.min(500 * 2 ** Math.min(times - 1, 10), capMs);

/** For the API: a command fails at once while Redis is away, so a submit answers 503 instead of hanging; back within 2 s of Redis. */
export function apiConnection(url: string): Redis {
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 5000, retryStrategy: backoff(2000), connectionName: 'docshape-api' });
}

/** For BullMQ's Queue (adding and reading tasks): like the API's, but BullMQ's own start-up check needs the offline queue. */
export function queueConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 5000, retryStrategy: backoff(2000), connectionName: 'docshape-queue' });
}

/** For workers and subscribers: commands wait for Redis to come back (a finished job's result is not dropped). */
export function workerConnection(url: string, name = 'docshape-worker'): Redis {
  const options: RedisOptions = { maxRetriesPerRequest: null, retryStrategy: backoff(5000), connectionName: name };
  return new Redis(url, options);
}

/** What is wrong with this Redis for jobs, or undefined when nothing is. */
export async function redisProblem(client: Redis): Promise<string | undefined> {
  const info = await client.info('memory');
  const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  if (policy && policy !== 'noeviction') {
    return `Redis at REDIS_URL has maxmemory-policy ${policy}: jobs need noeviction, or Redis may delete queued jobs when memory runs short (set "maxmemory-policy noeviction" in redis.conf, or CONFIG SET maxmemory-policy noeviction)`;
  }
  return undefined;
}

/** Resolves true once the client is connected, false after `ms` without. */
export function connected(client: Redis, ms: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), ms);
    const onReady = () => done(true);
    const done = (value: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(value);
    };
    client.on('ready', onReady);
  });
}
