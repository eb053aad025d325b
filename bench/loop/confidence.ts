/**
 * The mean of a few trials with its 95 % confidence interval from Student's t distribution:
 * real-model rewards vary from run to run, and with five to a few dozen trials the normal
 * approximation's 1.96 would claim more certainty than the runs hold.
 */

/** t(0.975; df) for df = 1..30, as printed in every t table. */
const T_975 = [
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.306, 2.2622, 2.2281, 2.201, 2.1788,
  2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.093, 2.086, 2.0796, 2.0739, 2.0687, 2.0639,
  2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
];

/** The normal distribution's 0.975 quantile. */
const Z_975 = 1.959964;

/**
 * The two-sided 95 % critical value of t with `df` degrees of freedom: the table up to 30,
 * beyond it the Cornish-Fisher expansion around the normal quantile (within 1e-4 there).
 */
export function tCritical95(df: number): number {
  if (!Number.isInteger(df) || df < 1) {
    throw new Error(`t needs a whole number of degrees of freedom, at least 1 (got ${df})`);
  }
  const tabled = T_975[df - 1];
  if (tabled !== undefined) return tabled;
  const z = Z_975;
  const g1 = (z ** 3 + z) / 4;
  const g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96;
  const g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384;
  const g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160;
  return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4;
}

export interface MeanInterval {
  n: number;
  mean: number;
  /** The sample standard deviation (n − 1 in the denominator). */
  sd: number;
  low: number;
  high: number;
}

export function meanInterval95(values: readonly number[]): MeanInterval {
  const n = values.length;
  if (n < 2) throw new Error(`an interval needs at least two trials (got ${n})`);
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const half = (tCritical95(n - 1) * sd) / Math.sqrt(n);
  return { n, mean, sd, low: mean - half, high: mean + half };
}
