/**
 * Page pictures for models that can see (Ollama `vision` capability): the
 * uploaded image itself, or the PDF page rendered by pdf.js, downscaled so a
 * page costs a model a few hundred image tokens rather than thousands.
 * Rendered only when an engine asks, so text-only engines pay nothing.
 */
import sharp from 'sharp';
import type { PageImageSource, PageRef } from '../extract/engine.js';
import type { DecodedFile } from '../ingest/decode.js';
import type { PdfProcessor } from '../ingest/pdf.js';

/** Longest side of a page picture sent to a model, in pixels. */
export const PAGE_IMAGE_MAX_SIDE = 1024;

/** What page pictures need of the PDF processor; the eval starts one only when an engine asks. */
export type PageRenderer = Pick<PdfProcessor, 'render'>;

export function pageImageSource(files: DecodedFile[], pdf: PageRenderer, signal: AbortSignal): PageImageSource {
  return async (pages: PageRef[]) => {
    const images: string[] = [];
    for (const ref of pages) {
      signal.throwIfAborted();
      const file = files.find((f) => f.index === ref.file);
      if (file) images.push((await renderPage(file, ref.page, pdf, signal)).toString('base64'));
    }
    return images;
  };
}

async function renderPage(file: DecodedFile, page: number, pdf: PageRenderer, signal: AbortSignal): Promise<Buffer> {
  const resize = { width: PAGE_IMAGE_MAX_SIDE, height: PAGE_IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true } as const;
  if (file.mimeType === 'application/pdf') {
    const raster = await pdf.render(file, page, signal);
    return sharp(Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.byteLength), { raw: { width: raster.width, height: raster.height, channels: 1 } })
      .resize(resize)
      .png()
      .toBuffer();
  }
  const animated = file.mimeType === 'image/gif' || file.mimeType === 'image/webp';
  return sharp(file.bytes, animated ? { page } : {}).rotate().resize(resize).png().toBuffer();
}
