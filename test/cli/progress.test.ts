import { expect } from 'chai';
import type { FileRecord, Tally } from '../../src/cli/batch.js';
import { progressDisplay } from '../../src/cli/progress.js';

/** A terminal of `columns` that keeps what was written. */
function fakeTerminal(columns: number): NodeJS.WriteStream & { written: string } {
  const stream = {
    isTTY: true,
    columns,
    written: '',
    write(text: string) {
      stream.written += text;
      return true;
    },
  };
  return stream as unknown as NodeJS.WriteStream & { written: string };
}

/** What the terminal shows: each \r or erase-line starts the line over. */
function screen(written: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const part of written.split(/(\r|\x1b\[2K|\n)/)) {
    if (part === '\r' || part === '\x1b[2K') current = '';
    else if (part === '\n') {
      lines.push(current);
      current = '';
    } else current += part;
  }
  return [...lines, current];
}

const input = (path: string) => ({ path, mimeType: 'image/png' as const, outputName: path });
const ok = (path: string): FileRecord => ({ input: input(path), ms: 500, status: 'ok', answer: { result: {}, engine: 'rules', pages: 2, layout: undefined } });
const failed = (path: string): FileRecord => ({ input: input(path), ms: 5, status: 'error', failure: { error: 'contents[0].data: image cannot be decoded', httpStatus: 400 } });

describe('the progress bar on a terminal', () => {
  it('redraws one line in place with files, failures, pages, rate and ETA, never wider than the terminal, and prints failures above it', () => {
    for (const columns of [100, 60]) {
      const terminal = fakeTerminal(columns);
      const display = progressDisplay(terminal, false);
      const tally: Tally = { total: 40, ok: 0, failed: 0, pages: undefined, inFlight: 3, stopping: false, startedAt: performance.now() - 10_000 };
      display.start(tally, 3, 'in this process, engine rules');
      for (let i = 0; i < 11; i++) {
        const record = i === 4 ? failed('docs/bad.png') : ok(`docs/${i}.pdf`);
        if (record.status === 'ok') {
          tally.ok++;
          tally.pages = (tally.pages ?? 0) + 2;
        } else tally.failed++;
        display.fileDone(record, tally);
      }
      const shown = screen(terminal.written);
      const bar = shown.at(-1) as string;
      expect(bar.length, bar).to.be.below(columns);
      expect(bar).to.match(/11\/40 files {2}1 failed {2}20 pages {2}1\.1 files\/s {2}ETA 0:2\d$/);
      if (columns === 100) expect(bar).to.match(/^\[#+-+\] /);
      expect(shown).to.include('failed docs/bad.png: contents[0].data: image cannot be decoded');
      display.finish(tally);
      expect(screen(terminal.written).at(-2)).to.match(/^done: 10 ok, 1 failed of 40 files, 20 pages in 10\.\d s \(1\.1 files\/s\)$/);
    }
  });

  it('shows nothing with --quiet', () => {
    const terminal = fakeTerminal(80);
    const display = progressDisplay(terminal, true);
    const tally: Tally = { total: 1, ok: 1, failed: 0, pages: 1, inFlight: 0, stopping: false, startedAt: performance.now() };
    display.start(tally, 1, 'here');
    display.fileDone(ok('a.pdf'), tally);
    display.finish(tally);
    expect(terminal.written).to.equal('');
  });
});
