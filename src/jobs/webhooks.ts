import { createHmac } from 'node:crypto';
import type { WebhookConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { FinalStatus, JobRecord } from './job.js';
import { RetryLater, type WorkQueue } from './work-queue.js';

/**
 * Webhooks: when a job ends, a POST of {type, id, status, resultUrl,
 * metadata} (never the values) to the URL the job named, signed the
 * Standard Webhooks way (https://www.standardwebhooks.com/): `webhook-id`
 * (the same on every retry), `webhook-timestamp` (unix seconds) and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>` keyed
 * with WEBHOOK_SECRET. Deliveries have a queue of their own with
 * exponential backoff; a receiver answering 410 Gone is not asked again.
 * Only hosts in WEBHOOK_ALLOWED_HOSTS are sent to (receivers on-prem live on
 * private addresses, so an address check could not tell them from an
 * attacker's target), redirects are not followed, and each try has
 * WEBHOOK_TIMEOUT.
 */

export interface WebhookDelivery {
  /** The webhook-id: one per event, kept across retries (receivers use it to drop repeats). */
  messageId: string;
  url: string;
  /** The JSON text sent, exactly as signed. */
  body: string;
}

export type WebhookEventType = `job.${FinalStatus}`;

export function webhookEvent(record: JobRecord): { type: WebhookEventType; id: string; status: FinalStatus; resultUrl: string; metadata: Record<string, unknown> | null } {
  const status = record.status as FinalStatus;
  return { type: `job.${status}`, id: record.id, status, resultUrl: record.resultUrl, metadata: record.metadata };
}

/** The three Standard Webhooks headers for one try. */
export function signatureHeaders(secret: Buffer, messageId: string, timestampSeconds: number, body: string): Record<string, string> {
  const signature = createHmac('sha256', secret).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return { 'webhook-id': messageId, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` };
}

/** Whether `url`'s host is one WEBHOOK_ALLOWED_HOSTS allows: "host" (any port), "host:port", "*.domain" (its subdomains). */
export function hostAllowed(url: URL, allowed: readonly string[]): boolean {
  const hostname = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowed.some((entry) => {
    const [, name = '', entryPort] = /^(.+?)(?::(\d+))?$/.exec(entry) ?? [];
    if (entryPort !== undefined && entryPort !== port) return false;
    return name.startsWith('*.') ? hostname.endsWith(name.slice(1)) : hostname === name;
  });
}

/** Why a job may not ask for this webhook (a 400 at submit), or undefined when it may. */
export function webhookProblem(url: string, config: WebhookConfig): string | undefined {
  if (!config.secret) return 'webhooks are not configured on this service (WEBHOOK_SECRET is not set)';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'webhook.url must be an absolute http(s) URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'webhook.url must be an http(s) URL';
  if (parsed.username || parsed.password) return 'webhook.url must not carry a user name or password';
  if (!hostAllowed(parsed, config.allowedHosts)) {
    return `webhook.url's host ${parsed.host} is not in WEBHOOK_ALLOWED_HOSTS${config.allowedHosts.length === 0 ? ' (which allows none)' : ''}`;
  }
  return undefined;
}

/** One try: resolves when the receiver took it (2xx) or said never again (410); throws RetryLater otherwise. */
export async function sendWebhook(delivery: WebhookDelivery, config: WebhookConfig, now: () => number = Date.now): Promise<'delivered' | 'gone'> {
  const problem = webhookProblem(delivery.url, config);
  if (problem) throw new Error(problem);
  const headers = { 'content-type': 'application/json', 'user-agent': 'docshape-webhooks', ...signatureHeaders(config.secret!, delivery.messageId, Math.floor(now() / 1000), delivery.body) };
  let response: Response;
  try {
    response = await fetch(delivery.url, { method: 'POST', headers, body: delivery.body, redirect: 'manual', signal: AbortSignal.timeout(config.timeoutMs) });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    throw new RetryLater(`webhook to ${new URL(delivery.url).host} failed: ${cause}`);
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.status >= 200 && response.status < 300) return 'delivered';
  if (response.status === 410) return 'gone';
  throw new RetryLater(`webhook to ${new URL(delivery.url).host} answered ${response.status}`);
}

/** Enqueues the webhook of a job that just ended, and (where this process runs workers) delivers the queue's webhooks. */
export class Webhooks {
  constructor(
    private readonly queue: WorkQueue<WebhookDelivery>,
    private readonly config: WebhookConfig,
    private readonly logger: Logger,
  ) {}

  async announce(record: JobRecord): Promise<void> {
    if (!record.webhook) return;
    const messageId = `msg_${record.id}_${record.status}`;
    try {
      await this.queue.add(messageId, { messageId, url: record.webhook.url, body: JSON.stringify(webhookEvent(record)) });
    } catch (error) {
      this.logger.warn({ jobId: record.id, err: (error as Error).message }, 'webhook could not be queued');
    }
  }

  deliver(concurrency: number): void {
    this.queue.process(async (task) => {
      try {
        const outcome = await sendWebhook(task.data, this.config);
        this.logger.info({ webhookId: task.data.messageId, attempt: task.attempt, outcome }, 'webhook delivered');
      } catch (error) {
        const last = task.attempt >= task.maxAttempts || !(error instanceof RetryLater);
        this.logger.warn({ webhookId: task.data.messageId, attempt: task.attempt, last, err: (error as Error).message }, last ? 'webhook given up' : 'webhook failed; will retry');
        if (!last) throw error;
      }
    }, concurrency);
  }

  close(graceMs: number): Promise<void> {
    return this.queue.close(graceMs);
  }
}
