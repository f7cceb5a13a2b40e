import type { FileRecord, Tally } from './batch.js';

/**
 * What a batch shows on stderr while it runs (never on stdout, which may
 * carry --jsonl). On a terminal: one bar redrawn in place, with failures
 * printed above it as they happen. Otherwise (a log, a pipe, CI): one plain
 * line per finished file. Both end with the same summary line.
 */
export interface ProgressDisplay {
  start(tally: Tally, concurrency: number, where: string): void;
  fileDone(record: FileRecord, tally: Tally): void;
  /** A message between progress updates (e.g. what Ctrl-C does). */
  say(text: string): void;
  finish(tally: Tally): void;
}

const BAR_WIDTH = 24;
/** How often the bar is redrawn when no file finishes (elapsed time and ETA move on). */
const REDRAW_MS = 1000;

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function elapsedSeconds(tally: Tally): number {
  return (performance.now() - tally.startedAt) / 1000;
}

/** Files per second so far; below one a second it reads better as seconds per file. */
function rate(tally: Tally): string | undefined {
  const done = tally.ok + tally.failed;
  const seconds = elapsedSeconds(tally);
  if (done === 0 || seconds <= 0) return undefined;
  const perSecond = done / seconds;
  return perSecond >= 1 ? `${perSecond.toFixed(1)} files/s` : `${(1 / perSecond).toFixed(1)} s/file`;
}

/** Time left at the rate so far: the files still to do (only those in flight once stopping). */
function eta(tally: Tally): string {
  const done = tally.ok + tally.failed;
  if (done === 0) return 'ETA --';
  const left = tally.stopping ? tally.inFlight : tally.total - done;
  return `ETA ${clock((left * elapsedSeconds(tally)) / done)}`;
}

function pagesText(tally: Tally): string | undefined {
  return tally.pages === undefined ? undefined : plural(tally.pages, 'page');
}

function summary(tally: Tally): string {
  const done = tally.ok + tally.failed;
  const head = tally.stopping ? 'interrupted' : 'done';
  const counts = `${tally.ok} ok, ${tally.failed} failed of ${plural(tally.total, 'file')}`;
  const pages = pagesText(tally);
  const speed = rate(tally);
  const left = tally.total - done;
  const unfinished = tally.stopping && left > 0 ? `; ${left} not done` : '';
  return `${head}: ${counts}${pages ? `, ${pages}` : ''} in ${elapsedSeconds(tally).toFixed(1)} s${speed ? ` (${speed})` : ''}${unfinished}`;
}

function startLine(tally: Tally, concurrency: number, where: string): string {
  return `docshape: ${plural(tally.total, 'file')}, ${Math.min(concurrency, tally.total)} at a time, ${where}`;
}

function failureLine(record: FileRecord): string | undefined {
  return record.status === 'error' ? `failed ${record.input.path}: ${record.failure.error}` : undefined;
}

/** One line per file, for logs and pipes. */
function plainLines(stream: NodeJS.WritableStream): ProgressDisplay {
  const write = (line: string) => stream.write(`${line}\n`);
  return {
    start: (tally, concurrency, where) => write(startLine(tally, concurrency, where)),
    fileDone(record, tally) {
      const done = tally.ok + tally.failed;
      const counter = `[${String(done).padStart(String(tally.total).length)}/${tally.total}]`;
      const what =
        record.status === 'ok'
          ? `ok ${record.input.path} (${record.answer.pages === undefined ? '' : `${plural(record.answer.pages, 'page')}, `}${(record.ms / 1000).toFixed(1)} s)`
          : (failureLine(record) as string);
      write(`${counter} ${what}; ${[rate(tally), eta(tally)].filter(Boolean).join(', ')}`);
    },
    say: write,
    finish: (tally) => write(summary(tally)),
  };
}

/** A bar redrawn in place on a terminal. */
function terminalBar(stream: NodeJS.WriteStream): ProgressDisplay {
  let current: Tally | undefined;
  let timer: NodeJS.Timeout | undefined;
  const clearLine = '\r\x1b[2K';

  let barWidth = BAR_WIDTH;

  function barLine(tally: Tally): string {
    const done = tally.ok + tally.failed;
    const parts = [`${done}/${tally.total} files`, tally.failed > 0 ? `${tally.failed} failed` : undefined, pagesText(tally), rate(tally), eta(tally)];
    const text = parts.filter(Boolean).join('  ');
    // Never wider than the terminal (a wrapped line cannot be redrawn in place): the bar gives way first, then the text.
    const room = Math.max(10, (stream.columns || 80) - 1);
    barWidth = Math.min(barWidth, room - text.length - 4);
    if (barWidth < 5) return text.slice(0, room);
    const filled = tally.total === 0 ? barWidth : Math.round((done / tally.total) * barWidth);
    return `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]  ${text}`;
  }
  const redraw = () => {
    if (current) stream.write(clearLine + barLine(current));
  };
  const above = (line: string) => {
    stream.write(`${clearLine}${line}\n`);
    redraw();
  };

  return {
    start(tally, concurrency, where) {
      current = tally;
      // Room for the longest text the run is likely to show, so the bar keeps one width.
      const widest = { ...tally, ok: 0, failed: tally.total, pages: tally.total * 10, startedAt: performance.now() - 1000 * tally.total };
      barLine(widest);
      above(startLine(tally, concurrency, where));
      timer = setInterval(redraw, REDRAW_MS);
      timer.unref();
    },
    fileDone(record, tally) {
      current = tally;
      const failure = failureLine(record);
      if (failure) above(failure);
      else redraw();
    },
    say: above,
    finish(tally) {
      clearInterval(timer);
      current = undefined;
      stream.write(`${clearLine}${summary(tally)}\n`);
    },
  };
}

const silent: ProgressDisplay = { start() {}, fileDone() {}, say() {}, finish() {} };

/** The bar on a terminal, plain lines elsewhere, nothing with --quiet. */
export function progressDisplay(stream: NodeJS.WriteStream, quiet: boolean): ProgressDisplay {
  if (quiet) return silent;
  return stream.isTTY ? terminalBar(stream) : plainLines(stream);
}
