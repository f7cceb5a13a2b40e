/**
 * Points and quadrilaterals on the page. A text line is a Quad whose corners
 * are listed in reading order: the text runs from corner 0 to corner 1 along
 * its top edge, and corner 3 is below corner 0. Turning a line (a vertical
 * line read sideways, an upside-down line) is then only a change of which
 * corner comes first; sampling, word boxes and page orientation all read the
 * same four points.
 */
import type { BBox } from '../../../document/document.js';

export interface Point {
  x: number;
  y: number;
}

export type Quad = [Point, Point, Point, Point];

export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** Length of the reading direction (the longer of top and bottom edge). */
export function quadWidth(quad: Quad): number {
  return Math.max(distance(quad[0], quad[1]), distance(quad[3], quad[2]));
}

/** Extent across the reading direction (the longer of left and right edge). */
export function quadHeight(quad: Quad): number {
  return Math.max(distance(quad[0], quad[3]), distance(quad[1], quad[2]));
}

/** The same corners, read as if the text ran down the former left edge (a quarter turn counter-clockwise of the crop). */
export function turnQuarter(quad: Quad): Quad {
  return [quad[1], quad[2], quad[3], quad[0]];
}

/** The same corners, read upside down. */
export function turnHalf(quad: Quad): Quad {
  return [quad[2], quad[3], quad[0], quad[1]];
}

/**
 * The point at (u, v) in the quad's own unit square: u along the reading
 * direction, v from top to bottom; bilinear, so it also serves quads that
 * clipping to the page made slightly irregular.
 */
export function pointIn(quad: Quad, u: number, v: number): Point {
  const [p0, p1, p2, p3] = quad;
  const topX = p0.x + (p1.x - p0.x) * u;
  const topY = p0.y + (p1.y - p0.y) * u;
  const bottomX = p3.x + (p2.x - p3.x) * u;
  const bottomY = p3.y + (p2.y - p3.y) * u;
  return { x: topX + (bottomX - topX) * v, y: topY + (bottomY - topY) * v };
}

/** Direction of reading in degrees, 0 = left to right, 90 = top to bottom (y grows down), in (-180, 180]. */
export function readingAngle(quad: Quad): number {
  const dx = quad[1].x - quad[0].x + (quad[2].x - quad[3].x);
  const dy = quad[1].y - quad[0].y + (quad[2].y - quad[3].y);
  return (Math.atan2(dy, dx) * 180) / Math.PI;
}

export function boundingBox(points: readonly Point[]): BBox {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const { x, y } of points) {
    if (x < x0) x0 = x;
    if (y < y0) y0 = y;
    if (x > x1) x1 = x;
    if (y > y1) y1 = y;
  }
  return { x0, y0, x1, y1 };
}

/** Convex hull (Andrew's monotone chain), counter-clockwise in a y-down frame, without repeated end point. */
export function convexHull(points: Point[]): Point[] {
  if (points.length < 3) return [...points];
  const sorted = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: Point[] = [];
  for (const point of sorted) {
    while (lower.length >= 2 && cross(lower[lower.length - 2] as Point, lower[lower.length - 1] as Point, point) <= 0) lower.pop();
    lower.push(point);
  }
  const upper: Point[] = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const point = sorted[i] as Point;
    while (upper.length >= 2 && cross(upper[upper.length - 2] as Point, upper[upper.length - 1] as Point, point) <= 0) upper.pop();
    upper.push(point);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

/** A rotated rectangle: centre, unit direction of its first side, and side lengths. */
export interface RotatedRect {
  centre: Point;
  /** Unit vector along `length`. */
  axis: Point;
  length: number;
  breadth: number;
}

/**
 * The rectangle of least area around a convex hull. One of its sides lies
 * on a hull edge, so every edge direction is tried (hulls of text lines
 * have tens of points, so the quadratic search costs nothing).
 */
export function minAreaRect(hull: Point[]): RotatedRect {
  if (hull.length === 0) return { centre: { x: 0, y: 0 }, axis: { x: 1, y: 0 }, length: 0, breadth: 0 };
  let best: RotatedRect | undefined;
  let bestArea = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i] as Point;
    const b = hull[(i + 1) % hull.length] as Point;
    const edge = Math.hypot(b.x - a.x, b.y - a.y);
    if (edge === 0 && hull.length > 1) continue;
    const ux = edge === 0 ? 1 : (b.x - a.x) / edge;
    const uy = edge === 0 ? 0 : (b.y - a.y) / edge;
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const p of hull) {
      const u = p.x * ux + p.y * uy;
      const v = -p.x * uy + p.y * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const cu = (minU + maxU) / 2;
      const cv = (minV + maxV) / 2;
      best = { centre: { x: cu * ux - cv * uy, y: cu * uy + cv * ux }, axis: { x: ux, y: uy }, length: maxU - minU, breadth: maxV - minV };
    }
  }
  return best ?? { centre: hull[0] as Point, axis: { x: 1, y: 0 }, length: 0, breadth: 0 };
}

/** The rectangle grown by `margin` on every side. */
export function growRect(rect: RotatedRect, margin: number): RotatedRect {
  return { ...rect, length: rect.length + 2 * margin, breadth: rect.breadth + 2 * margin };
}

/**
 * The rectangle's corners as a Quad in page reading order: top-left,
 * top-right, bottom-right, bottom-left, with "left" the two corners of
 * smaller x (so a tall rectangle lists its short top edge first; the caller
 * decides whether such a line is read sideways).
 */
export function rectCorners(rect: RotatedRect): Quad {
  const { centre, axis, length, breadth } = rect;
  const hx = (axis.x * length) / 2;
  const hy = (axis.y * length) / 2;
  const vx = (-axis.y * breadth) / 2;
  const vy = (axis.x * breadth) / 2;
  const corners: Point[] = [
    { x: centre.x - hx - vx, y: centre.y - hy - vy },
    { x: centre.x + hx - vx, y: centre.y + hy - vy },
    { x: centre.x + hx + vx, y: centre.y + hy + vy },
    { x: centre.x - hx + vx, y: centre.y - hy + vy },
  ];
  const byX = corners.sort((a, b) => a.x - b.x || a.y - b.y);
  const [l0, l1, r0, r1] = byX as [Point, Point, Point, Point];
  const [topLeft, bottomLeft] = l0.y <= l1.y ? [l0, l1] : [l1, l0];
  const [topRight, bottomRight] = r0.y <= r1.y ? [r0, r1] : [r1, r0];
  return [topLeft, topRight, bottomRight, bottomLeft];
}

/** Rotates a point about `centre` by `degrees` (positive: clockwise on a y-down page). */
export function rotatePoint(point: Point, centre: Point, degrees: number): Point {
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const dx = point.x - centre.x;
  const dy = point.y - centre.y;
  return { x: centre.x + dx * cos - dy * sin, y: centre.y + dx * sin + dy * cos };
}
