/**
 * From recognised lines to the page's words: which way up the page is (the
 * direction most of its text runs), how far it is skewed, and each word's
 * box in the frame of the upright, straightened page. Turning and
 * straightening act on coordinates only; the pixels were already read along
 * each line's own direction.
 */
import type { Affine, BBox, Word } from '../../../document/document.js';
import { compose, undoQuarterTurn } from '../../../document/page-frame.js';
import type { DecodedWord } from './ctc.js';
import { boundingBox, pointIn, quadHeight, quadWidth, readingAngle, rotatePoint, type Point, type Quad } from './geometry.js';

/** Clockwise turn of the input page that makes its text upright. */
export type PageTurn = 0 | 90 | 180 | 270;

export interface RecognisedLine {
  /** Corners in reading order, in raster pixels. */
  quad: Quad;
  words: DecodedWord[];
}

export interface PageFrame {
  turn: PageTurn;
  /** Median slope of the upright page's long lines, degrees, positive falling to the right. */
  skewDegrees: number;
  /** Whether word boxes were turned back by skewDegrees. */
  deskewed: boolean;
  width: number;
  height: number;
}

/** Pages sloping less than this keep their boxes as read: line grouping copes with a degree. */
export const DESKEW_FROM_DEGREES = 0.75;
/** Lines at least this many times longer than tall say how the page slopes. */
const SLOPE_LINE_ASPECT = 4;

/** The direction (0, 90, 180, 270 degrees) nearest to a reading angle. */
export function quarterOf(angle: number): PageTurn {
  const normalised = ((Math.round(angle / 90) % 4) + 4) % 4;
  return (normalised * 90) as PageTurn;
}

/**
 * Which way most text runs, weighted by line length: 0 upright, 90 top to
 * bottom (the page lies turned clockwise), 180 upside down, 270 bottom to top.
 */
export function dominantDirection(quads: Quad[]): PageTurn {
  const weight = new Map<PageTurn, number>();
  for (const quad of quads) {
    const direction = quarterOf(readingAngle(quad));
    weight.set(direction, (weight.get(direction) ?? 0) + quadWidth(quad));
  }
  let best: PageTurn = 0;
  for (const [direction, total] of weight) if (total > (weight.get(best) ?? 0)) best = direction;
  return best;
}

/** Clockwise turn that makes text running in `direction` read left to right. */
export function turnFor(direction: PageTurn): PageTurn {
  return ((360 - direction) % 360) as PageTurn;
}

/** A point of the input raster in the frame of the raster turned clockwise by `turn`. */
export function turnPoint(point: Point, turn: PageTurn, width: number, height: number): Point {
  switch (turn) {
    case 0:
      return point;
    case 90:
      return { x: height - point.y, y: point.x };
    case 180:
      return { x: width - point.x, y: height - point.y };
    case 270:
      return { x: point.y, y: width - point.x };
  }
}

function weightedMedian(values: { value: number; weight: number }[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a.value - b.value);
  const half = sorted.reduce((sum, v) => sum + v.weight, 0) / 2;
  let seen = 0;
  for (const entry of sorted) {
    seen += entry.weight;
    if (seen >= half) return entry.value;
  }
  return (sorted[sorted.length - 1] as { value: number }).value;
}

/** Slope of the page after turning: length-weighted median angle of its long lines, in degrees. */
function slopeAfterTurn(quads: Quad[], turn: PageTurn): number {
  const slopes: { value: number; weight: number }[] = [];
  for (const quad of quads) {
    const width = quadWidth(quad);
    if (width < SLOPE_LINE_ASPECT * quadHeight(quad)) continue;
    let angle = readingAngle(quad) + turn;
    angle = ((((angle + 180) % 360) + 360) % 360) - 180;
    if (Math.abs(angle) > 45) continue;
    slopes.push({ value: angle, weight: width });
  }
  return weightedMedian(slopes);
}

/**
 * The page frame for these lines: turned upright when `allowTurn` and most
 * text runs another way, straightened when its long lines slope by
 * DESKEW_FROM_DEGREES or more.
 */
export function pageFrame(quads: Quad[], width: number, height: number, allowTurn: boolean): PageFrame {
  const turn = allowTurn ? turnFor(dominantDirection(quads)) : 0;
  const skewDegrees = slopeAfterTurn(quads, turn);
  const quarter = turn === 90 || turn === 270;
  return {
    turn,
    skewDegrees,
    deskewed: Math.abs(skewDegrees) >= DESKEW_FROM_DEGREES,
    width: quarter ? height : width,
    height: quarter ? width : height,
  };
}

function clampBox(box: BBox, width: number, height: number): BBox {
  return {
    x0: Math.max(0, Math.min(width, box.x0)),
    y0: Math.max(0, Math.min(height, box.y0)),
    x1: Math.max(0, Math.min(width, box.x1)),
    y1: Math.max(0, Math.min(height, box.y1)),
  };
}

/** A point of the input raster in the page frame: turned upright, then straightened. */
export function pointToPage(point: Point, frame: PageFrame, inputWidth: number, inputHeight: number): Point {
  const upright = turnPoint(point, frame.turn, inputWidth, inputHeight);
  return frame.deskewed ? rotatePoint(upright, { x: frame.width / 2, y: frame.height / 2 }, -frame.skewDegrees) : upright;
}

/** The inverse of pointToPage as an affine map: page-frame boxes back onto the raster as given (for evidence boxes). */
export function frameToInput(frame: PageFrame, inputWidth: number, inputHeight: number): Affine {
  const unturn = undoQuarterTurn(frame.turn, inputWidth, inputHeight);
  if (!frame.deskewed) return unturn;
  // straightening turned by -skew about the frame's centre; turning back is +skew about the same centre
  const radians = (frame.skewDegrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const cx = frame.width / 2;
  const cy = frame.height / 2;
  const unskew: Affine = [cos, sin, -sin, cos, cx - cx * cos + cy * sin, cy - cx * sin - cy * cos];
  return compose(unturn, unskew);
}

/** Every word of every line as a Word in the page frame (boxes axis-aligned, inside the page). */
export function placeWords(lines: RecognisedLine[], frame: PageFrame, inputWidth: number, inputHeight: number): Word[] {
  const toPage = (point: Point): Point => pointToPage(point, frame, inputWidth, inputHeight);
  const placed: Word[] = [];
  for (const line of lines) {
    for (const word of line.words) {
      const corners = [pointIn(line.quad, word.start, 0), pointIn(line.quad, word.end, 0), pointIn(line.quad, word.end, 1), pointIn(line.quad, word.start, 1)].map(toPage);
      const bbox = clampBox(boundingBox(corners), frame.width, frame.height);
      if (bbox.x1 <= bbox.x0 || bbox.y1 <= bbox.y0) continue;
      const unit = (p: number) => Math.max(0, Math.min(1, p));
      placed.push({ text: word.text, bbox, confidence: unit(word.confidence), weakest: unit(word.weakest), source: 'ocr' });
    }
  }
  return placed;
}
