/**
 * A paddle OCR thread (engine.ts's pool): loads the models once, reads a
 * warm-up page, says "ready" (or why it could not start), then reads pages
 * one at a time. A page the engine gave up stops at its next model call.
 */
import { collectGarbage } from '../../../util/collect-garbage.js';
import { poolThreadData, serveTasks } from '../../../threads/serve-tasks.js';
import { WARM_UP_RASTER } from '../warm-up.js';
import { ModelFileError, type PaddleModelFiles } from './model-files.js';
import { readPage, type PaddleModels } from './read-page.js';
import { loadModels } from './sessions.js';
import type { PaddleTask } from './protocol.js';

export interface PaddleWorkerData {
  files: PaddleModelFiles;
  threads: number;
  maxDetectorPixels: number;
}

const data = poolThreadData<PaddleWorkerData>();
let loaded: { models: PaddleModels; release(): Promise<void> } | undefined;

async function start(settings: PaddleWorkerData): Promise<void> {
  loaded = await loadModels(settings.files, settings.threads);
  const warm = await readPage(loaded.models, WARM_UP_RASTER, { allowTurn: true, maxDetectorPixels: settings.maxDetectorPixels, checkpoint() {} });
  if (warm.words.length === 0) throw new ModelFileError(`the PP-OCR models (${settings.files.detector}, ${settings.files.recogniser}) read no text on the warm-up page: are they a detector and a recogniser of PP-OCR?`);
  // The model files and their rewritten bytes (tens of MB, the joint recognisers' more) are garbage now:
  // freed here rather than whenever V8 gets to them, they no longer add to the service's peak.
  collectGarbage();
}

if (data) {
  serveTasks<PaddleTask>({
    start: () => start(data),
    run: ({ raster, allowTurn }, control) => readPage(loaded!.models, raster, { allowTurn, maxDetectorPixels: data.maxDetectorPixels, checkpoint: control.checkpoint }),
    // releasing the sessions before the thread ends: terminating a thread that holds them can abort the process
    stop: () => loaded?.release(),
    // a model file that cannot be used fails the same way every time
    permanent: (error) => error instanceof ModelFileError,
  });
}
