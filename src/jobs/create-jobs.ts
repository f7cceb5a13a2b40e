import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { PipelineDeps } from '../pipeline.js';
import { BullWorkQueue } from './bullmq-queue.js';
import { Jobs, type ExtractionTask, type JobObserver } from './jobs.js';
import { MemoryWorkQueue } from './memory-queue.js';
import { MemoryJobStore } from './memory-store.js';
import { apiConnection, connected, queueConnection, redisProblem, workerConnection } from './redis.js';
import { RedisJobStore } from './redis-store.js';
import type { JobStore } from './store.js';
import { Webhooks, type WebhookDelivery } from './webhooks.js';
import { runJobWorkers } from './worker.js';
import type { WorkQueue } from './work-queue.js';

/** What /readyz and the start-up log say about jobs. */
export interface JobsStatus {
  queue: 'in-process' | 'redis';
  /** Whether jobs survive a restart and every replica sees them. */
  durable: boolean;
  /** Whether jobs can be submitted now (Redis reachable and usable). */
  available: boolean;
  problem?: string;
}

export interface JobsRuntime {
  jobs: Jobs;
  /** Whether this process runs jobs (ROLE all or worker). */
  readonly runsWorkers: boolean;
  status(): JobsStatus;
  /** Starts this process's job workers, webhook delivery and the repair pass (once). */
  startWorkers(pipeline: PipelineDeps, observer?: JobObserver): void;
  /** Stops taking jobs; what runs after `graceMs` is handed back to the queue. */
  close(graceMs: number): Promise<void>;
}

const PREFIX = 'docshape';
const EXTRACTION_QUEUE = 'extractions';
/** The Redis list of the jobs waiting for a worker (BullMQ's `wait` list): what an autoscaler (KEDA) watches. */
export const WAITING_LIST = `${PREFIX}:${EXTRACTION_QUEUE}:wait`;
/** Webhooks delivered at once per process. */
const WEBHOOK_CONCURRENCY = 4;
/** A job still queued this long after its submit with no task in the queue is queued again (a submit cut short between the two writes). */
const ORPHAN_AFTER_MS = 60_000;
const REPAIR_EVERY_MS = 30_000;
const IN_PROCESS_NOTE = 'jobs are kept in this process: they do not survive a restart, and several replicas need REDIS_URL';

/** Jobs as configured: BullMQ on Redis with REDIS_URL, else in this process. */
export async function startJobs(config: Config, logger: Logger): Promise<JobsRuntime> {
  const runsWorkers = config.role !== 'api';
  const queueOptions = { attempts: config.jobs.maxAttempts, backoffMs: 2000 };
  const webhookOptions = { attempts: config.webhooks.maxAttempts, backoffMs: config.webhooks.retryDelayMs };
  const redisUrl = config.jobs.redisUrl;
  if (!redisUrl) {
    logger.warn({ queue: 'in-process' }, IN_PROCESS_NOTE);
    const store = new MemoryJobStore();
    return assemble({ config, logger, runsWorkers, store, queue: new MemoryWorkQueue<ExtractionTask>(queueOptions), webhookQueue: new MemoryWorkQueue<WebhookDelivery>(webhookOptions), status: () => ({ queue: 'in-process', durable: false, available: true, problem: IN_PROCESS_NOTE }), release: async () => undefined });
  }

  const client = apiConnection(redisUrl);
  const queueClient = queueConnection(redisUrl);
  const subscriber = workerConnection(redisUrl, 'docshape-events');
  const workerClients: ReturnType<typeof workerConnection>[] = [];
  const workerClient = () => {
    const opened = workerConnection(redisUrl);
    workerClients.push(opened);
    return opened;
  };
  let problem: string | undefined;
  let reachable = false;
  const check = async () => {
    reachable = true;
    try {
      problem = await redisProblem(client);
      if (problem) logger.error({ problem }, 'jobs cannot run on this Redis');
    } catch (error) {
      logger.warn({ err: (error as Error).message }, 'could not read Redis settings');
    }
  };
  client.on('ready', () => void check());
  client.on('close', () => (reachable = false));
  client.on('error', () => undefined); // reported as the queue's unavailability, not once per reconnect attempt
  subscriber.on('error', () => undefined);
  queueClient.on('error', () => undefined);
  if (await connected(client, 3000)) {
    await check();
    if (problem) {
      for (const opened of [client, queueClient, subscriber]) opened.disconnect();
      throw new Error(problem);
    }
  } else {
    logger.warn({ redis: new URL(redisUrl).host }, 'Redis is not reachable yet: jobs answer 503 until it is; POST /v1/ works meanwhile');
  }
  // workers write through a connection that waits for Redis; the API's fails fast
  const store = new RedisJobStore({ client: runsWorkers ? workerClient() : client, subscriber, prefix: PREFIX });
  const apiStore = runsWorkers ? new RedisJobStore({ client, subscriber, prefix: PREFIX }) : store;
  const bull = <T>(name: string, options: typeof queueOptions) => new BullWorkQueue<T>({ ...options, name, prefix: PREFIX, client: queueClient, workerClient, lockMs: config.jobs.lockMs, logger });
  return assemble({
    config, logger, runsWorkers, store, apiStore,
    queue: bull<ExtractionTask>(EXTRACTION_QUEUE, queueOptions),
    webhookQueue: bull<WebhookDelivery>('webhooks', webhookOptions),
    status: () => ({ queue: 'redis', durable: true, available: reachable && !problem, ...(problem ? { problem } : reachable ? {} : { problem: 'Redis is not reachable' }) }),
    release: async () => {
      for (const opened of [client, queueClient, subscriber, ...workerClients]) opened.disconnect();
    },
  });
}

interface Parts {
  config: Config;
  logger: Logger;
  runsWorkers: boolean;
  /** The store workers use. */
  store: JobStore;
  /** The store the API uses (fails fast); default `store`. */
  apiStore?: JobStore;
  queue: WorkQueue<ExtractionTask>;
  webhookQueue: WorkQueue<WebhookDelivery>;
  status: () => JobsStatus;
  release: () => Promise<void>;
}

function assemble(parts: Parts): JobsRuntime {
  const { config, logger, store, queue } = parts;
  const webhooks = new Webhooks(parts.webhookQueue, config.webhooks, logger);
  const jobs = new Jobs({ store: parts.apiStore ?? store, queue, webhooks, config: config.jobs, logger });
  let repair: NodeJS.Timeout | undefined;
  let started = false;
  return {
    jobs,
    runsWorkers: parts.runsWorkers,
    status: parts.status,
    startWorkers(pipeline, observer) {
      if (started || !parts.runsWorkers) return;
      started = true;
      runJobWorkers({ store, queue, webhooks, pipeline, config: config.jobs, logger, ...(observer ? { observer } : {}) });
      webhooks.deliver(WEBHOOK_CONCURRENCY);
      repair = setInterval(() => void repairOrphans(store, queue, webhooks, config.jobs.resultTtlMs, logger), REPAIR_EVERY_MS);
      repair.unref();
    },
    async close(graceMs) {
      clearInterval(repair);
      await Promise.allSettled([queue.close(graceMs), webhooks.close(Math.min(graceMs, 5000))]);
      await Promise.allSettled([store.close(), parts.apiStore?.close()]);
      await parts.release();
    },
  };
}

/**
 * Jobs no queue will run: one whose submit stopped between writing the job
 * and queueing it is queued again (a task id is added at most once), and
 * one the queue gave up by itself (its workers kept dying) is failed.
 */
async function repairOrphans(store: JobStore, queue: WorkQueue<ExtractionTask>, webhooks: Webhooks, resultTtlMs: number, logger: Logger): Promise<void> {
  try {
    for (const id of await store.pendingBefore(Date.now() - ORPHAN_AFTER_MS, 100)) {
      const { state, reason } = await queue.state(id);
      if (state === 'missing') {
        await queue.add(id, {});
        logger.warn({ jobId: id }, 'job had no task in the queue: queued again');
      } else if (state === 'failed') {
        const error = { status: 500, body: { error: `the job was given up: ${reason ?? 'its worker stopped'} (a worker running it died twice: a crash, or out of memory)` } };
        const ended = await store.finish(id, { status: 'failed', error }, resultTtlMs);
        if (ended) await webhooks.announce(ended);
      }
    }
  } catch (error) {
    logger.warn({ err: (error as Error).message }, 'job repair pass failed');
  }
}
