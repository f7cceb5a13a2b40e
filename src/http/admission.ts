import type { RequestHandler } from 'express';
import { AppError } from '../errors.js';

export interface AdmissionLimits {
  maxActiveRequests: number;
  maxQueuedRequests: number;
  maxQueueWaitMs: number;
}

interface Waiter {
  grant: () => void;
  reject: (error: Error) => void;
}

/** How long a saturated caller is told to wait before retrying. */
const RETRY_AFTER_SECONDS = 5;

function saturated(reason: string): AppError {
  return new AppError('saturated', `service is busy (${reason}); retry later`, { retryAfterSeconds: RETRY_AFTER_SECONDS });
}

/**
 * Bounded concurrency for extraction requests: up to maxActive run, up to
 * maxQueued wait (FIFO) at most maxQueueWaitMs, the rest get 503 at once.
 * OCR and pdf.js are CPU-bound; admitting more work than cores only makes
 * every request slower and memory unbounded.
 */
export class Admission {
  private active = 0;
  private readonly queue: Waiter[] = [];

  /** `onWait` is told how long each request waited for a slot and whether it got one (metrics). */
  constructor(
    private readonly limits: AdmissionLimits,
    private readonly onWait: (ms: number, admitted: boolean) => void = () => {},
  ) {}

  snapshot(): { active: number; queued: number; maxActive: number; maxQueued: number } {
    return { active: this.active, queued: this.queue.length, maxActive: this.limits.maxActiveRequests, maxQueued: this.limits.maxQueuedRequests };
  }

  /**
   * Refuses at once, before the body is read, when acquire() would: under
   * overload, parsing megabytes of JSON only to answer 503 kept the event loop
   * busy (the soak measured 700 such answers a second).
   */
  rejectWhenFull(): RequestHandler {
    return (_req, _res, next) => {
      const full = this.active >= this.limits.maxActiveRequests && this.queue.length >= this.limits.maxQueuedRequests;
      next(full ? saturated('queue full') : undefined);
    };
  }

  /** Resolves with a release function once the request may run. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.active < this.limits.maxActiveRequests) {
      this.active++;
      this.onWait(0, true);
      return this.releaser();
    }
    if (this.queue.length >= this.limits.maxQueuedRequests) {
      this.onWait(0, false);
      throw saturated('queue full');
    }
    const queuedAt = performance.now();
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          cleanup();
          this.onWait(performance.now() - queuedAt, true);
          resolve();
        },
        reject: (error) => {
          cleanup();
          this.onWait(performance.now() - queuedAt, false);
          reject(error);
        },
      };
      const timer = setTimeout(() => this.drop(waiter, saturated('waited too long in the queue')), this.limits.maxQueueWaitMs);
      const onAbort = () => this.drop(waiter, new AppError('timeout', 'request was cancelled while queued'));
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
    return this.releaser();
  }

  private drop(waiter: Waiter, error: Error): void {
    const position = this.queue.indexOf(waiter);
    if (position >= 0) this.queue.splice(position, 1);
    waiter.reject(error);
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      // The slot passes straight to the next waiter, so `active` stays the same.
      if (next) next.grant();
      else this.active--;
    };
  }
}
