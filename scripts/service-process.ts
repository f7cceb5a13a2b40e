/**
 * The service as an operator runs it, for measurements from outside: starts
 * dist/src/main.js as `npm start` does (MALLOC_ARENA_MAX=2,
 * MALLOC_MMAP_THRESHOLD_=131072 and NODE_OPTIONS=--max-semi-space-size=4
 * unless the environment sets them), on a free port of 127.0.0.1, and reads
 * its memory and CPU from /proc (Linux). Used by scripts/service-rss.ts and
 * `npm run bench -- text-pdf`: a client in the service's own process would
 * share its event loop and be measured with it. (The tests' helper,
 * test/helpers/service-process.ts, starts it instead with small pools and
 * only PATH of the environment.)
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));

export interface ServiceProcess {
  port: number;
  pid: number;
  /** The settings it was started with that `npm start` sets. */
  mallocArenaMax: string;
  nodeOptions: string;
  /** kB fields of /proc/<pid>/status (VmRSS, VmHWM, RssAnon, RssFile), in MB. */
  statusMb(): Record<string, number>;
  /** User + system CPU seconds of the process so far, every thread. */
  cpuSeconds(): number;
  stop(): void;
}

/** Starts the service with `env` over the environment (API_KEYS, EXTRACTOR, ...) and resolves once it listens. */
export async function startServiceLikeNpmStart(env: Record<string, string>): Promise<ServiceProcess> {
  const mallocArenaMax = process.env.MALLOC_ARENA_MAX ?? '2';
  const nodeOptions = process.env.NODE_OPTIONS ?? '--max-semi-space-size=4';
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, MALLOC_ARENA_MAX: mallocArenaMax, MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072', NODE_OPTIONS: nodeOptions, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pid = child.pid!;
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let pending = '';
      child.once('exit', (code) => reject(new Error(`the service exited (${code}) before it listened`)));
      child.stdout!.on('data', (chunk: Buffer) => {
        pending += chunk.toString();
        const listening = /"address":\{[^}]*"port":(\d+)[^\n]*docshape listening/.exec(pending);
        if (listening) resolve(Number(listening[1]));
        pending = pending.slice(pending.lastIndexOf('\n') + 1);
      });
    });
    return {
      port,
      pid,
      mallocArenaMax,
      nodeOptions,
      statusMb: () => {
        const fields: Record<string, number> = {};
        for (const match of readFileSync(`/proc/${pid}/status`, 'utf8').matchAll(/^(Vm\w+|Rss\w+):\s+(\d+) kB/gm)) fields[match[1]!] = Math.round(Number(match[2]) / 1024);
        return fields;
      },
      // /proc/<pid>/stat fields 14 and 15, in clock ticks of 1/100 s
      cpuSeconds: () => {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return (Number(fields[11]) + Number(fields[12])) / 100;
      },
      stop: () => child.kill('SIGKILL'),
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}
