import { expect } from 'chai';
import pino from 'pino';
import { warmUpService } from '../../src/app.js';
import type { Document } from '../../src/document/document.js';
import type { Engine, ExtractionInput } from '../../src/schema/engine.js';
import { WARM_UP_PDF_STYLES, warmUpInvoicePdf } from '../../src/ingest/warm-up-pdf.js';
import type { Logger } from '../../src/logger.js';
import type { PipelineDeps } from '../../src/pipeline.js';
import { startServiceProcess } from '../helpers/service-process.js';
import { closeSharedServices, sharedServices, testConfig } from '../helpers/test-server.js';

interface LogLine {
  level: number;
  msg: string;
  requests?: number;
  runs?: number;
}

function recordingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  return { logger: pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as LogLine) }), lines };
}

/** An engine that records the documents it is given, answering through `inner` (or failing). */
function recording(name: string, inner?: Engine): Engine & { documents: Document[] } {
  const documents: Document[] = [];
  return {
    name,
    documents,
    extract: async (input: ExtractionInput) => {
      documents.push(input.document);
      if (!inner) throw new Error(`${name} was called`);
      return inner.extract(input);
    },
    status: async () => ({ ready: true }),
    close: async () => undefined,
  };
}

const lineTexts = (document: Document): string[] => document.files.flatMap((file) => file.pages.flatMap((page) => page.lines.map((line) => line.text)));

describe('warm-up before the service listens (WARM_UP)', function () {
  this.timeout(60_000);
  let services: PipelineDeps;

  before(async () => {
    services = await sharedServices();
  });

  after(() => closeSharedServices());

  it('writes its invoice two ways that pdf.js reads as the same lines of text', async () => {
    const [plain, library] = await Promise.all(
      WARM_UP_PDF_STYLES.map((style) => services.pdf.inspect({ index: 0, filename: 'warm-up.pdf', mimeType: 'application/pdf', bytes: Buffer.from(warmUpInvoicePdf(style)) }, 10)),
    );
    const texts = (inspection: typeof plain) => inspection!.pages[0]!.lines.map((line) => line.text);
    expect(texts(plain)).to.include.members(['Invoice date: 23/09/2025', 'Total due 140.28']);
    expect(texts(library)).to.deep.equal(texts(plain));
  });

  it('sends its requests through the whole pipeline: pdf.js reads the PDF and the rules engine answers', async () => {
    const { logger, lines } = recordingLogger();
    const rules = recording('rules', services.engine);
    await warmUpService({ config: testConfig(), pipeline: { ...services, engine: rules }, logger, requests: 4, engineRuns: 0 });
    expect(rules.documents).to.have.length(4);
    for (const document of rules.documents) expect(lineTexts(document)).to.include('Invoice date: 23/09/2025');
    expect(lines.find((line) => line.msg === 'warmed up')?.requests).to.equal(4);
  });

  it('sends none with WARM_UP=0', async () => {
    const rules = recording('rules', services.engine);
    await warmUpService({ config: testConfig(), pipeline: { ...services, engine: rules }, logger: recordingLogger().logger, requests: 0, engineRuns: 0 });
    expect(rules.documents).to.have.length(0);
  });

  it('never calls a language model: it warms up with the cross-check rules engine, or not at all', async () => {
    const model = recording('llm');
    const crossCheck = recording('rules', services.engine);
    await warmUpService({ config: testConfig(), pipeline: { ...services, engine: model, crossCheck }, logger: recordingLogger().logger, requests: 2, engineRuns: 3 });
    expect(model.documents).to.have.length(0);
    // the requests only: the engine warm-up would start the cross-check's thread, which such a service starts only for evidence
    expect(crossCheck.documents).to.have.length(2);

    const { logger, lines } = recordingLogger();
    await warmUpService({ config: testConfig(), pipeline: { ...services, engine: model }, logger, requests: 2, engineRuns: 0 });
    expect(model.documents).to.have.length(0);
    expect(lines.map((line) => line.msg)).to.include('warm-up skipped: no rules engine to warm up with');
  });

  it('logs a failure as a warning and returns, so that the service starts all the same', async () => {
    const { logger, lines } = recordingLogger();
    const failing = recording('rules');
    await warmUpService({ config: testConfig(), pipeline: { ...services, engine: failing }, logger, requests: 3, engineRuns: 0 });
    expect(failing.documents).to.have.length(1);
    const warning = lines.find((line) => line.msg === 'warm-up failed; starting all the same');
    expect(warning?.level).to.equal(40);
  });

  it('reads the invoice with the rules engine without pdf.js (WARM_UP_ENGINE): the values are found and no PDF task runs', async () => {
    const { logger, lines } = recordingLogger();
    const rules = recording('rules', services.engine);
    const answers: Array<Record<string, unknown>> = [];
    const recordingAnswers: Engine = {
      ...rules,
      extract: async (input) => {
        const extraction = await rules.extract(input);
        answers.push(extraction.value as Record<string, unknown>);
        return extraction;
      },
    };
    const noPdf = { ...services.pdf, inspect: () => Promise.reject(new Error('pdf.js was asked')), render: () => Promise.reject(new Error('pdf.js was asked')) } as unknown as PipelineDeps['pdf'];
    await warmUpService({ config: testConfig(), pipeline: { ...services, engine: recordingAnswers, pdf: noPdf }, logger, requests: 0, engineRuns: 3 });
    expect(rules.documents).to.have.length(3);
    expect(lines.find((line) => line.msg === 'engine warmed up')?.runs).to.equal(3);
    // the rules engine's real reading of the page, not a trivial path: it finds the invoice's values
    expect(answers[0]).to.include({ invoice_number: 'NW-10457', total: 140.28 });
  });

  it('logs a failing engine warm-up as a warning and goes on', async () => {
    const { logger, lines } = recordingLogger();
    const failing = recording('rules');
    await warmUpService({ config: testConfig(), pipeline: { ...services, engine: failing }, logger, requests: 0, engineRuns: 3 });
    expect(failing.documents).to.have.length(1);
    expect(lines.find((line) => line.msg === 'engine warm-up failed; starting all the same')?.level).to.equal(40);
  });

  it('runs in the started service before it listens', async () => {
    const service = await startServiceProcess({ API_KEYS: 'warm-key', WARM_UP: '2', WARM_UP_ENGINE: '2' });
    try {
      const messages = service.stdout().trim().split('\n').map((line) => JSON.parse(line) as LogLine);
      const warmed = messages.findIndex((line) => line.msg === 'warmed up');
      const engineWarmed = messages.findIndex((line) => line.msg === 'engine warmed up');
      expect(messages[warmed]?.requests).to.equal(2);
      expect(messages[engineWarmed]?.runs).to.equal(2);
      const listening = messages.findIndex((line) => line.msg === 'docshape listening');
      expect(warmed).to.be.below(listening);
      expect(engineWarmed).to.be.below(listening);
    } finally {
      await service.stop();
    }
  });
});
