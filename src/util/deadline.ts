/**
 * A signal that aborts after `ms`, or as soon as any of `signals` does.
 *
 * Not `AbortSignal.any([...signals, AbortSignal.timeout(ms)])`: Node holds a
 * timeout signal only weakly once it sits inside a composite
 * (nodejs/node#57736, seen on 20.20), so a garbage collection before it
 * fires leaves the composite never aborting; a job's long poll hung that way
 * until its caller gave up. A plain timer holds its controller strongly.
 * The timer is unref'd, as AbortSignal.timeout's is: it does not keep the
 * process alive by itself. `clear()` stops it once the work is done.
 */
export interface Deadline {
  signal: AbortSignal;
  /** True once the time ran out (not when one of the other signals aborted first). */
  expired(): boolean;
  clear(): void;
}

const timedOut = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError');

export function deadline(ms: number, signals: AbortSignal[] = [], reason: () => unknown = timedOut): Deadline {
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(reason()), ms);
  timer.unref();
  const signal = signals.length === 0 ? limit.signal : AbortSignal.any([...signals, limit.signal]);
  return { signal, expired: () => limit.signal.aborted, clear: () => clearTimeout(timer) };
}
