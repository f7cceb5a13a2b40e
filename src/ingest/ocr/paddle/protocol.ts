/** What the paddle engine (main thread) hands its threads (worker.ts): a page and whether it may be turned. */
import type { GreyRaster } from '../../../document/raster.js';

export interface PaddleTask {
  raster: GreyRaster;
  allowTurn: boolean;
}
