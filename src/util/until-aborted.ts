/**
 * `work`, or a rejection with the signal's reason as soon as the signal
 * aborts, so a caller answers on time even if a stage cannot be interrupted
 * (the work itself goes on until it notices; its own failure is then ignored).
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
