/**
 * A full garbage collection, now. Node offers it only behind `--expose-gc`;
 * the flag set at run time exposes `gc` to contexts made after it, as
 * jest's leak detector does. For a thread that has just dropped large
 * buffers it will not allocate again (model files read at start): V8
 * collects external memory only after tens of MB more are allocated, so
 * they would otherwise count in the process's RSS until the first requests.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
