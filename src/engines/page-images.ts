/**
 * Page pictures for models that can see (Ollama `vision` capability): the
 * uploaded image itself, or the PDF page rendered by pdf.js, downscaled so a
 * page costs a model a few hundred image tokens rather than thousands.
 * Rendered only when an engine asks, so text-only engines pay nothing.
 */
import sharp from 'sharp';
import type { Limits } from '../config.js';
import type { PageImageSource, PageRef } from '../schema/engine.js';
import type { DecodedFile } from '../ingest/decode.js';
import { distinctFrameIndexes } from '../ingest/image.js';
import type { PdfProcessor } from '../ingest/pdf.js';

/** Longest side of a page picture sent to a model, in pixels. */
export const PAGE_IMAGE_MAX_SIDE = 1024;

/** What page pictures need of the PDF processor; the eval starts one only when an engine asks. */
export type PageRenderer = Pick<PdfProcessor, 'render'>;

export function pageImageSource(files: DecodedFile[], pdf: PageRenderer, limits: Pick<Limits, 'maxPixelsPerImage' | 'maxGifFrames'>, signal: AbortSignal): PageImageSource {
  const frameIndexes = new Map<DecodedFile, Promise<number[]>>();
  return async (pages: PageRef[]) => {
    const images: string[] = [];
    for (const ref of pages) {
      signal.throwIfAborted();
      const file = files.find((f) => f.index === ref.file);
      if (!file) continue;
      if (file.mimeType === 'application/pdf') {
        images.push((await renderPdfPage(file, ref.page, pdf, signal)).toString('base64'));
        continue;
      }
      // an XML e-invoice, an Office file, text, an e-mail: no picture of the page to show (its words are all there is)
      if (!file.mimeType.startsWith('image/')) continue;
      // a TIFF's pages are its pages, every one read
      if (file.mimeType === 'image/tiff') {
        images.push((await renderFrame(file, ref.page)).toString('base64'));
        continue;
      }
      // an image's pages are its distinct frames (ingest/image.ts): page 1 of frames A, A, B is B, frame 2
      if (!frameIndexes.has(file)) frameIndexes.set(file, distinctFrameIndexes(file, limits));
      const frame = (await frameIndexes.get(file)!)[ref.page];
      if (frame !== undefined) images.push((await renderFrame(file, frame)).toString('base64'));
    }
    return images;
  };
}

const RESIZE = { width: PAGE_IMAGE_MAX_SIDE, height: PAGE_IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true } as const;

async function renderPdfPage(file: DecodedFile, page: number, pdf: PageRenderer, signal: AbortSignal): Promise<Buffer> {
  const raster = await pdf.render(file, page, signal);
  return sharp(Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.byteLength), { raw: { width: raster.width, height: raster.height, channels: 1 } })
    .resize(RESIZE)
    .png()
    .toBuffer();
}

function renderFrame(file: DecodedFile, frame: number): Promise<Buffer> {
  const animated = file.mimeType === 'image/gif' || file.mimeType === 'image/webp' || file.mimeType === 'image/tiff';
  return sharp(file.bytes, animated ? { page: frame } : {}).rotate().resize(RESIZE).png().toBuffer();
}
