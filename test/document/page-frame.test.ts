import { expect } from 'chai';
import type { Affine } from '../../src/document/document.js';
import { compose, IDENTITY, isIdentity, transformBox, undoQuarterTurn, undoTurnAboutCentre } from '../../src/document/page-frame.js';
import { rotateRaster } from '../../src/ingest/ocr/rotate-raster.js';
import type { GreyRaster } from '../../src/document/raster.js';

function apply(transform: Affine, x: number, y: number): [number, number] {
  const [a, b, c, d, e, f] = transform;
  return [a * x + c * y + e, b * x + d * y + f];
}

describe('page frames', () => {
  // 3 wide, 2 tall, every pixel its own value
  const raster: GreyRaster = { width: 3, height: 2, data: Uint8Array.from([1, 2, 3, 4, 5, 6]), dpi: 300 };

  for (const degrees of [90, 270] as const) {
    it(`undoes rotateRaster's quarter turn by ${degrees} degrees, pixel for pixel`, () => {
      const turned = rotateRaster(raster, degrees);
      const back = undoQuarterTurn(degrees, raster.width, raster.height);
      for (let y = 0; y < turned.height; y++) {
        for (let x = 0; x < turned.width; x++) {
          // the centre of a turned pixel lands on the centre of the pixel it came from
          const [ox, oy] = apply(back, x + 0.5, y + 0.5);
          expect(raster.data[Math.floor(oy) * raster.width + Math.floor(ox)], `(${x}, ${y})`).to.equal(turned.data[y * turned.width + x]);
        }
      }
    });
  }

  it('undoes a turn about the centre: the centre stays, a point turned clockwise comes back', () => {
    const back = undoTurnAboutCentre(Math.PI / 2, 100, 100);
    expect(apply(back, 50, 50).map((v) => Math.round(v))).to.deep.equal([50, 50]);
    // the top middle turned clockwise by 90 degrees lies at the right middle; back it goes
    expect(apply(back, 100, 50).map((v) => Math.round(v))).to.deep.equal([50, 0]);
  });

  it('composes in order and boxes the corners', () => {
    const turn = undoQuarterTurn(90, 40, 20);
    expect(isIdentity(compose(undoQuarterTurn(270, 20, 40), turn))).to.equal(true);
    expect(isIdentity(IDENTITY)).to.equal(true);
    expect(transformBox({ x0: 1, y0: 2, x1: 5, y1: 4 }, turn)).to.deep.equal({ x0: 2, y0: 15, x1: 4, y1: 19 });
  });
});
