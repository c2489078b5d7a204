import { type BundleSize, bundleSizes, ensureBundled, formatSizes } from '../../infra/build/bundle.ts';

/** Budget for one function's code (its index.mjs, what Lambda loads at a cold start). */
export const BUNDLE_BUDGET_BYTES = 5 * 1024 * 1024;

export interface BundleSizeResult {
  sizes: BundleSize[];
  /** The functions over the budget. */
  overBudget: BundleSize[];
}

/**
 * Prints the per-function bundle size table (bundling first unless dist/ is fresh) and checks every
 * function's code against the budget.
 */
export async function benchBundleSizes(
  options: { budgetBytes?: number; log?: (line: string) => void } = {},
): Promise<BundleSizeResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const budget = options.budgetBytes ?? BUNDLE_BUDGET_BYTES;
  await ensureBundled({ log: () => undefined });
  const sizes = bundleSizes();
  log(formatSizes(sizes));
  const largest = [...sizes].sort((a, b) => b.codeBytes - a.codeBytes)[0];
  if (largest) log(`largest: ${largest.name} (${(largest.codeBytes / 1024).toFixed(1)} KB)`);
  const overBudget = sizes.filter((s) => s.codeBytes > budget);
  for (const s of overBudget) {
    log(
      `OVER BUDGET: ${s.name} is ${(s.codeBytes / 1024 / 1024).toFixed(2)} MB (budget ${(budget / 1024 / 1024).toFixed(0)} MB)`,
    );
  }
  if (!overBudget.length) log(`all ${sizes.length} bundles within ${(budget / 1024 / 1024).toFixed(0)} MB`);
  return { sizes, overBudget };
}
