import { expect } from 'chai';
import { alphabetFor, columnClasses, decodeColumns, words, type Alphabet } from '../../../src/ingest/ocr/paddle/ctc.js';
import { detectBoxes } from '../../../src/ingest/ocr/paddle/detect-boxes.js';
import { convexHull, minAreaRect, quadHeight, quadWidth, readingAngle, turnHalf, turnQuarter, type Point, type Quad } from '../../../src/ingest/ocr/paddle/geometry.js';
import { frameToInput, pageFrame, placeWords, pointToPage, turnPoint, type PageFrame } from '../../../src/ingest/ocr/paddle/upright-words.js';
import { detectorSize, stripWidth } from '../../../src/ingest/ocr/paddle/read-page.js';
import { detectorInput } from '../../../src/ingest/ocr/paddle/tensors.js';

/** A probability map with 0.9 inside each given rotated rectangle and 0.05 elsewhere. */
function probabilityMap(width: number, height: number, rects: { cx: number; cy: number; length: number; breadth: number; degrees: number }[]): Float32Array {
  const map = new Float32Array(width * height).fill(0.05);
  for (const rect of rects) {
    const radians = (rect.degrees * Math.PI) / 180;
    const ux = Math.cos(radians);
    const uy = Math.sin(radians);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const dx = x - rect.cx;
        const dy = y - rect.cy;
        if (Math.abs(dx * ux + dy * uy) <= rect.length / 2 && Math.abs(-dx * uy + dy * ux) <= rect.breadth / 2) map[y * width + x] = 0.9;
      }
    }
  }
  return map;
}

const centreOf = (quad: Quad): Point => ({ x: quad.reduce((s, p) => s + p.x, 0) / 4, y: quad.reduce((s, p) => s + p.y, 0) / 4 });

describe('paddle OCR: geometry', () => {
  it('finds the least-area rectangle of a tilted rectangle', () => {
    const corners: Point[] = [
      { x: 0, y: 0 },
      { x: 40, y: 30 },
      { x: 34, y: 38 },
      { x: -6, y: 8 },
    ];
    const inside: Point[] = [{ x: 17, y: 19 }, { x: 10, y: 10 }];
    const rect = minAreaRect(convexHull([...corners, ...inside]));
    expect(rect.length * rect.breadth).to.be.closeTo(50 * 10, 1e-6);
    expect(Math.max(rect.length, rect.breadth)).to.be.closeTo(50, 1e-6);
  });

  it('turns a quad a quarter and a half by re-listing its corners', () => {
    const quad: Quad = [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 20 }, { x: 0, y: 20 }];
    expect(readingAngle(quad)).to.equal(0);
    expect(readingAngle(turnHalf(quad))).to.equal(180);
    expect(readingAngle(turnQuarter(quad))).to.equal(90);
    expect(quadWidth(turnQuarter(quad))).to.equal(20);
    expect(quadHeight(turnQuarter(quad))).to.equal(100);
  });
});

describe('paddle OCR: DB boxes', () => {
  it('boxes each text region, grown back by the unclip margin, tilted lines as tilted quads', () => {
    const map = probabilityMap(200, 120, [
      { cx: 60, cy: 30, length: 80, breadth: 12, degrees: 0 },
      { cx: 120, cy: 85, length: 120, breadth: 14, degrees: 10 },
    ]);
    const boxes = detectBoxes(map, 200, 120);
    expect(boxes).to.have.length(2);
    const [flat, tilted] = boxes as [{ quad: Quad; score: number }, { quad: Quad; score: number }];
    expect(flat.score).to.be.within(0.75, 0.9);
    expect(centreOf(flat.quad).x).to.be.closeTo(60, 1.5);
    expect(centreOf(flat.quad).y).to.be.closeTo(30, 1.5);
    // Grown by area * 1.5 / perimeter on each side: the box is taller and longer than the region.
    expect(quadHeight(flat.quad)).to.be.greaterThan(12 + 10);
    expect(quadWidth(flat.quad)).to.be.greaterThan(80 + 10);
    expect(readingAngle(tilted.quad)).to.be.closeTo(10, 1.5);
    expect(centreOf(tilted.quad).x).to.be.closeTo(120, 2);
  });

  it('drops weak regions and specks', () => {
    const map = probabilityMap(100, 60, [{ cx: 50, cy: 30, length: 60, breadth: 10, degrees: 0 }]);
    for (let i = 0; i < map.length; i++) if ((map[i] as number) > 0.5) map[i] = 0.4;
    map[5 * 100 + 5] = 0.99;
    expect(detectBoxes(map, 100, 60)).to.deep.equal([]);
  });
});

describe('paddle OCR: CTC columns to words', () => {
  // Classes: 0 blank, 1 'A', 2 'B', 3 '1', 4 '.', 5 space.
  const alphabet = alphabetFor(['A', 'B', '1', '.'], 6) as Alphabet;

  function output(columns: number[], probability = 0.9): Float32Array {
    const data = new Float32Array(columns.length * 6);
    columns.forEach((cls, t) => {
      for (let c = 0; c < 6; c++) data[t * 6 + c] = c === cls ? probability : (1 - probability) / 5;
    });
    return data;
  }

  it('knows whether the model writes spaces from its class count', () => {
    expect(alphabetFor(['A', 'B'], 4)?.space).to.equal(3);
    expect(alphabetFor(['A', 'B'], 3)?.space).to.equal(-1);
    expect(alphabetFor(['A', 'B'], 7)).to.equal(undefined);
  });

  it('merges repeats, drops blanks, keeps a doubled letter split by a blank', () => {
    const chars = decodeColumns(columnClasses(output([1, 1, 0, 1, 2, 2, 0]), 1, 7, 6), 0, alphabet);
    expect(chars.map((c) => c.text).join('')).to.equal('AAB');
    expect(chars.map((c) => c.centre)).to.deep.equal([1, 3.5, 5]);
  });

  it('splits words at the space class and at wide gaps, with extents from their columns', () => {
    // "AB" at columns 2-5, space at 7, "1.1" at 9-14, then after a gap of 9 columns "B" at 24.
    const columns = [0, 0, 1, 0, 0, 2, 0, 5, 0, 3, 0, 4, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0];
    const chars = decodeColumns(columnClasses(output(columns), 1, columns.length, 6), 0, alphabet);
    const found = words(chars, columns.length);
    expect(found.map((w) => w.text)).to.deep.equal(['AB', '1.1', 'B']);
    for (const word of found) expect(word.confidence).to.be.closeTo(0.9, 1e-6);
    const [ab, number, b] = found as [(typeof found)[0], (typeof found)[0], (typeof found)[0]];
    expect(ab.start * 30).to.be.within(1, 2.5);
    expect(ab.end * 30).to.be.within(6, 7.5);
    expect(number.start).to.be.greaterThan(ab.end);
    expect(b.start).to.be.greaterThan(number.end);
    expect(b.start * 30).to.be.within(22, 24.5);
  });

  it('reads a gap leaning to the space class as a space, but not inside a number', () => {
    // Classes: 0 blank, 1 'A', 2 '1', 3 '-', 4 '（', 5 space.
    const symbols = alphabetFor(['A', '1', '-', '（'], 6) as Alphabet;
    const columns = [1, 0, 1, 0, 2, 0, 3, 0, 2, 0, 4];
    const data = output(columns);
    // The gaps after "AA" and after "1-" lean 0.2 to the space; the blank still wins both.
    for (const t of [3, 7]) {
      data[t * 6] = 0.75;
      data[t * 6 + 5] = 0.2;
    }
    const text = decodeColumns(columnClasses(data, 1, columns.length, 6), 0, symbols).map((c) => c.text).join('');
    expect(text).to.equal('AA 1-1(');
  });

  it('gives each word the mean probability of its characters, and its weakest character', () => {
    const data = output([1, 0, 2, 0, 5, 0, 3]);
    data[2 * 6 + 2] = 0.5;
    const found = words(decodeColumns(columnClasses(data, 1, 7, 6), 0, alphabet), 7);
    expect(found[0]?.confidence).to.be.closeTo(0.7, 1e-6);
    expect(found[0]?.weakest).to.be.closeTo(0.5, 1e-6);
    expect(found[1]?.confidence).to.be.closeTo(0.9, 1e-6);
    expect(found[1]?.weakest).to.be.closeTo(0.9, 1e-6);
  });
});

describe('paddle OCR: page frame', () => {
  const line = (x0: number, y0: number, x1: number, y1: number): Quad => [{ x: x0, y: y0 }, { x: x1, y: y0 }, { x: x1, y: y1 }, { x: x0, y: y1 }];

  it('turns an upside-down page and its word boxes upright', () => {
    const upright = [line(10, 10, 190, 30), line(10, 50, 120, 70)];
    // The page turned by 180 degrees: every corner mirrored through the centre, so each line now reads right to left.
    const upsideDown = upright.map((quad) => quad.map((p) => ({ x: 200 - p.x, y: 100 - p.y })) as Quad);
    const frame = pageFrame(upsideDown, 200, 100, true);
    expect(frame).to.include({ turn: 180, width: 200, height: 100, deskewed: false });
    const placed = placeWords(upsideDown.map((quad) => ({ quad, words: [{ text: 'W', start: 0, end: 0.5, confidence: 0.8, weakest: 0.8 }] })), frame, 200, 100);
    expect(placed[0]?.bbox).to.deep.include({ x0: 10, y0: 10, x1: 100, y1: 30 });
    expect(placed[1]?.bbox.y0).to.equal(50);
  });

  it('turns a page whose text runs bottom to top a quarter, swapping width and height', () => {
    const quads = [line(10, 10, 190, 30), line(10, 50, 190, 70)].map((quad) => quad.map((p) => turnPoint(p, 270, 200, 100)) as Quad);
    const frame = pageFrame(quads, 100, 200, true);
    expect(frame).to.include({ turn: 90, width: 200, height: 100 });
    const placed = placeWords([{ quad: quads[0] as Quad, words: [{ text: 'W', start: 0, end: 1, confidence: 1, weakest: 1 }] }], frame, 100, 200);
    const box = placed[0]?.bbox;
    expect(box?.x0).to.be.closeTo(10, 1e-9);
    expect(box?.y0).to.be.closeTo(10, 1e-9);
    expect(box?.x1).to.be.closeTo(190, 1e-9);
  });

  it('maps page-frame points back onto the raster as given, for every turn with and without straightening', () => {
    for (const turn of [0, 90, 180, 270] as const) {
      for (const skewDegrees of [0, 3.5, -6]) {
        const quarter = turn === 90 || turn === 270;
        const frame: PageFrame = { turn, skewDegrees, deskewed: skewDegrees !== 0, width: quarter ? 100 : 200, height: quarter ? 200 : 100 };
        const [a, b, c, d, e, f] = frameToInput(frame, 200, 100);
        for (const point of [{ x: 0, y: 0 }, { x: 37, y: 81 }, { x: 200, y: 100 }, { x: 150, y: 5 }]) {
          const onPage = pointToPage(point, frame, 200, 100);
          expect(a * onPage.x + c * onPage.y + e, `x of ${JSON.stringify(point)}, turn ${turn}, skew ${skewDegrees}`).to.be.closeTo(point.x, 1e-9);
          expect(b * onPage.x + d * onPage.y + f, `y of ${JSON.stringify(point)}, turn ${turn}, skew ${skewDegrees}`).to.be.closeTo(point.y, 1e-9);
        }
      }
    }
  });

  it('leaves the page as it is with OCR_ROTATION=off', () => {
    const upsideDown = [turnHalf(line(10, 10, 190, 30))];
    expect(pageFrame(upsideDown, 200, 100, false).turn).to.equal(0);
  });

  it('straightens a skewed page so a row of words shares one band', () => {
    const radians = (4 * Math.PI) / 180;
    const tilt = (p: Point): Point => ({ x: 100 + (p.x - 100) * Math.cos(radians) - (p.y - 50) * Math.sin(radians), y: 50 + (p.x - 100) * Math.sin(radians) + (p.y - 50) * Math.cos(radians) });
    const quad = line(10, 40, 190, 60).map(tilt) as Quad;
    const frame = pageFrame([quad], 200, 100, true);
    expect(frame.skewDegrees).to.be.closeTo(4, 0.01);
    expect(frame.deskewed).to.equal(true);
    const placed = placeWords([{ quad, words: [{ text: 'TOTAL', start: 0, end: 0.3, confidence: 1, weakest: 1 }, { text: '6.25', start: 0.8, end: 1, confidence: 1, weakest: 1 }] }], frame, 200, 100);
    expect(placed[0]?.bbox.y0).to.be.closeTo(placed[1]?.bbox.y0 as number, 1e-6);
  });
});

describe('paddle OCR: detector input size', () => {
  it('keeps a small page at its size (multiples of 32) and shrinks a large scan to the pixel budget', () => {
    expect(detectorSize(560, 416, 1_300_000)).to.deep.equal({ width: 576, height: 416 });
    const large = detectorSize(4961, 7016, 1_300_000);
    expect(large.width % 32).to.equal(0);
    expect(large.height % 32).to.equal(0);
    expect(large.width * large.height).to.be.at.most(1_300_000 * 1.1);
    expect(large.width / large.height).to.be.closeTo(4961 / 7016, 0.03);
  });

  it('keeps a strip a few pixels thin within the budget too (a 12,000,000 x 3 raster made the detector read 53 MP)', () => {
    for (const [width, height] of [[12_000_000, 3], [3, 12_000_000], [100_000, 1]] as const) {
      const size = detectorSize(width, height, 700_000);
      expect(size.width * size.height, `${width}x${height}`).to.be.at.most(700_000);
      expect(Math.min(size.width, size.height)).to.equal(32);
    }
  });

  it('reads a line at most 9600 columns wide at 48 px: a box 1,000,000 px long and 10 tall is squeezed, not given 4.8 million columns', () => {
    const quad = (width: number, height: number) => [{ x: 0, y: 0 }, { x: width, y: 0 }, { x: width, y: height }, { x: 0, y: height }] as const;
    expect(stripWidth([...quad(1_000_000, 10)] as Parameters<typeof stripWidth>[0], 48)).to.equal(9600);
    expect(stripWidth([...quad(400, 40)] as Parameters<typeof stripWidth>[0], 48)).to.equal(480);
  });

  it('gives each detector pixel the mean of the page pixels it covers, 5 x 3 shrunk to 2 x 1 (columns 0-1 and 2-4, all rows)', () => {
    // Output x covers columns floor(2.5x) to floor(2.5x + 2.5) - 1.
    const data = Uint8Array.from([10, 20, 30, 40, 250, 30, 40, 50, 60, 250, 50, 60, 70, 80, 250]);
    const input = detectorInput({ width: 5, height: 3, data, dpi: 72 }, 2, 1);
    const expected = [Math.round((10 + 20 + 30 + 40 + 50 + 60) / 6), Math.round((30 + 40 + 250 + 50 + 60 + 250 + 70 + 80 + 250) / 9)];
    // First plane: ImageNet red statistics, scale 1/255.
    expected.forEach((grey, i) => expect(input.data[i]).to.be.closeTo((grey / 255 - 0.485) / 0.229, 1e-5));
    expect(input.data.length).to.equal(3 * 2);
  });
});
