import type { RunContext } from '../types';
import { plural } from '../util/text';

/**
 * How many pairs a run compared (both images present), how many of them were the same (identical
 * or within tolerance), and how many checkpoints only one side took.
 */
export interface ComparedCount {
  pairs: number;
  same: number;
  oneSided: number;
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
  const same =
    compared.pairs === 1
      ? 'the 1 compared checkpoint is the same as its baseline'
      : `all ${compared.pairs} compared checkpoints are the same as their baselines`;
  return (
    `visual-uat: warning: ${plural(files.length, 'app file')} ${files.length === 1 ? 'differs' : 'differ'} from the base ` +
    `(e.g. ${files[0]}), yet ${same}: ` +
    'if those files show on these pages, the base app was probably the current one ' +
    '(a server that reads the current checkout by a fixed path), ' +
    "or their change is within the comparison's tolerance (a colour a few levels off); " +
    'see README "Your web server", and the threshold option'
  );
}
