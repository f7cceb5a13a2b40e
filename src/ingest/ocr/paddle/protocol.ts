/** Messages between the paddle engine (main thread) and its worker threads. */
import type { GreyRaster } from '../../../document/raster.js';
import type { PaddleReading } from './read-page.js';

export type ToWorker = { type: 'read'; id: number; raster: GreyRaster; allowTurn: boolean } | { type: 'close' };

export type FromWorker =
  | { type: 'ready' }
  /** modelProblem: a model file cannot be used (retrying will not help). */
  | { type: 'failed'; message: string; modelProblem: boolean }
  | { type: 'done'; id: number; reading: PaddleReading }
  | { type: 'abandoned'; id: number }
  | { type: 'error'; id: number; message: string };
