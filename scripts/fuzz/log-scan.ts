/**
 * Reads every line the service logs and flags the ones holding a secret (an
 * API key) or a document value (a planted marker): logs must carry ids,
 * counts and timings only.
 */

export interface LogHit {
  what: string;
  line: string;
}

export class LogScanner {
  lines = 0;
  readonly hits: LogHit[] = [];
  /** Lines at level error or above (pino level >= 50). */
  readonly errors: string[] = [];

  constructor(private readonly needles: Array<{ what: string; text: string }>) {}

  scan(line: string): void {
    this.lines++;
    for (const needle of this.needles) {
      if (line.includes(needle.text) && this.hits.length < 100) this.hits.push({ what: needle.what, line: line.slice(0, 500) });
    }
    if (/"level":(5\d|60)/.test(line) && this.errors.length < 100) this.errors.push(line.slice(0, 500));
  }
}
