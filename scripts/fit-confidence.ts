/**
 * Fits the per-value confidence (src/evidence/confidence.ts) on labelled
 * documents: reads the calibration samples of `npm run eval` reports (each
 * value the service returned, its features, and whether the strict match
 * found it right), fits one penalised logistic regression per kind of value,
 * and prints the calibration it reaches on every dataset: in-sample,
 * cross-validated (each document's values predicted by a model fitted
 * without that document: documents not seen, of a kind seen), with each
 * group of documents left out of the fit in turn (groups.ts: one producer,
 * layout family or invoice in several profiles: producers and layouts not
 * seen) and with the dataset left out of the fit (a document type not seen,
 * as the held-out sets are).
 * With --write it replaces src/evidence/confidence-model.ts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { featureVector, FEATURE_NAMES, type ConfidenceModel, type KindModel } from '../src/evidence/confidence.js';
import { CONFIDENCE_MODEL } from '../src/evidence/confidence-model.js';
import { OCR_ENGINE_NAMES, type OcrEngineName } from '../src/document/document.js';
import { VALUE_KINDS, type ValueKind } from '../src/evidence/features.js';
import { ACCEPT_AT, summariseCalibration, type CalibrationSample } from './eval/calibration.js';
import { fitPooledLogistic, predict, type PooledOptions } from './eval/logistic.js';
import { calibrationLine, formatTable, reliabilityTable, type EvalReport } from './eval/report.js';
import { groupsOfDatasetDir, unitsSharingDocuments } from './eval/groups.js';

const USAGE = `Usage: npm run fit-confidence -- [--write] [--note TEXT] [--folds N] [--l2 X] [--pooling X] [--errors] <report.json>...

Fits the confidence model on the calibration samples of eval reports made
with the local pipeline (npm run eval -- --reuse-ingest DIR <datasets>),
prints in-sample, cross-validated, leave-one-group-out and
leave-one-dataset-out calibration per dataset (and per variant of a dataset
that has them), and per group of documents (one producer, source file family
or invoice in several profiles: the eval records each document's group, or
it is read from the dataset folder the report names), and with --write
replaces src/evidence/confidence-model.ts. The model written is the one
fitted on every report given.
  --note TEXT what the reports are (e.g. which OCR read the documents), kept
              in the model file beside the datasets
  --folds N   cross-validation folds, documents kept together (default 5)
  --l2 X      penalty on the weights (default 2)
  --pooling X how far each kind of value may depart from the weights all
              kinds share (default 0.5; 0 shares them all). The defaults were
              chosen by the mean ECE with each dev set left out of the fit
              in turn, among l2 0.25-2 and pooling 0-1.5 (last with the sign
              of negative amounts apart: 0.090, against 0.107 for l2 1,
              pooling 1)
  --errors    also list the values wrong at confidence >= 0.9 when
              cross-validated, with their features

Several reports may read the same documents differently (e.g. with each OCR
engine); they are fitted together and reported apart.`;

interface Sample extends CalibrationSample {
  dataset: string;
  /** The variant of its dataset the document is (eu-invoices: born-digital or scanned), when the dataset names them. */
  variant?: string;
  kind: ValueKind;
  inputs: number[];
  /** The OCR engine that read it; undefined for a text layer, whose values every engine's set is fitted with. */
  engine: OcrEngineName | undefined;
  /** A negative amount (ValueFeatures.negative): scored with the sign's factor, not fitted by the kind models. */
  negative: boolean;
  /** The document's group (groups.ts), left out of the fit together; one per document where the dataset has none. */
  group: string;
}

type KindModels = Record<ValueKind, KindModel>;

/** The kind models and the factor for a negative amount's sign (ConfidenceModel.negativeSign). */
interface Models {
  kinds: KindModels;
  negativeSign: number;
}

/** FNV-1a: a fixed, even spread of documents over folds. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * One logistic regression for every kind of value (fitPooledLogistic):
 * weights every kind shares, a level per kind, and each kind's departure
 * from the shared weights, penalised by l2 / pooling². Kinds with
 * few values (the dev sets hold 9 plain texts and 92 codes) borrow what the
 * others show, instead of fitting their few documents: with the datasets
 * left out of the fit in turn, the mean ECE fell from 0.154 (each kind
 * alone) to 0.112 (pooling 1), and to 0.090 (l2 2, pooling 0.5) once a
 * negative amount's sign was counted apart (signRate).
 */
function fitAll(samples: readonly Sample[], fit: FitSettings): Models {
  // a negative amount is right when its reading is and its sign is the caller's: the kind models learn the first from
  // the other values, the rate of the second is counted apart (a wrong sign would teach them that sums and labels mislead)
  const unsigned = samples.filter((s) => !s.negative);
  const fitted = fitPooledLogistic(
    unsigned.map((s) => s.inputs),
    unsigned.map((s) => VALUE_KINDS.indexOf(s.kind)),
    VALUE_KINDS.length,
    unsigned.map((s) => (s.correct ? 1 : 0)),
    fit,
  );
  return { kinds: Object.fromEntries(VALUE_KINDS.map((kind, k) => [kind, fitted[k]!])) as KindModels, negativeSign: signRate(samples) };
}

/**
 * How often a negative amount is right, by the rule of succession ((right + 1) / (negatives + 2)): the dev sets hold
 * a score of them, so the count is smoothed towards "either convention" rather than trusted. A negative amount
 * wrong for another reason counts against the sign too, which errs on the side of doubt.
 */
function signRate(samples: readonly Sample[]): number {
  const negatives = samples.filter((s) => s.negative);
  return (negatives.filter((s) => s.correct).length + 1) / (negatives.length + 2);
}

type FitSettings = PooledOptions;

function scored(samples: readonly Sample[], models: Models): Sample[] {
  return samples.map((s) => ({ ...s, confidence: predict(models.kinds[s.kind], s.inputs) * (s.negative ? models.negativeSign : 1) }));
}

function crossValidated(samples: readonly Sample[], folds: number, fit: FitSettings, engine: OcrEngineName, scoredBy: (sample: Sample) => OcrEngineName): Sample[] {
  // a document's values stay in one fold, whichever report or variant they came from
  const documentOf = sameDocument(samples);
  const foldOf = (s: Sample) => hash(`${baseName(s)}/${documentOf(s)}`) % folds;
  const out: Sample[] = [];
  for (let fold = 0; fold < folds; fold++) {
    const models = fitAll(forEngine(samples.filter((s) => foldOf(s) !== fold), engine), fit);
    out.push(...scored(samples.filter((s) => foldOf(s) === fold && scoredBy(s) === engine), models));
  }
  return out;
}

/**
 * The document a sample's values come from, whichever variant of it was read: a dataset of variants names a
 * variant of document "d" "d_<variant>" (eu-invoices: "eu_e340194b514e" and "eu_e340194b514e_scan"). Without
 * this, cross-validation would fit on a born-digital invoice and score its scan: the same totals, the same labels.
 */
function sameDocument(samples: readonly Sample[]): (sample: Sample) => string {
  const ids = new Map<string, Set<string>>();
  for (const s of samples) ids.set(baseName(s), (ids.get(baseName(s)) ?? new Set()).add(s.id));
  return (sample) => {
    const own = ids.get(baseName(sample))!;
    for (let cut = sample.id.lastIndexOf('_'); cut > 0; cut = sample.id.lastIndexOf('_', cut - 1)) {
      if (own.has(sample.id.slice(0, cut))) return sample.id.slice(0, cut);
    }
    return sample.id;
  };
}

/** Each dataset's values predicted by models fitted on the other datasets only: how the model does on a document type it never saw. */
function leftOut(samples: readonly Sample[], fit: FitSettings, engine: OcrEngineName, scoredBy: (sample: Sample) => OcrEngineName): Sample[] {
  const out: Sample[] = [];
  for (const dataset of new Set(samples.map(baseName))) {
    const models = fitAll(forEngine(samples.filter((s) => baseName(s) !== dataset), engine), fit);
    out.push(...scored(samples.filter((s) => baseName(s) === dataset && scoredBy(s) === engine), models));
  }
  return out;
}

/**
 * Each group's values predicted by models fitted without the group: how the model does on a producer or layout it
 * never saw, of a document type it knows. Groups of two datasets that share a document (eu-invoices and
 * eu-invoice-lines read the same PDFs) are left out together.
 */
function groupsLeftOut(samples: readonly Sample[], fit: FitSettings, engine: OcrEngineName, scoredBy: (sample: Sample) => OcrEngineName): Sample[] {
  const unitOf = heldOutUnits(samples);
  const out: Sample[] = [];
  for (const unit of new Set(samples.map(unitOf))) {
    const held = samples.filter((s) => unitOf(s) === unit && scoredBy(s) === engine);
    if (held.length === 0) continue;
    const models = fitAll(forEngine(samples.filter((s) => unitOf(s) !== unit), engine), fit);
    out.push(...scored(held, models));
  }
  return out;
}

/** The unit a sample is left out with: its group, joined with every group that holds the same document in another dataset. */
function heldOutUnits(samples: readonly Sample[]): (sample: Sample) => string {
  const documentOf = sameDocument(samples);
  const groupKey = (s: Sample) => `${baseName(s)}/${s.group}`;
  const unitOf = unitsSharingDocuments(samples.map((s) => ({ group: groupKey(s), document: documentOf(s) })));
  return (sample) => unitOf(groupKey(sample));
}

/** A dataset's name whichever report read it. */
function baseName(sample: Sample): string {
  return sample.dataset.replace(/ \(\d+\)$/, '');
}

/** The samples an engine's set is fitted on: its own readings and the text layers'. */
function forEngine(samples: readonly Sample[], engine: OcrEngineName): Sample[] {
  return samples.filter((s) => s.engine === engine || s.engine === undefined);
}


function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** A set with `sameAs` has no readings of its own: it refers to that engine's weights instead of repeating them. */
function modelSource(sets: ReadonlyArray<{ engine: OcrEngineName; models: KindModels; fittedOn: string; sameAs?: OcrEngineName }>, negativeSign: { rate: number; fittedOn: string }): string {
  const kinds = (models: KindModels) => VALUE_KINDS.map((kind) => `        ${kind}: { intercept: ${round(models[kind].intercept)}, weights: [${models[kind].weights.map(round).join(', ')}] },`).join('\n');
  const quoted = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const constName = (engine: OcrEngineName) => `${engine.toUpperCase()}_KINDS`;
  const own = sets.filter((set) => !set.sameAs);
  const kindConsts = own.map(({ engine, models }) => `const ${constName(engine)} = {\n${kinds(models).replace(/^ {6}/gm, '')}\n};\n`).join('\n');
  const byOcr = sets.map(({ engine, fittedOn, sameAs }) => `    ${engine}: { fittedOn: ${quoted(fittedOn)}, kinds: ${constName(sameAs ?? engine)} },`).join('\n');
  return `/**
 * Generated by scripts/fit-confidence.ts from eval reports; do not edit by
 * hand. Refit after a change to an OCR engine, the features or an engine,
 * with a report per OCR engine (a set per engine), every dev set read from
 * its visible pages (an e-invoice's XML would make its values trivially
 * right):
 *   npm run eval -- --engine rules --e-invoice ignore --reuse-ingest .ingest-cache --out .eval <datasets>
 *   OCR_ENGINE=tesseract npm run eval -- --engine rules --e-invoice ignore --reuse-ingest .ingest-cache --out .eval-tesseract <datasets>
 *   npm run fit-confidence -- --write .eval/report.json .eval-tesseract/report.json
 * with <datasets> the dev sets sroie, wildreceipt, kleister-nda and eu-invoices.
 */

${kindConsts}
export const CONFIDENCE_MODEL = {
  features: [${FEATURE_NAMES.map((name) => `'${name}'`).join(', ')}],
  byOcr: {
${byOcr}
  },
  // ${negativeSign.fittedOn}
  negativeSign: ${round(negativeSign.rate)},
  combine: { fitted: false, modelPrior: { date: 0.7, time: 0.7, amount: 0.7, code: 0.7, name: 0.6, text: 0.4, address: 0.4, business: 0.6 }, coincidence: 0.3 },
};
`;
}

/**
 * Each document's group: recorded by the eval, or (older reports) worked out from the dataset folder the report
 * names, or else one group per document.
 */
async function groupsOfReport(dataset: EvalReport['datasets'][number]): Promise<{ groupOf: Map<string, string>; source: string; linkedBy: string[] }> {
  const recorded = new Map(dataset.details.flatMap((detail) => (detail.group === undefined ? [] : [[detail.id, detail.group] as const])));
  if (recorded.size > 0) return { groupOf: recorded, source: 'recorded by the eval', linkedBy: dataset.groups?.linkedBy ?? [] };
  const fromFolder = await groupsOfDatasetDir(dataset.dir);
  if (fromFolder) return { ...fromFolder, source: `from ${dataset.dir}` };
  return { groupOf: new Map(), source: 'none recorded and no dataset folder: one per document', linkedBy: [] };
}

/** A document's labelled values as calibrationSamples counts them: a labelled scalar is one, a list one per labelled item. */
function labelledValues(fields: EvalReport['datasets'][number]['details'][number]['fields']): number {
  return Object.values(fields).reduce((sum, field) => sum + (field.items ? 0 : field.set ? field.set.tp + field.set.fn : field.strict === undefined ? 0 : 1), 0);
}

const percentText = (value: number | null) => (value === null ? '-' : `${(value * 100).toFixed(1)}%`);

/** Per group of a dataset, largest first: documents, values, and the calibration with the group left out of the fit. */
function groupTable(dataset: string, heldOut: readonly Sample[], labelledByGroup: ReadonlyMap<string, number>, documentsByGroup: ReadonlyMap<string, number>, shown: number): string {
  const groups = [...documentsByGroup].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const row = (name: string, documents: number, members: readonly string[]) => {
    const summary = summariseCalibration(heldOut.filter((s) => s.dataset === dataset && members.includes(s.group)), members.reduce((sum, group) => sum + (labelledByGroup.get(group) ?? 0), 0));
    return [name, String(documents), String(summary.samples), String(summary.labelled), percentText(summary.precisionAtAccept), percentText(summary.coverageAtAccept)];
  };
  const rows = groups.slice(0, shown).map(([group, documents]) => row(group.length > 60 ? `${group.slice(0, 59)}…` : group, documents, [group]));
  const rest = groups.slice(shown);
  if (rest.length > 0) rows.push(row(`${rest.length} more groups of ${Math.max(...rest.map(([, documents]) => documents))} document(s) or fewer`, rest.reduce((sum, [, documents]) => sum + documents, 0), rest.map(([group]) => group)));
  return formatTable(['group', 'documents', 'values', 'labelled', 'P@0.9', 'cov@0.9'], rows, [false, true, true, true, true, true]);
}

function report(title: string, samples: readonly Sample[], labelled: number): string {
  const summary = summariseCalibration(samples, labelled);
  const table = reliabilityTable(summary);
  return [`-- ${title}`, calibrationLine(summary), formatTable(table.headers, table.rows, table.right), ''].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { write: { type: 'boolean' }, errors: { type: 'boolean' }, pooling: { type: 'string', default: '0.5' }, note: { type: 'string' }, folds: { type: 'string', default: '5' }, l2: { type: 'string', default: '2' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length === 0) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const folds = Number(values.folds);
  const l2 = Number(values.l2);
  if (!Number.isInteger(folds) || folds < 2) throw new Error('--folds must be an integer of at least 2');
  if (!(l2 >= 0)) throw new Error('--l2 must be a number >= 0');
  const pooling = Number(values.pooling);
  if (!(pooling >= 0)) throw new Error('--pooling must be a number >= 0');
  const fit: FitSettings = { l2, pooling };

  // Several reports may read the same documents (with two OCR engines, say): each reading is a sample,
  // but one seen twice with the same features (a PDF's text layer) counts once.
  const samples: Sample[] = [];
  const seen = new Set<string>();
  const labelled = new Map<string, number>();
  const engines = new Set<string>();
  // per dataset (as reported): how its groups were found, and each group's documents and labelled values
  const grouping = new Map<string, { source: string; linkedBy: string[]; documents: Map<string, number>; labelled: Map<string, number> }>();
  for (const [index, path] of positionals.entries()) {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as EvalReport;
    for (const dataset of parsed.datasets) {
      if (!dataset.calibration) continue;
      for (const engine of Object.keys(dataset.engines)) engines.add(engine);
      const name = positionals.length > 1 ? `${dataset.name} (${index + 1})` : dataset.name;
      const variantOf = new Map<string, string>();
      const variantsLabelled = new Map<string, number>();
      for (const variant of dataset.variants ?? []) {
        const label = variant.name.replace(`${dataset.name} `, '');
        for (const sample of variant.calibration?.sampleList ?? []) variantOf.set(sample.id, label);
        if (variant.calibration) variantsLabelled.set(`${name} ${label}`, variant.calibration.labelled);
      }
      const groups = await groupsOfReport(dataset);
      // without a recorded group a document is its own group (its variants with it, as sameDocument keeps them)
      const groupOf = (id: string) => groups.groupOf.get(id) ?? `document ${id}`;
      const withFeatures = dataset.calibration.sampleList.filter((sample) => sample.features);
      // a value not located has no page to name its OCR engine: it was read as the rest of its dataset was
      const readBy = mostCommon(withFeatures.map((sample) => sample.features!.ocrEngine).filter((engine) => engine !== undefined));
      let added = 0;
      for (const sample of withFeatures) {
        const key = JSON.stringify([dataset.name, sample.id, sample.pointer, sample.features]);
        if (seen.has(key)) continue;
        seen.add(key);
        added++;
        const features = sample.features!;
        const variant = variantOf.get(sample.id);
        samples.push({ ...sample, dataset: name, ...(variant ? { variant } : {}), kind: features.kind, inputs: featureVector(features), engine: features.textLayer ? undefined : (features.ocrEngine ?? readBy), negative: features.negative === true, group: groupOf(sample.id) });
      }
      // a dataset read the same way twice (a text layer) is reported once
      if (added > 0.1 * dataset.calibration.sampleList.length) {
        const documents = new Map<string, number>();
        const labelledByGroup = new Map<string, number>();
        for (const detail of dataset.details) {
          const group = groupOf(detail.id);
          documents.set(group, (documents.get(group) ?? 0) + 1);
          labelledByGroup.set(group, (labelledByGroup.get(group) ?? 0) + labelledValues(detail.fields));
        }
        grouping.set(name, { source: groups.source, linkedBy: groups.linkedBy, documents, labelled: labelledByGroup });
        labelled.set(name, dataset.calibration.labelled);
        for (const [variant, count] of variantsLabelled) labelled.set(variant, count);
      }
    }
  }
  if (samples.length === 0) throw new Error('no calibration samples with features: run npm run eval with the local pipeline first');
  if ([...engines].some((engine) => engine !== 'rules')) process.stderr.write(`note: the samples come from ${[...engines].join(', ')}; the fitted model is the one for single readings (rules)\n`);

  // one set per OCR engine; an engine without readings of its own gets the default engine's set
  const fitted = new Map<OcrEngineName, { models: Models; samples: Sample[] }>();
  for (const engine of OCR_ENGINE_NAMES) {
    if (!samples.some((s) => s.engine === engine)) continue;
    const own = forEngine(samples, engine);
    fitted.set(engine, { models: fitAll(own, fit), samples: own });
  }
  const defaultEngine: OcrEngineName | undefined = fitted.has('paddle') ? 'paddle' : [...fitted.keys()][0];
  if (defaultEngine === undefined) throw new Error('no OCR readings among the samples: the confidence model is fitted per OCR engine');
  const fallback = fitted.get(defaultEngine)!;
  // as the service scores: with the set of the engine that read the value, a text layer's with the default engine's (confidence.ts)
  const scoredBy = (sample: Sample): OcrEngineName => (sample.engine && fitted.has(sample.engine) ? sample.engine : defaultEngine);
  const inSample = samples.map((s) => scored([s], fitted.get(scoredBy(s))!.models)[0]!);
  const heldOutAll = [...fitted.keys()].flatMap((engine) => crossValidated(samples, folds, fit, engine, scoredBy));
  const datasetsLeftOut = [...fitted.keys()].flatMap((engine) => leftOut(samples, fit, engine, scoredBy));
  const groupsOut = [...fitted.keys()].flatMap((engine) => groupsLeftOut(samples, fit, engine, scoredBy));
  // a dataset's rows, or a variant's ("eu-invoices [scanned]")
  const inGroup = (group: string) => (s: Sample) => s.dataset === group || `${s.dataset} ${s.variant}` === group;
  const out: string[] = [];
  for (const [group, count] of labelled) {
    if (![...labelled.keys()].some((other) => other !== group && group.startsWith(`${other} `))) {
      out.push(`== ${group}`, '');
      out.push(report('in-sample (the model fitted on all documents)', inSample.filter(inGroup(group)), count));
      out.push(report(`held out (${folds}-fold cross-validation by document)`, heldOutAll.filter(inGroup(group)), count));
      out.push(report('group left out (each group of documents predicted by the model fitted without it)', groupsOut.filter(inGroup(group)), count));
      out.push(report('dataset left out (the model fitted on the other datasets only)', datasetsLeftOut.filter(inGroup(group)), count));
      const groups = grouping.get(group);
      if (groups) {
        const how = groups.linkedBy.length > 0 ? `documents joined by ${groups.linkedBy.join(', ')}` : 'one per document';
        out.push(`-- groups (${groups.documents.size}, ${how}; ${groups.source}), each left out of the fit in turn`, groupTable(group, groupsOut, groups.labelled, groups.documents, 8), '');
      }
    }
  }
  const summaryRow = (group: string, count: number) => [
    group,
    ...[inSample, heldOutAll, groupsOut, datasetsLeftOut].flatMap((scoredSamples) => {
      const summary = summariseCalibration(scoredSamples.filter(inGroup(group)), count);
      return [summary.ece === null ? '-' : summary.ece.toFixed(3), percentText(summary.precisionAtAccept), percentText(summary.coverageAtAccept)];
    }),
  ];
  const columns = ['in-sample', 'cross-validated', 'group left out', 'dataset left out'].flatMap((how) => [`${how} ECE`, 'P@0.9', 'cov@0.9']);
  out.push('== summary', '', formatTable(['dataset', ...columns], [...labelled].map(([group, count]) => summaryRow(group, count)), [false, ...columns.map(() => true)]), '');
  for (const [engine, { models, samples: own }] of fitted) {
    out.push(`== weights, ${engine}`, '', formatTable(['kind', 'samples', 'intercept', ...FEATURE_NAMES], VALUE_KINDS.map((kind) => [kind, String(own.filter((s) => s.kind === kind).length), models.kinds[kind].intercept.toFixed(2), ...models.kinds[kind].weights.map((w) => w.toFixed(2))])), '');
    out.push(`negative amounts: ${own.filter((s) => s.negative).length}, ${own.filter((s) => s.negative && s.correct).length} right; their sign's factor ${models.negativeSign.toFixed(3)}`, '');
  }
  if (values.errors) {
    // what the held-out check gets wrong while sure: where a feature or a label needs looking at
    for (const [how, scoredSamples] of [['cross-validated', heldOutAll], ['group left out', groupsOut], ['dataset left out', datasetsLeftOut]] as const) {
      out.push(`== values wrong at confidence >= 0.9, ${how}`, '');
      const wrong = scoredSamples.filter((s) => s.confidence >= ACCEPT_AT && !s.correct);
      out.push(formatTable(['dataset', 'document', 'value', 'confidence', 'features'], wrong.map((s) => [`${s.dataset}${s.variant ? ` ${s.variant}` : ''}`, s.id, s.pointer, s.confidence.toFixed(3), JSON.stringify(s.features)])), '');
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);

  if (values.write) {
    const day = new Date().toISOString().slice(0, 10);
    const shipped = CONFIDENCE_MODEL as ConfidenceModel;
    // inputs added at the end leave the earlier ones as they were: a kept set scores as before with weight 0 for each new one
    const sameInputs = FEATURE_NAMES.slice(0, shipped.features.length).join() === shipped.features.join();
    const padded = (kinds: KindModels): KindModels =>
      Object.fromEntries(VALUE_KINDS.map((kind) => [kind, { ...kinds[kind], weights: FEATURE_NAMES.map((_, i) => kinds[kind].weights[i] ?? 0) }])) as KindModels;
    const sets = OCR_ENGINE_NAMES.map((engine) => {
      const own = fitted.get(engine);
      const previous = shipped.byOcr[engine];
      // reports without this engine's readings say nothing new about it: the set fitted earlier on its readings stays (same inputs, or more added at the end)
      if (!own && sameInputs && previous.kinds !== shipped.byOcr[defaultEngine].kinds) {
        const kept = `kept by a refit without ${engine} readings`;
        return { engine, models: padded(previous.kinds), fittedOn: previous.fittedOn.includes(kept) ? previous.fittedOn : `${previous.fittedOn}; ${kept} (${day})` };
      }
      if (!own) return { engine, models: fallback.models.kinds, sameAs: defaultEngine, fittedOn: `no ${engine} readings among the reports: ${defaultEngine}'s weights, refit with a report read by ${engine}` };
      const datasets = [...new Set(own.samples.map((s) => `${s.dataset.replace(/ \(\d+\)$/, '')} (${s.engine ?? 'text layer'})`))];
      return { engine, models: own.models.kinds, fittedOn: `${datasets.join(', ')}${values.note ? `; ${values.note}` : ''}: ${own.samples.length} values, ${day}, l2 ${l2}, pooling ${pooling}` };
    });
    // the sign is the caller's convention, not an engine's reading: one factor, counted on every reading
    const negatives = samples.filter((s) => s.negative);
    const negativeSign = { rate: signRate(samples), fittedOn: `negative amounts of the reports: ${negatives.filter((s) => s.correct).length} right of ${negatives.length}, (right + 1) / (negatives + 2)` };
    const target = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/evidence/confidence-model.ts');
    await writeFile(target, modelSource(sets, negativeSign));
    process.stderr.write(`wrote ${target}\n`);
  }
  return 0;
}

function mostCommon<T>(items: readonly T[]): T | undefined {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`fit-confidence: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
