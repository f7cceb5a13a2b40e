/**
 * Between the frame OCR read a page in and the page as the caller sent it.
 * OCR may read a page turned by a quarter (it lay sideways) and straightened
 * (it was skewed); its word boxes are then in that turned, straightened
 * frame, which is also the frame the engines read lines in. Per-value
 * evidence must point at the page the caller has, so the Page keeps the map
 * back (Page.shown) and boxes go through it when they leave the service.
 */
import type { Affine, BBox } from './document.js';

export const IDENTITY: Affine = [1, 0, 0, 1, 0, 0];

/** `first`, then `second`. */
export function compose(second: Affine, first: Affine): Affine {
  const [a1, b1, c1, d1, e1, f1] = first;
  const [a2, b2, c2, d2, e2, f2] = second;
  return [a2 * a1 + c2 * b1, b2 * a1 + d2 * b1, a2 * c1 + c2 * d1, b2 * c1 + d2 * d1, a2 * e1 + c2 * f1 + e2, b2 * e1 + d2 * f1 + f2];
}

export function isIdentity(transform: Affine): boolean {
  return transform.every((value, i) => Math.abs(value - IDENTITY[i]!) < 1e-9);
}

/**
 * From a raster turned clockwise by `degrees` back to the raster before the
 * turn, which was `width` x `height` (the same turn as ocr-page.ts's
 * rotateRaster: for 90, turned (x, y) shows the input's (y, height - x)).
 */
export function undoQuarterTurn(degrees: 0 | 90 | 180 | 270, width: number, height: number): Affine {
  switch (degrees) {
    case 90:
      return [0, -1, 1, 0, 0, height];
    case 180:
      return [-1, 0, 0, -1, width, height];
    case 270:
      return [0, 1, -1, 0, width, 0];
    default:
      return IDENTITY;
  }
}

/**
 * From a raster turned about its centre by `radians` (clockwise as seen, y
 * pointing down; the frame keeps its size) back to the raster before.
 */
export function undoTurnAboutCentre(radians: number, width: number, height: number): Affine {
  if (radians === 0) return IDENTITY;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const cx = width / 2;
  const cy = height / 2;
  // p = c + R(-radians) (q - c), R(t) = [[cos t, -sin t], [sin t, cos t]]
  return [cos, -sin, sin, cos, cx - cos * cx - sin * cy, cy + sin * cx - cos * cy];
}

/** The box around a box's corners after `transform`. */
export function transformBox(box: BBox, transform: Affine): BBox {
  const [a, b, c, d, e, f] = transform;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [
    [box.x0, box.y0],
    [box.x1, box.y0],
    [box.x0, box.y1],
    [box.x1, box.y1],
  ] as const) {
    xs.push(a * x + c * y + e);
    ys.push(b * x + d * y + f);
  }
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}
