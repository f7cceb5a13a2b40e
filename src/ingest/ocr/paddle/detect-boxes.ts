/**
 * DB post-processing: from the detector's text-probability map to text-line
 * boxes, as PaddleOCR's DBPostProcess does it with OpenCV, written for our
 * arrays: threshold and dilate the map, find connected regions (8-connected,
 * traced as runs per row), take the rotated rectangle of least area around
 * each region's outline, score it by the mean probability inside, drop weak
 * or tiny ones and grow the rest back by the margin DB shrinks text to
 * ("unclip").
 */
import { convexHull, growRect, minAreaRect, rectCorners, type Point, type Quad } from './geometry.js';

export interface DetectOptions {
  /** Map pixels above this probability are text. */
  threshold: number;
  /** A region whose mean probability inside its box is below this is dropped. */
  boxThreshold: number;
  /** How far boxes are grown, as in DB: margin = area * ratio / perimeter. */
  unclipRatio: number;
  /** At most this many regions are looked at (noise can make thousands). */
  maxCandidates: number;
  /** Dilate the thresholded map by a 2x2 square first (RapidOCR's use_dilation; PaddleOCR's default is not to). */
  dilate: boolean;
}

/**
 * PaddleOCR's defaults for PP-OCRv4 (unclip 1.5) with RapidOCR's box
 * threshold (0.5, PaddleOCR 0.6) and dilation: PaddleOCR's 0.6 drops a lone
 * digit close to a longer word ("hammer   2" scored 0.54).
 */
export const DEFAULT_DETECT_OPTIONS: DetectOptions = { threshold: 0.3, boxThreshold: 0.5, unclipRatio: 1.5, maxCandidates: 1000, dilate: true };

const MIN_SIDE = 3;

export interface DetectedBox {
  /** Corners in map pixels: top-left, top-right, bottom-right, bottom-left. */
  quad: Quad;
  score: number;
}

/** The thresholded map, dilated by a 2x2 square when asked (joins characters a one-pixel gap apart, as RapidOCR does). */
function textMask(probabilities: Float32Array, width: number, height: number, threshold: number, dilate: boolean): Uint8Array {
  const mask = new Uint8Array(width * height);
  if (!dilate) {
    for (let i = 0; i < mask.length; i++) if ((probabilities[i] as number) > threshold) mask[i] = 1;
    return mask;
  }
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const i = row + x;
      if (
        (probabilities[i] as number) > threshold ||
        (x > 0 && (probabilities[i - 1] as number) > threshold) ||
        (y > 0 && (probabilities[i - width] as number) > threshold) ||
        (x > 0 && y > 0 && (probabilities[i - width - 1] as number) > threshold)
      ) {
        mask[i] = 1;
      }
    }
  }
  return mask;
}

/** Horizontal runs of mask pixels, and which region (after union-find) each belongs to. */
interface Runs {
  y: Int32Array;
  x0: Int32Array;
  x1: Int32Array;
  parent: Int32Array;
  count: number;
}

function findRoot(parent: Int32Array, i: number): number {
  let root = i;
  while (parent[root] !== root) root = parent[root] as number;
  while (parent[i] !== root) {
    const next = parent[i] as number;
    parent[i] = root;
    i = next;
  }
  return root;
}

/** Runs of each row, united with every run of the row above that touches them (8-connectivity). */
function labelRuns(mask: Uint8Array, width: number, height: number): Runs {
  let capacity = 1024;
  let runs: Runs = { y: new Int32Array(capacity), x0: new Int32Array(capacity), x1: new Int32Array(capacity), parent: new Int32Array(capacity), count: 0 };
  const grow = () => {
    capacity *= 2;
    const bigger = (old: Int32Array) => {
      const next = new Int32Array(capacity);
      next.set(old);
      return next;
    };
    runs = { y: bigger(runs.y), x0: bigger(runs.x0), x1: bigger(runs.x1), parent: bigger(runs.parent), count: runs.count };
  };
  let previousStart = 0;
  let previousEnd = 0;
  for (let y = 0; y < height; y++) {
    const rowStart = runs.count;
    const row = y * width;
    let x = 0;
    while (x < width) {
      if (mask[row + x] === 0) {
        x++;
        continue;
      }
      const start = x;
      while (x < width && mask[row + x] === 1) x++;
      if (runs.count === capacity) grow();
      const id = runs.count++;
      runs.y[id] = y;
      runs.x0[id] = start;
      runs.x1[id] = x - 1;
      runs.parent[id] = id;
      // Runs of the previous row overlapping [start - 1, x] (diagonal neighbours included).
      for (let p = previousStart; p < previousEnd; p++) {
        if ((runs.x1[p] as number) < start - 1) continue;
        if ((runs.x0[p] as number) > x) break;
        const a = findRoot(runs.parent, p);
        const b = findRoot(runs.parent, id);
        if (a !== b) runs.parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
    previousStart = rowStart;
    previousEnd = runs.count;
  }
  return runs;
}

/**
 * Outline points of each region: the first and last pixel centre of each of
 * its runs. Their hull equals the hull of the whole region (interior pixels
 * never lie on it), at a fraction of the points. Regions come out in the
 * order of their first run: top to bottom.
 */
function regionOutlines(runs: Runs): Point[][] {
  const byRoot = new Map<number, Point[]>();
  for (let i = 0; i < runs.count; i++) {
    const root = findRoot(runs.parent, i);
    let points = byRoot.get(root);
    if (!points) {
      points = [];
      byRoot.set(root, points);
    }
    const y = runs.y[i] as number;
    points.push({ x: runs.x0[i] as number, y }, { x: runs.x1[i] as number, y });
  }
  return [...byRoot.values()];
}

/** Mean probability inside a convex quad (PaddleOCR's "fast" box score): scanlines through pixel centres. */
export function meanInside(probabilities: Float32Array, width: number, height: number, quad: Quad): number {
  const ys = quad.map((p) => p.y);
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const bottom = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  let sum = 0;
  let count = 0;
  for (let y = top; y <= bottom; y++) {
    let left = Infinity;
    let right = -Infinity;
    for (let i = 0; i < 4; i++) {
      const a = quad[i] as Point;
      const b = quad[(i + 1) % 4] as Point;
      if ((a.y <= y && b.y >= y) || (b.y <= y && a.y >= y)) {
        const x = a.y === b.y ? Math.min(a.x, b.x) : a.x + ((y - a.y) * (b.x - a.x)) / (b.y - a.y);
        const xEnd = a.y === b.y ? Math.max(a.x, b.x) : x;
        if (x < left) left = x;
        if (xEnd > right) right = xEnd;
      }
    }
    const x0 = Math.max(0, Math.ceil(left - 0.5));
    const x1 = Math.min(width - 1, Math.floor(right + 0.5));
    const row = y * width;
    for (let x = x0; x <= x1; x++) {
      sum += probabilities[row + x] as number;
      count++;
    }
  }
  return count === 0 ? 0 : sum / count;
}

/** Text-line boxes on a probability map of `width` x `height`, in map pixels. */
export function detectBoxes(probabilities: Float32Array, width: number, height: number, options: DetectOptions = DEFAULT_DETECT_OPTIONS): DetectedBox[] {
  const mask = textMask(probabilities, width, height, options.threshold, options.dilate);
  const outlines = regionOutlines(labelRuns(mask, width, height)).slice(0, options.maxCandidates);
  const boxes: DetectedBox[] = [];
  for (const outline of outlines) {
    const rect = minAreaRect(convexHull(outline));
    if (Math.min(rect.length, rect.breadth) < MIN_SIDE) continue;
    const score = meanInside(probabilities, width, height, rectCorners(rect));
    if (score < options.boxThreshold) continue;
    // DB trains on text shrunk by this margin; growing a rectangle by it on every side is what offsetting its outline does.
    const margin = (rect.length * rect.breadth * options.unclipRatio) / (2 * (rect.length + rect.breadth));
    const grown = growRect(rect, margin);
    if (Math.min(grown.length, grown.breadth) < MIN_SIDE + 2) continue;
    boxes.push({ quad: rectCorners(grown), score });
  }
  return boxes;
}
