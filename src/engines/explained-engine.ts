import type { Engine, EngineStatus, Extraction, ExtractionInput } from '../schema/engine.js';

/** Adds why an engine was chosen to its status, so /readyz answers "which engine, and why this one". */
export class ExplainedEngine implements Engine {
  readonly name: string;

  constructor(
    private readonly inner: Engine,
    readonly reason: string,
  ) {
    this.name = inner.name;
  }

  extract(input: ExtractionInput): Promise<Extraction> {
    return this.inner.extract(input);
  }

  async status(): Promise<EngineStatus> {
    return { ...(await this.inner.status()), chosenBecause: this.reason };
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
