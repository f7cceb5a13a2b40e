/**
 * Starts the real service (dist/src/main.js) as a child process on an
 * ephemeral loopback port, the way a user runs it, and keeps everything it
 * writes: process tests, the fuzz corpus and the soak read its logs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

/** Small pools, the rules engine and no warm-up: fast to start, no model needed. Callers override any of it. */
export const SERVICE_DEFAULTS: Record<string, string> = {
  PORT: '0',
  HOST: '127.0.0.1',
  OCR_WORKERS: '1',
  PDF_WORKERS: '1',
  EXTRACTOR: 'rules',
  WARM_UP: '0',
};

export interface ServiceProcess {
  child: ChildProcess;
  pid: number;
  url: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when ended by a signal). */
  exited: Promise<number | null>;
  /** Sends `signal` (default SIGKILL) unless the process has already exited, and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface ServiceOptions {
  /** Extra arguments for node before the script, e.g. ['--import', probe]. */
  nodeArgs?: string[];
  /** Opens an IPC channel (child.send / process.send). */
  ipc?: boolean;
  /** Every complete line the service writes on stdout or stderr. */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
}

const running = new Set<ChildProcess>();
let reaping = false;

/** A service must not outlive the test or script that started it (an orphan would go on using the CPU). */
function reapOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (reaping) return;
  reaping = true;
  process.once('exit', () => {
    for (const orphan of running) orphan.kill('SIGKILL');
  });
}

/** Starts the service with only PATH and `env` (plus SERVICE_DEFAULTS) and waits for its "docshape listening" log line. */
export async function startServiceProcess(env: Record<string, string>, options: ServiceOptions = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN], {
    env: { PATH: process.env.PATH ?? '', ...SERVICE_DEFAULTS, ...env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  reapOnExit(child);
  const captured = { stdout: '', stderr: '' };
  const pending = { stdout: '', stderr: '' };
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  let onListening: (line: string) => void = () => {};
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      captured[stream] += text;
      const lines = (pending[stream] + text).split('\n');
      pending[stream] = lines.pop() ?? '';
      for (const line of lines) {
        options.onLine?.(line, stream);
        if (stream === 'stdout') onListening(line);
      }
    });
  }
  const url = await new Promise<string>((resolve, reject) => {
    onListening = (line) => {
      if (!line.includes('docshape listening')) return;
      const { address } = JSON.parse(line) as { address: { port: number } };
      resolve(`http://127.0.0.1:${address.port}`);
    };
    void exited.then((code) => reject(new Error(`service exited with ${code} before listening: ${captured.stderr}`)));
  });
  return {
    child,
    pid: child.pid as number,
    url,
    stdout: () => captured.stdout,
    stderr: () => captured.stderr,
    exited,
    stop: async (signal = 'SIGKILL') => {
      if (exitCode === undefined) child.kill(signal);
      return exited;
    },
  };
}
