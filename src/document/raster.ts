/** An 8-bit greyscale bitmap, one byte per pixel, row-major, no padding. The OCR input format. */
export interface GreyRaster {
  width: number;
  height: number;
  data: Uint8Array;
  /** Resolution the pixels represent, passed to Tesseract as user_defined_dpi. */
  dpi: number;
}
