/**
 * A real redis-server (Debian's; .ci/run installs it) on a free loopback
 * port with its own data folder, append-only file on and BullMQ's
 * noeviction, started and stopped by the test that needs it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_SERVER = process.env.REDIS_SERVER ?? 'redis-server';

/** Whether redis-server can run here; the suites that need it skip with a line saying why when not. */
export function redisInstalled(): boolean {
  return spawnSync(REDIS_SERVER, ['--version'], { stdio: 'ignore' }).status === 0;
}

export const NO_REDIS = `redis-server is not installed (apt-get install redis-server; .ci/run does): the tests against a real Redis are skipped`;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RedisServer {
  url: string;
  port: number;
  /** Stops it (SIGTERM saves the append-only file; SIGKILL does not wait) and resolves when it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port and data folder. */
  start(): Promise<void>;
  /** One command through redis-cli, e.g. ['FLUSHALL']; its output. */
  cli(...args: string[]): string;
  close(): Promise<void>;
}

/**
 * A redis-server for a suite: started before its tests (which are skipped,
 * saying why, where none is installed) and stopped after them.
 */
export function redisForSuite(): () => RedisServer {
  let redis: RedisServer | undefined;
  before(async function () {
    if (!redisInstalled()) {
      console.log(`      ${NO_REDIS}`);
      this.skip();
    }
    redis = await startRedis();
  });
  after(async () => {
    await redis?.close();
  });
  return () => redis!;
}

export async function startRedis(extra: string[] = []): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'docshape-redis-'));
  let child: ChildProcess | undefined;
  const cli = (...args: string[]) => {
    const run = spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });
    return `${run.stdout}${run.stderr}`.trim();
  };
  const start = async () => {
    if (child && child.exitCode === null && child.signalCode === null) return;
    child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', '', '--maxmemory-policy', 'noeviction', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const poll = () => {
        if (/Ready to accept connections/.test(output)) return resolve();
        if (child!.exitCode !== null) return reject(new Error(`redis-server exited: ${output}`));
        if (Date.now() - started > 20_000) return reject(new Error(`redis-server did not start: ${output}`));
        setTimeout(poll, 20);
      };
      poll();
    });
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill(signal);
    await exited;
  };
  await start();
  process.once('exit', () => child?.kill('SIGKILL'));
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    cli,
    async close() {
      await stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
