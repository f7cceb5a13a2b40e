import { withInput, type Engine, type EngineStatus, type Extraction, type ExtractionInput } from '../schema/engine.js';
import { outcomeLabel, type ServiceMetrics } from './service-metrics.js';

/**
 * Counts an engine's extractions (outcome, time) and hands it the usage sink
 * its model calls are reported to. A decorator, like ExplainedEngine, so no
 * engine needs to know about Prometheus.
 */
export class MeteredEngine implements Engine {
  readonly name: string;

  constructor(
    private readonly inner: Engine,
    private readonly metrics: ServiceMetrics,
  ) {
    this.name = inner.name;
  }

  async extract(input: ExtractionInput): Promise<Extraction> {
    const started = performance.now();
    const usage = this.metrics.usageFor(this.name);
    try {
      const result = await this.inner.extract(withInput(input, { usage }));
      this.metrics.observeEngineCall(this.name, 'ok', (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      this.metrics.observeEngineCall(this.name, outcomeLabel(error), (performance.now() - started) / 1000);
      throw error;
    }
  }

  status(): Promise<EngineStatus> {
    return this.inner.status();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
