import { expect } from 'chai';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type OcrConfig } from '../../../src/config.js';
import { chooseOcrEngine, createOcrEngine, filesForLanguages, workersFor } from '../../../src/ingest/ocr-choice.js';
import { bundledModelFiles } from '../../../src/ingest/ocr/paddle/bundled-models.js';

function ocrConfig(env: Record<string, string>): OcrConfig {
  return { ...loadConfig(env).ocr, workers: 1, threads: 1 };
}

describe('OCR engine choice', function () {
  this.timeout(60_000);

  it('auto picks paddle with the default PP-OCRv6 models for English, saying why', async () => {
    const choice = await chooseOcrEngine(ocrConfig({}));
    expect(choice.name).to.equal('paddle');
    expect(choice.reason).to.match(/OCR_ENGINE=auto/).and.include('eng').and.include('(ppocrv6)');
  });

  const EUROPEAN = ['deu', 'fra', 'spa', 'ita', 'nld', 'por', 'pol', 'ces', 'eng,deu,fra', 'dan,swe,fin,nor', 'hun,hrv,slv,slk,ron', 'lit,lav,est,isl,tur', 'cat,glg,eus,gle,cym,mlt,sqi,afr'];

  it('auto picks paddle with no setting but OCR_LANGS for the European languages the default recogniser writes', async () => {
    for (const langs of EUROPEAN) {
      const choice = await chooseOcrEngine(ocrConfig({ OCR_LANGS: langs }));
      expect(choice, langs).to.deep.include({ name: 'paddle' });
      expect(choice.reason).to.include('(ppocrv6)').and.include(`OCR_LANGS=${langs}`);
    }
  });

  it('auto picks paddle for them with each PP-OCRv6 set, naming its models', async () => {
    for (const set of ['ppocrv6-small', 'ppocrv6-tiny']) {
      // Romanian's comma-below ș ț are not in tiny's dictionary (checked below).
      for (const langs of EUROPEAN.filter((list) => set === 'ppocrv6-small' || !list.includes('ron'))) {
        const choice = await chooseOcrEngine(ocrConfig({ OCR_LANGS: langs, OCR_PADDLE_MODELS: set }));
        expect(choice, `${set} ${langs}`).to.deep.include({ name: 'paddle' });
        expect(choice.reason).to.include(set).and.include(`OCR_LANGS=${langs}`);
      }
    }
  });

  it('auto picks tesseract for a language the recogniser cannot write, naming the missing letters', async () => {
    const german = await chooseOcrEngine(ocrConfig({ OCR_LANGS: 'eng,deu', OCR_PADDLE_MODELS: 'ppocrv4' }));
    expect(german.name).to.equal('tesseract');
    expect(german.reason).to.include('ppocrv4').and.include('deu').and.include('ö').and.include('ß');
    expect((await chooseOcrEngine(ocrConfig({ OCR_LANGS: 'fra', OCR_PADDLE_MODELS: 'ppocrv4' }))).reason).to.include('fra (lacks');
    const vietnamese = await chooseOcrEngine(ocrConfig({ OCR_LANGS: 'vie' }));
    expect(vietnamese.name).to.equal('tesseract');
    expect(vietnamese.reason).to.include('vie (lacks');
    const unknown = await chooseOcrEngine(ocrConfig({ OCR_LANGS: 'xyz' }));
    expect(unknown).to.deep.include({ name: 'tesseract' });
    expect(unknown.reason).to.include('xyz');
  });

  it('checks each model set by its own dictionary: Japanese is in PP-OCRv6 small (and the default), not in tiny', async () => {
    expect((await chooseOcrEngine(ocrConfig({ OCR_LANGS: 'jpn' }))).name).to.equal('paddle');
    expect((await chooseOcrEngine(ocrConfig({ OCR_LANGS: 'jpn', OCR_PADDLE_MODELS: 'ppocrv6-small' }))).name).to.equal('paddle');
    const tiny = await chooseOcrEngine(ocrConfig({ OCR_LANGS: 'jpn', OCR_PADDLE_MODELS: 'ppocrv6-tiny' }));
    expect(tiny.name).to.equal('tesseract');
    expect(tiny.reason).to.include('ppocrv6-tiny').and.include('jpn (lacks');
    expect((await chooseOcrEngine(ocrConfig({ OCR_LANGS: 'chi_sim', OCR_PADDLE_MODELS: 'ppocrv4' }))).name).to.equal('paddle');
    // Romanian's comma-below ș ț: small writes them, tiny only the cedilla forms ş ţ.
    expect((await chooseOcrEngine(ocrConfig({ OCR_LANGS: 'ron', OCR_PADDLE_MODELS: 'ppocrv6-small' }))).name).to.equal('paddle');
    expect((await chooseOcrEngine(ocrConfig({ OCR_LANGS: 'ron', OCR_PADDLE_MODELS: 'ppocrv6-tiny' }))).reason).to.include('ron (lacks ș ț Ș Ț)');
  });

  it("reads every line with the default's small recogniser when OCR_LANGS needs a letter its quick (tiny) recogniser lacks", async () => {
    for (const langs of ['eng', 'deu,fra', 'pol']) {
      expect((await chooseOcrEngine(ocrConfig({ OCR_LANGS: langs }))).reason, langs).not.to.include('quick recogniser');
    }
    for (const [langs, lacks] of [['ron', 'ron (lacks ș ț'], ['eng,jpn', 'jpn (lacks'], ['chi_tra', 'chi_tra (lacks']] as const) {
      const choice = await chooseOcrEngine(ocrConfig({ OCR_LANGS: langs }));
      expect(choice.name, langs).to.equal('paddle');
      expect(choice.reason, langs).to.include(`its quick recogniser cannot write ${lacks}`).and.include('the full recogniser reads every line');
    }
    // What the workers are given: the tiny recogniser for English, none for Romanian.
    const set = bundledModelFiles('ppocrv6');
    expect((await filesForLanguages({ langs: ['eng', 'deu'] }, set)).files.quickRecogniser).to.equal(set.quickRecogniser).and.match(/tiny/);
    const romanian = (await filesForLanguages({ langs: ['ron'] }, set)).files;
    expect(romanian.quickRecogniser).to.equal(undefined);
    expect(romanian.quickDictionary).to.equal(undefined);
    expect(romanian.recogniser).to.equal(set.recogniser);
  });

  it('obeys OCR_ENGINE=paddle and =tesseract whatever the languages', async () => {
    expect((await chooseOcrEngine(ocrConfig({ OCR_ENGINE: 'tesseract' }))).name).to.equal('tesseract');
    const paddle = await chooseOcrEngine(ocrConfig({ OCR_ENGINE: 'paddle', OCR_LANGS: 'deu', OCR_PADDLE_MODELS: 'ppocrv4' }));
    expect(paddle.name).to.equal('paddle');
    expect(paddle.reason).to.include('cannot write deu');
  });

  it('starts only the engine it chose', async () => {
    // Each engine's files point nowhere for the engine not chosen: touching them would fail the start.
    const tesseract = await createOcrEngine(ocrConfig({ OCR_ENGINE: 'tesseract', OCR_PADDLE_MODEL_DIR: '/nonexistent/paddle' }));
    try {
      expect(tesseract.engine.name).to.equal('tesseract');
      expect(tesseract.engine.status()).to.include({ engine: 'tesseract', ready: true, chosenBecause: 'OCR_ENGINE=tesseract' });
    } finally {
      await tesseract.engine.close();
    }
    const paddle = await createOcrEngine(ocrConfig({ OCR_LANG_PATH: '/nonexistent/tessdata' }));
    try {
      expect(paddle.engine.name).to.equal('paddle');
      expect(paddle.engine.status().chosenBecause).to.match(/OCR_ENGINE=auto/);
    } finally {
      await paddle.engine.close();
    }
  });
});

describe('OCR workers and threads', () => {
  it('default to a worker per core for tesseract and a worker per two cores, sharing the cores, for paddle', () => {
    expect(workersFor('tesseract', { workers: undefined, threads: undefined }, 8)).to.deep.equal({ workers: 8, threads: 1 });
    expect(workersFor('paddle', { workers: undefined, threads: undefined }, 2)).to.deep.equal({ workers: 1, threads: 2 });
    expect(workersFor('paddle', { workers: undefined, threads: undefined }, 8)).to.deep.equal({ workers: 4, threads: 2 });
    expect(workersFor('paddle', { workers: undefined, threads: undefined }, 1)).to.deep.equal({ workers: 1, threads: 1 });
  });

  it('follow OCR_WORKERS and OCR_THREADS when set', () => {
    expect(workersFor('paddle', { workers: 3, threads: undefined }, 6)).to.deep.equal({ workers: 3, threads: 2 });
    expect(workersFor('paddle', { workers: 2, threads: 4 }, 2)).to.deep.equal({ workers: 2, threads: 4 });
    expect(workersFor('tesseract', { workers: 3, threads: 4 }, 8)).to.deep.equal({ workers: 3, threads: 1 });
    expect(loadConfig({}).ocr).to.include({ workers: undefined, threads: undefined });
  });

  it('take the PP-OCR models from OCR_PADDLE_MODELS, PP-OCRv6 (tiny detector, small recogniser) when unset, and refuse a set docshape does not ship', () => {
    expect(loadConfig({}).ocr.paddleModels).to.equal('ppocrv6');
    const files = bundledModelFiles('ppocrv6');
    expect([files.detector, files.recogniser, files.dictionary].map((path) => path.split('models/ocr/')[1])).to.deep.equal(['ppocrv6/tiny/det/det.onnx', 'rewritten/ppocrv6-small-rec.onnx', 'ppocrv6/ppocrv6_dict.txt']);
    expect(loadConfig({ OCR_PADDLE_MODELS: 'PPOCRv4' }).ocr.paddleModels).to.equal('ppocrv4');
    expect(loadConfig({ OCR_PADDLE_MODELS: 'ppocrv6-tiny' }).ocr.paddleModels).to.equal('ppocrv6-tiny');
    expect(() => loadConfig({ OCR_PADDLE_MODELS: 'ppocrv5' })).to.throw(/OCR_PADDLE_MODELS must be one of "ppocrv6", "ppocrv6-small", "ppocrv6-tiny", "ppocrv4"/);
  });

  it('take the PP-OCR detector budget from OCR_DETECTOR_PIXELS, the engine default when unset, and refuse an absurd one', () => {
    expect(loadConfig({}).ocr.paddleDetectorPixels).to.equal(undefined);
    expect(loadConfig({ OCR_DETECTOR_PIXELS: '500000' }).ocr.paddleDetectorPixels).to.equal(500_000);
    expect(() => loadConfig({ OCR_DETECTOR_PIXELS: '50' })).to.throw(/OCR_DETECTOR_PIXELS must be an integer between 100000 and 20000000/);
  });
});
