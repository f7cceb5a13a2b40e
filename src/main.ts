import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createApp, warmUpService } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { startJobs, type JobsRuntime } from './jobs/create-jobs.js';
import { createLogger, type Logger } from './logger.js';
import { startServices } from './services.js';
import { collectGarbage } from './util/collect-garbage.js';
import { startLoopWatchdog } from './util/loop-watchdog.js';

/**
 * With no API_KEYS/API_KEYS_FILE the service does not run open: it makes a
 * random key for this run and prints it once on stderr (never into the logs).
 */
function ensureApiKey(config: Config, logger: Logger): Config {
  if (config.apiKeys.length > 0) return config;
  const key = randomBytes(24).toString('base64url');
  process.stderr.write(
    `\nNo API_KEYS or API_KEYS_FILE configured. Generated an API key for this run only:\n\n  x-api-key: ${key}\n\nSet API_KEYS to keep a key across restarts.\n\n`,
  );
  logger.warn({ generatedApiKey: true }, 'no API key configured; generated one for this run (printed on stderr)');
  return { ...config, apiKeys: [key] };
}

/** Idle kept-alive connections stay open this long (longer than a load balancer's usual 60 s). */
const KEEP_ALIVE_MS = 65_000;
/** After the grace period, connections are cut and the pools closed; if even that hangs, the process ends anyway. */
const CLOSE_GRACE_MS = 5_000;

/**
 * Binds the port, or rejects with the reason (a port in use, an address not on
 * this host). Express 5's app.listen hands such errors to its callback, which
 * would log "listening" and run on serving nothing.
 */
function listen(app: ReturnType<typeof createApp>, config: Config): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(app);
    const onError = (error: NodeJS.ErrnoException) => {
      const where = `${config.host}:${config.port}`;
      const reason =
        error.code === 'EADDRINUSE' ? `port ${config.port} is already in use by another process; stop it or set PORT to a free port`
        : error.code === 'EADDRNOTAVAIL' ? `${config.host} is not an address of this host; set HOST`
        : error.code === 'EACCES' ? `not permitted to bind port ${config.port}; use a port above 1023 or run with the right privileges`
        : error.message;
      reject(new Error(`cannot listen on ${where}: ${reason} (${error.code ?? 'error'})`));
    };
    server.once('error', onError);
    server.listen(config.port, config.host, () => {
      server.off('error', onError);
      resolve(server);
    });
  });
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`docshape: configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  config = ensureApiKey(config, logger);

  const services = await startServices(config, logger);
  let jobs: JobsRuntime;
  try {
    jobs = await startJobs(config, logger);
  } catch (error) {
    await services.close();
    throw error;
  }
  // before the port opens, so that no caller's request runs beside it
  await warmUpService({ config, pipeline: services, logger, requests: config.warmUpRequests, engineRuns: config.warmUpEngineRuns });
  // What the start and its warm-up left (compiled schemas' sources, warm-up documents and answers) is freed now, before callers come.
  collectGarbage();
  let shuttingDown = false;
  const app = createApp({ config, pipeline: services, logger, isShuttingDown: () => shuttingDown, jobs, api: config.role !== 'worker' });
  let server: Server;
  try {
    server = await listen(app, config);
  } catch (error) {
    await jobs.close(0);
    await services.close();
    throw error;
  }
  // Longer than the request limit so a slow request is answered (504) before the socket is cut.
  server.requestTimeout = config.limits.requestTimeoutMs + 10_000;
  // Node closes an idle kept-alive connection after 5 s. A proxy or client that reuses it at that moment (or
  // just after an event-loop stall, when the overdue timer fires) gets a reset for a request the service never
  // read. Load balancers keep idle upstream connections for 60 s, so outlast that, as is usual.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  const address = server.address();
  logger.info(
    { address, role: config.role, jobs: jobs.status(), engine: services.engine.name, engineReason: services.engineReason, ocrEngine: services.ocr.name, ocrReason: services.ocrReason, ocrWorkers: services.ocr.status().workers, ocrLangs: config.ocr.langs, ocrRotation: config.ocr.rotation, limits: config.limits },
    'docshape listening',
  );

  startLoopWatchdog(config.eventLoopStallLimitMs);

  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      logger.warn('shutdown timeout reached; closing remaining connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    const hardStop = setTimeout(() => {
      logger.error({ graceMs: CLOSE_GRACE_MS }, 'shutdown did not finish after the connections were closed; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + CLOSE_GRACE_MS);
    hardStop.unref();
    // The workers take no new job; a job still running when the grace period ends goes back to the queue.
    const jobsClosed = jobs.close(config.shutdownTimeoutMs);
    server.close(async () => {
      await jobsClosed;
      await services.close();
      logger.info('shutdown complete');
      process.exit(0);
    });
    // a kept-alive connection goes idle when its last answer is sent: close it then, not after KEEP_ALIVE_MS
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 100).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`docshape: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
