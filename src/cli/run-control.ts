/**
 * Ctrl-C and SIGTERM during a run. The first Ctrl-C of a batch stops
 * starting files and lets the ones in flight finish (their outputs are
 * written); a second Ctrl-C, or SIGTERM, aborts those too. A single
 * combined request is aborted at once. Either way the run ends with the
 * usual exit code for the signal (130 for SIGINT, 143 for SIGTERM).
 */
export class RunControl {
  /** No file starts after this is set. */
  stopping = false;
  /** 128 + the signal's number, once a signal arrived. */
  exitCode: number | undefined;
  private readonly aborter = new AbortController();
  private uninstall: (() => void) | undefined;

  /** Aborts the files in flight: passed to every extraction. */
  get signal(): AbortSignal {
    return this.aborter.signal;
  }

  stop(): void {
    this.stopping = true;
  }

  abort(reason: Error): void {
    this.stopping = true;
    this.aborter.abort(reason);
  }

  /**
   * Until dispose(): SIGINT and SIGTERM handled as above. `finishFirst` says
   * whether a first Ctrl-C lets work in flight finish; `say` tells the user
   * what happens (on stderr).
   */
  watchSignals(finishFirst: boolean, say: (text: string) => void): void {
    const onInt = () => {
      this.exitCode = 130;
      if (finishFirst && !this.stopping) {
        this.stop();
        say('interrupted: no new files start; the ones in flight finish (Ctrl-C again to abort them)');
      } else {
        this.abort(new Error('interrupted'));
      }
    };
    const onTerm = () => {
      this.exitCode = 143;
      this.abort(new Error('terminated'));
    };
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    this.uninstall = () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    };
  }

  dispose(): void {
    this.uninstall?.();
    this.uninstall = undefined;
  }
}
