/**
 * Logistic regression with an L2 penalty, fitted by Newton's method: the
 * mapping from a value's features to the probability that it is right.
 * A dozen inputs and a few thousand samples, so plain arrays and a small
 * linear solve do; no library needed.
 */

export interface LogisticFit {
  intercept: number;
  weights: number[];
}

export interface LogisticOptions {
  /** Penalty on the weights (not the intercept): larger keeps them closer to 0, which matters for kinds with few samples. */
  l2: number;
  iterations?: number;
}

export function predict(fit: LogisticFit, inputs: readonly number[]): number {
  let logit = fit.intercept;
  inputs.forEach((x, i) => (logit += (fit.weights[i] ?? 0) * x));
  return 1 / (1 + Math.exp(-logit));
}

/** Maximises the penalised log-likelihood of `labels` (1 right, 0 wrong) given `rows`. */
export function fitLogistic(rows: readonly (readonly number[])[], labels: readonly number[], options: LogisticOptions): LogisticFit {
  const width = (rows[0]?.length ?? 0) + 1;
  let beta = new Array<number>(width).fill(0);
  // start at the base rate, so that a kind with one class only stays finite
  const rate = Math.min(0.999, Math.max(0.001, labels.reduce((a, b) => a + b, 0) / Math.max(1, labels.length)));
  beta[0] = Math.log(rate / (1 - rate));
  // only a row's non-zero inputs add to the sums: a pooled fit's rows are mostly zeros (other groups' columns)
  const inputs = rows.map((row) => [1, ...row]);
  const nonZero = inputs.map((x) => x.flatMap((value, i) => (value === 0 ? [] : [i])));
  for (let iteration = 0; iteration < (options.iterations ?? 50); iteration++) {
    const gradient = new Array<number>(width).fill(0);
    const hessian = Array.from({ length: width }, () => new Array<number>(width).fill(0));
    inputs.forEach((x, n) => {
      const used = nonZero[n]!;
      let logit = 0;
      for (const i of used) logit += beta[i]! * x[i]!;
      const p = 1 / (1 + Math.exp(-logit));
      const residual = labels[n]! - p;
      const weight = Math.max(p * (1 - p), 1e-9);
      for (let a = 0; a < used.length; a++) {
        const i = used[a]!;
        gradient[i]! += residual * x[i]!;
        for (let b = 0; b <= a; b++) hessian[i]![used[b]!]! += weight * x[i]! * x[used[b]!]!;
      }
    });
    for (let i = 0; i < width; i++) for (let j = 0; j < i; j++) hessian[j]![i] = hessian[i]![j]!;
    for (let i = 1; i < width; i++) {
      gradient[i]! -= options.l2 * beta[i]!;
      hessian[i]![i]! += options.l2;
    }
    hessian[0]![0]! += 1e-6;
    const step = solve(hessian, gradient);
    beta = beta.map((b, i) => b + step[i]!);
    if (Math.max(...step.map(Math.abs)) < 1e-7) break;
  }
  return { intercept: beta[0]!, weights: beta.slice(1) };
}

export interface PooledOptions extends LogisticOptions {
  /** How far a group's weights may depart from the shared ones: its deviations' inputs are scaled by this, so their penalty is l2 / pooling² (0: one set of weights for all). */
  pooling: number;
}

/**
 * One fit for several groups of rows (kinds of value): weights all groups
 * share, a level per group, and a deviation per group from the shared
 * weights. A group with few rows then borrows the others' evidence instead
 * of fitting its own few documents. Returns each group's own intercept and
 * weights, so a caller predicts with `predict` as for a separate fit.
 */
export function fitPooledLogistic(rows: readonly (readonly number[])[], groups: readonly number[], groupCount: number, labels: readonly number[], options: PooledOptions): LogisticFit[] {
  const width = rows[0]?.length ?? 0;
  // a group's level is scaled up so that its penalty is slight: groups differ in level for good reasons (a date is easier than a name)
  const LEVEL_SCALE = 3;
  const widened = rows.map((row, n) => {
    const own = groups[n]!;
    const out = [...row];
    for (let g = 0; g < groupCount; g++) out.push(g === own ? LEVEL_SCALE : 0);
    for (let g = 0; g < groupCount; g++) for (const x of row) out.push(g === own ? x * options.pooling : 0);
    return out;
  });
  const fit = fitLogistic(widened, labels, options);
  return Array.from({ length: groupCount }, (_, g) => ({
    intercept: fit.intercept + fit.weights[width + g]! * LEVEL_SCALE,
    weights: fit.weights.slice(0, width).map((shared, i) => shared + fit.weights[width + groupCount + g * width + i]! * options.pooling),
  }));
}

/** Solves A x = b by Gaussian elimination with partial pivoting (A is small and positive definite). */
function solve(matrix: number[][], vector: number[]): number[] {
  const n = vector.length;
  const a = matrix.map((row, i) => [...row, vector[i]!]);
  for (let column = 0; column < n; column++) {
    let pivot = column;
    for (let row = column + 1; row < n; row++) if (Math.abs(a[row]![column]!) > Math.abs(a[pivot]![column]!)) pivot = row;
    [a[column], a[pivot]] = [a[pivot]!, a[column]!];
    const head = a[column]![column]!;
    if (Math.abs(head) < 1e-12) continue;
    for (let row = column + 1; row < n; row++) {
      const factor = a[row]![column]! / head;
      for (let k = column; k <= n; k++) a[row]![k]! -= factor * a[column]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let row = n - 1; row >= 0; row--) {
    const head = a[row]![row]!;
    if (Math.abs(head) < 1e-12) continue;
    let sum = a[row]![n]!;
    for (let k = row + 1; k < n; k++) sum -= a[row]![k]! * x[k]!;
    x[row] = sum / head;
  }
  return x;
}
