import type { CheckpointStatus, DiffMetrics, RunContext } from '../types';
import { plural } from '../util/text';

/**
 * How many pairs a run compared (both images present), how many of them were the same (identical
 * or within tolerance), and how many checkpoints only one side took; `allowed` holds, for each
 * pair whose pixels changed past the colour threshold but no more than maxDiffPixels or
 * maxDiffPixelRatio allow, the percentage of its pixels that changed.
 */
export interface ComparedCount {
  pairs: number;
  same: number;
  oneSided: number;
  allowed: number[];
}

/**
 * Whether the pixel allowance (maxDiffPixels, maxDiffPixelRatio) let a checkpoint pass though its
 * pixels changed past the colour threshold: "unchanged" alone would read as identical. The one rule
 * behind the summary's note and the same-app warning's count.
 */
export function changedWithinAllowance(checkpoint: { status: CheckpointStatus; diffMetrics: DiffMetrics }): boolean {
  return checkpoint.status === 'unchanged' && checkpoint.diffMetrics.changedRegions.length > 0;
}

/**
 * The base app was likely the current one: files the app is built or served from differ from the
 * base, yet every checkpoint that had both images came out the same (identical, or different only
 * within the comparison's tolerance: rendering noise must not silence the warning). A server that reads its
 * files from a fixed absolute path, or any other way the base pass reaches the current checkout,
 * looks exactly like this; a branch that changes only tests, docs or manifests never does (see
 * baseline/app-files). A checkpoint only one side took (new, missing) shows the two apps differ: no
 * warning then. It may also be an app change no checkpoint shows: so a warning, not an error.
 */
export function sameAppWarning(context: RunContext | null, compared: ComparedCount): string | null {
  if (!context || context.sameAsBase || compared.pairs === 0 || compared.same < compared.pairs || compared.oneSided > 0) return null;
  const files = context.appFilesChanged ?? [];
  if (files.length === 0) return null;
  const differ = `visual-uat: warning: ${plural(files.length, 'app file')} ${files.length === 1 ? 'differs' : 'differ'} from the base (e.g. ${files[0]})`;
  // Every page differs: the base app was the base one, and the allowance is what hid the change.
  if (compared.allowed.length === compared.pairs) return allowanceWarning(differ, compared);
  const same =
    compared.pairs === 1
      ? 'the 1 compared checkpoint is the same as its baseline'
      : `all ${compared.pairs} compared checkpoints are the same as their baselines`;
  return (
    `${differ}, yet ${same}: ` +
    'if those files show on these pages, the base app was probably the current one ' +
    '(a server that reads the current checkout by a fixed path), ' +
    "or their change is within the comparison's tolerance (a colour a few levels off); " +
    'see README "Your web server", and the threshold option' +
    withinAllowance(compared.allowed)
  );
}

/**
 * Some pages are identical and some changed within their pixel allowance: either the base app was
 * the current one and the allowance took its rendering noise, or the allowance hid the change; the
 * warning names both.
 */
function withinAllowance(allowed: readonly number[]): string {
  if (allowed.length === 0) return '';
  return (
    `; ${allowed.length} of them changed, in ${share(Math.max(...allowed))} of the pixels, ` +
    'but by no more than their maxDiffPixels or maxDiffPixelRatio allow: lower that allowance to see such changes'
  );
}

/**
 * The pixels of every page changed, within what a test's (or the config's) maxDiffPixels or
 * maxDiffPixelRatio let pass, as toHaveScreenshot would: the base app was the base one, so the
 * allowance is what to name.
 */
function allowanceWarning(differ: string, compared: ComparedCount): string {
  const count = compared.allowed.length;
  const checkpoints = count === compared.pairs ? `all ${count}` : `${count} of ${compared.pairs}`;
  const which =
    compared.pairs === 1
      ? 'the 1 compared checkpoint differs from its baseline'
      : `${checkpoints} compared checkpoints differ from their baselines`;
  return (
    `${differ}, and ${which} (in ${share(Math.max(...compared.allowed))} of the pixels), ` +
    'but by no more than their maxDiffPixels or maxDiffPixelRatio allow: unchanged, as toHaveScreenshot would pass them; ' +
    "to see such changes, lower that allowance (the test's toHaveScreenshot options, or expect.toHaveScreenshot in the config)"
  );
}

/** A percentage kept to two decimals, as pixelDiffPercent is: 0 is a few pixels, not none. */
export function share(percent: number): string {
  return percent === 0 ? 'under 0.01 %' : `up to ${percent} %`;
}
