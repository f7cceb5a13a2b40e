import type { Config } from './config.js';
import { createEngine, type EngineFactoryOptions } from './engines/create-engine.js';
import { ExplainedEngine } from './engines/explained-engine.js';
import { createOcrEngine, type OcrEngine } from './ingest/ocr-choice.js';
import { FormatReader } from './ingest/formats-thread.js';
import { PdfProcessor } from './ingest/pdf.js';
import type { Logger } from './logger.js';
import type { PipelineDeps } from './pipeline.js';

/**
 * Starts the long-lived resources (OCR engine, pdf.js workers, extraction engine) once,
 * warmed, and returns them with one close() for shutdown.
 */
export type Services = PipelineDeps & { close: () => Promise<void>; engineReason: string; ocrReason: string };

export async function startServices(config: Config, logger: Logger, options: EngineFactoryOptions = {}): Promise<Services> {
  const pdf = new PdfProcessor({
    workers: config.pdf.workers,
    maxPixelsPerPage: config.limits.maxPixelsPerImage,
    renderDpi: config.pdf.renderDpi,
    maxStreamBytes: config.pdf.maxStreamBytes,
    warmUpReadings: config.pdf.threadWarmUpReadings,
    onThreadWarmedUp: ({ failure, ...report }) =>
      failure === undefined ? logger.info(report, 'pdf.js thread started and warmed up') : logger.warn({ ...report, failure }, 'pdf.js thread warm-up failed; the thread reads PDFs all the same'),
  });
  // no thread starts before the first file it reads
  const formats = new FormatReader({ workers: config.formats.workers, taskTimeoutMs: config.limits.requestTimeoutMs });
  let ocr: OcrEngine;
  let ocrReason: string;
  try {
    ({ engine: ocr, reason: ocrReason } = await createOcrEngine(config.ocr, logger));
  } catch (error) {
    await Promise.allSettled([pdf.close(), formats.close()]);
    throw error;
  }
  let choice: Awaited<ReturnType<typeof createEngine>>;
  try {
    choice = await createEngine(config, logger, options);
  } catch (error) {
    await Promise.allSettled([ocr.close(), pdf.close(), formats.close()]);
    throw error;
  }
  const engine = new ExplainedEngine(choice.engine, choice.reason);
  logger.info({ engine: engine.name, reason: choice.reason }, 'extraction engine chosen');
  return {
    pdf,
    formats,
    ocr,
    engine,
    ...(choice.crossCheck ? { crossCheck: choice.crossCheck } : {}),
    limits: config.limits,
    dates: config.dates,
    eInvoice: config.eInvoice,
    // One page in flight per OCR worker plus one being rendered keeps workers busy without piling up rasters.
    ocrConcurrency: ocr.status().workers + 1,
    engineReason: choice.reason,
    ocrReason,
    close: async () => {
      await Promise.allSettled([engine.close(), choice.crossCheck?.close(), ocr.close(), pdf.close(), formats.close()]);
    },
  };
}
