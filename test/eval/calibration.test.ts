import { expect } from 'chai';
import { calibrationSamples, summariseCalibration, type CalibrationSample } from '../../scripts/eval/calibration.js';
import { fitLogistic, fitPooledLogistic, predict } from '../../scripts/eval/logistic.js';
import type { FieldKind } from '../../scripts/eval/score.js';

const kinds = new Map<string, FieldKind>([
  ['total', 'amount'],
  ['date', 'date'],
  ['store', 'name'],
  ['party', 'name-list'],
]);
const options = { dateOrder: 'day-first' as const };

describe('eval: calibration of the per-value confidence', () => {
  it('judges every returned value by the strict match, list items one by one, and counts the labelled values', () => {
    const { samples, labelled } = calibrationSamples(
      'doc',
      kinds,
      { total: '9.00', date: '14/03/2024', store: 'ACME', party: ['Nike Inc.', 'Eric Dean Sprunk'] },
      { total: '9.00', date: '2024-03-15', store: null, party: ['NIKE INC', 'Someone Else'] },
      { '/total': { confidence: 0.95 }, '/date': { confidence: 0.6 }, '/party/0': { confidence: 0.8 }, '/party/1': { confidence: 0.3 } },
      'absent',
      options,
    );
    expect(labelled).to.equal(5);
    expect(samples.map((s) => [s.pointer, s.correct, s.confidence])).to.deep.equal([
      ['/total', true, 0.95],
      ['/date', false, 0.6],
      ['/party/0', true, 0.8],
      ['/party/1', false, 0.3],
    ]);
  });

  it('counts a value where the label is null as wrong when null means absent, and leaves it out when it means not annotated', () => {
    const run = (meaning: 'absent' | 'not-annotated') =>
      calibrationSamples('doc', new Map([['tax', 'amount' as FieldKind]]), { tax: null }, { tax: '1.00' }, { '/tax': { confidence: 0.9 } }, meaning, options);
    expect(run('absent').samples).to.deep.equal([{ id: 'doc', field: 'tax', pointer: '/tax', confidence: 0.9, correct: false, labelled: false }]);
    expect(run('absent').labelled).to.equal(0);
    expect(run('not-annotated').samples).to.deep.equal([]);
  });

  it('gives a value the service returned without a confidence 0', () => {
    const { samples } = calibrationSamples('doc', new Map([['total', 'amount' as FieldKind]]), { total: '1.00' }, { total: '1.00' }, {}, 'absent', options);
    expect(samples[0]!.confidence).to.equal(0);
  });

  it('summarises: reliability buckets, expected calibration error, precision and coverage at 0.9', () => {
    const sample = (confidence: number, correct: boolean, labelled = true): CalibrationSample => ({ id: 'd', field: 'f', pointer: '/f', confidence, correct, labelled });
    const samples = [sample(0.95, true), sample(0.95, true), sample(0.92, false), sample(0.35, false), sample(0.35, true, false)];
    const summary = summariseCalibration(samples, 8);
    expect(summary.accepted).to.equal(3);
    expect(summary.precisionAtAccept).to.be.closeTo(2 / 3, 1e-9);
    expect(summary.coverageAtAccept).to.be.closeTo(3 / 8, 1e-9);
    const top = summary.buckets[9]!;
    expect(top.count).to.equal(3);
    expect(top.meanConfidence).to.be.closeTo(0.94, 1e-9);
    expect(top.shareRight).to.be.closeTo(2 / 3, 1e-9);
    // |2/3 - 0.94| weighted 3/5, |1/2 - 0.35| weighted 2/5
    expect(summary.ece).to.be.closeTo((3 / 5) * (0.94 - 2 / 3) + (2 / 5) * 0.15, 1e-9);
    expect(summary.buckets.reduce((sum, bucket) => sum + bucket.count, 0)).to.equal(samples.length);
  });
});

describe('eval: logistic regression for the confidence model', () => {
  it('recovers the weights that generated the labels', () => {
    // deterministic pseudo-random inputs; labels drawn from p = sigmoid(-1 + 2 x0 - 3 x1)
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const rows: number[][] = [];
    const labels: number[] = [];
    for (let i = 0; i < 4000; i++) {
      const x = [random() * 2, random()];
      rows.push(x);
      labels.push(random() < 1 / (1 + Math.exp(-(-1 + 2 * x[0]! - 3 * x[1]!))) ? 1 : 0);
    }
    const fit = fitLogistic(rows, labels, { l2: 0.01 });
    expect(fit.intercept).to.be.closeTo(-1, 0.3);
    expect(fit.weights[0]).to.be.closeTo(2, 0.3);
    expect(fit.weights[1]).to.be.closeTo(-3, 0.4);
    expect(predict(fit, [1, 0])).to.be.closeTo(1 / (1 + Math.exp(-1)), 0.05);
  });

  it('stays finite when every label is the same', () => {
    const fit = fitLogistic([[0], [1], [2]], [1, 1, 1], { l2: 1 });
    expect(Number.isFinite(fit.intercept)).to.equal(true);
    expect(predict(fit, [1])).to.be.above(0.9);
  });

  it('lets a kind with few values borrow the weights the others show, and keeps each kind\'s level', () => {
    // group 0: 3,000 values where p = sigmoid(-2 + 4 x); group 1: 12 values with the same slope, a level 1 higher
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const rows: number[][] = [];
    const groups: number[] = [];
    const labels: number[] = [];
    const add = (group: number, level: number) => {
      const x = random();
      rows.push([x]);
      groups.push(group);
      labels.push(random() < 1 / (1 + Math.exp(-(level + 4 * x))) ? 1 : 0);
    };
    for (let i = 0; i < 3000; i++) add(0, -2);
    for (let i = 0; i < 12; i++) add(1, -1);
    const [many, few] = fitPooledLogistic(rows, groups, 2, labels, { l2: 1, pooling: 1 });
    expect(many!.weights[0]).to.be.closeTo(4, 0.5);
    // fitted alone, 12 values say little about the slope: the penalty pulls it far below 4
    const alone = fitLogistic(rows.filter((_, n) => groups[n] === 1), labels.filter((_, n) => groups[n] === 1), { l2: 1 });
    expect(Math.abs(few!.weights[0]! - 4)).to.be.below(Math.abs(alone.weights[0]! - 4));
    // pooling 0: one slope for both, levels still apart
    const [sharedMany, sharedFew] = fitPooledLogistic(rows, groups, 2, labels, { l2: 1, pooling: 0 });
    expect(sharedFew!.weights[0]).to.equal(sharedMany!.weights[0]);
    expect(sharedFew!.intercept).to.not.equal(sharedMany!.intercept);
  });
});
