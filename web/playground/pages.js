// Page pictures of the dropped files (images as they are, PDF pages drawn by
// pdf.js, which docshape serves itself) and the evidence boxes drawn over them.
const PDFJS = '/playground/pdfjs/';
/** Pages drawn per PDF: previews beyond this are skipped to keep the tab light. */
const MAX_PDF_PAGES = 20;
/** Canvas width in pixels; the page is shown scaled to the column. */
const CANVAS_WIDTH = 1000;

let pdfjs;
function loadPdfJs() {
  pdfjs ??= import(`${PDFJS}pdf.min.mjs`).then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = `${PDFJS}pdf.worker.min.mjs`;
    return lib;
  });
  return pdfjs;
}

function pageFrame(fileIndex, pageIndex, caption) {
  const figure = document.createElement('figure');
  figure.className = 'page';
  figure.dataset.file = String(fileIndex);
  figure.dataset.page = String(pageIndex);
  const sheet = document.createElement('div');
  sheet.className = 'sheet';
  const label = document.createElement('figcaption');
  label.textContent = caption;
  figure.append(label, sheet);
  return { figure, sheet };
}

function note(container, text) {
  const p = document.createElement('p');
  p.className = 'muted';
  p.textContent = text;
  container.append(p);
}

async function drawPdf(file, fileIndex, container) {
  const lib = await loadPdfJs();
  const pdf = await lib.getDocument({
    data: new Uint8Array(await file.arrayBuffer()),
    cMapUrl: `${PDFJS}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${PDFJS}standard_fonts/`,
    wasmUrl: `${PDFJS}wasm/`,
    iccUrl: `${PDFJS}iccs/`,
    // The standard fonts served with pdf.js, not whatever this machine has: pages look the same everywhere.
    useSystemFonts: false,
    isEvalSupported: false,
    enableXfa: false,
  }).promise;
  try {
    const count = Math.min(pdf.numPages, MAX_PDF_PAGES);
    for (let index = 0; index < count; index++) {
      const page = await pdf.getPage(index + 1);
      const unscaled = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: CANVAS_WIDTH / unscaled.width });
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(viewport.width);
      canvas.height = Math.round(viewport.height);
      const { figure, sheet } = pageFrame(fileIndex, index, `${file.name} - page ${index + 1} of ${pdf.numPages}`);
      sheet.append(canvas);
      container.append(figure);
      await page.render({ canvas, viewport }).promise;
    }
    if (pdf.numPages > count) note(container, `${file.name}: pages after ${count} are not shown here (all are read).`);
  } finally {
    await pdf.destroy();
  }
}

function drawImage(file, fileIndex, container) {
  const img = document.createElement('img');
  img.alt = file.name;
  img.src = URL.createObjectURL(file);
  img.addEventListener('load', () => URL.revokeObjectURL(img.src), { once: true });
  const { figure, sheet } = pageFrame(fileIndex, 0, file.name);
  sheet.append(img);
  container.append(figure);
}

/** Shows every page of every file, in request order (file index = position in `contents`). */
export async function showPages(files, container) {
  container.replaceChildren();
  for (const [fileIndex, file] of files.entries()) {
    const holder = document.createElement('div');
    container.append(holder);
    try {
      if (file.mimeType === 'application/pdf') await drawPdf(file.file, fileIndex, holder);
      else if (file.mimeType.endsWith('/xml')) note(holder, `${file.file.name}: an e-invoice XML, read as its business terms; it has no page to show.`);
      else drawImage(file.file, fileIndex, holder);
    } catch (error) {
      note(holder, `${file.file.name}: cannot show its pages here (${error?.message ?? error}); docshape still reads it.`);
    }
  }
}

export function clearBoxes(container) {
  for (const box of container.querySelectorAll('.box')) box.remove();
}

function validBox(box) {
  return Array.isArray(box) && box.length === 4 && box.every((n) => typeof n === 'number' && n >= 0 && n <= 1) && box[2] >= box[0] && box[3] >= box[1];
}

/**
 * Outlines where a value was read: `evidence.bbox` (or one box per line in
 * `evidence.boxes`), [x0, y0, x1, y1] as fractions of the page, on page
 * `evidence.page` of file `evidence.file`. Returns how many boxes it drew.
 */
export function showBoxes(container, evidence, lowConfidence) {
  clearBoxes(container);
  if (!evidence) return 0;
  const sheet = container.querySelector(`.page[data-file="${Number(evidence.file)}"][data-page="${Number(evidence.page)}"] .sheet`);
  if (!sheet) return 0;
  const boxes = (Array.isArray(evidence.boxes) && evidence.boxes.length > 0 ? evidence.boxes : [evidence.bbox]).filter(validBox);
  for (const [x0, y0, x1, y1] of boxes) {
    const box = document.createElement('div');
    box.className = lowConfidence ? 'box low' : 'box';
    box.style.left = `${x0 * 100}%`;
    box.style.top = `${y0 * 100}%`;
    box.style.width = `${(x1 - x0) * 100}%`;
    box.style.height = `${(y1 - y0) * 100}%`;
    sheet.append(box);
  }
  if (boxes.length > 0) sheet.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  return boxes.length;
}
