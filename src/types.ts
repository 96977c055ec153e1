/**
 * The public types (the options, the results file's parts) and the records several early folders
 * share (the run context, the manifest, the layout record). Any other type lives in the folder
 * that makes it, as docs/architecture.md says.
 */

export type CheckpointStatus =
  | 'unchanged'
  | 'changed'
  | 'needs_review'
  /** The images differ only where the test left the pointer or focus on different elements on the two sides: not a change of the app. */
  | 'unsteady'
  | 'regression'
  | 'new'
  | 'missing'
  | 'errored';

export type TestStatus = 'passed' | 'failed' | 'errored' | 'needs_review';

/** Statuses (or signal classes) that make the run exit 1. */
export type FailOn = 'regression' | 'needs_review' | 'unsteady' | 'new' | 'missing' | 'errored' | 'signals';

export type RegionKind = 'added' | 'removed' | 'modified';

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
  kind?: RegionKind;
}

export interface DiffMetrics {
  pixelDiffPercent: number;
  changedRegions: Region[];
}

/**
 * A capture's comparison with its baseline, made in the test's worker while the page was alive (the
 * live look) and carried to the report, so a changed checkpoint is compared once. The report takes
 * it only for the same bytes on both sides (`baseline`, `current`: util/hash bytesIdentity), the same
 * tolerance and the same visual-uat version (compare/recorded.ts); else it compares the pair itself.
 */
export interface RecordedComparison {
  baseline: string;
  current: string;
  tolerance: Required<ComparisonTolerance>;
  version: string;
  /** `change`: compare/fingerprint's encodeChange. The diff image travels as a file of its own (capture/codec). */
  outcome:
    | { kind: 'identical' }
    | { kind: 'within-tolerance'; metrics: DiffMetrics }
    | { kind: 'different'; metrics: DiffMetrics; change: string };
}

/** Per-pixel tolerance, named as Playwright names it for `toHaveScreenshot`. */
export interface ComparisonTolerance {
  /** Per-pixel colour distance (0..1) below which a pixel counts as equal. Default 0.1. */
  threshold?: number;
  /** A difference of at most this many pixels counts as unchanged. */
  maxDiffPixels?: number;
  /** A difference of at most this fraction (0..1) of the pixels counts as unchanged. */
  maxDiffPixelRatio?: number;
}

/** One accessibility rule broken on one checkpoint (from axe-core), matched by rule and targets. */
export interface A11yViolation {
  id: string;
  impact: string | null;
  /** CSS selectors of the offending elements, as axe names them. */
  targets: string[];
}

/**
 * What a checkpoint left beside its image besides the pixels, on either side: the ARIA snapshot of
 * its scope, the console errors and failed requests since the previous checkpoint of the test, and
 * (with `a11y: true`) the accessibility violations of its scope. URLs are relative to the app's
 * own origin, so the base app (on a port of its own) and the current one compare.
 */
export interface CapturedSignals {
  /** The page's origin at capture, to map the base's absolute URLs onto the current's (null: not an http(s) page). */
  origin: string | null;
  aria: string | null;
  consoleErrors: string[];
  failedRequests: string[];
  /** Null when the checkpoint was not checked (`a11y` off, or axe failed). */
  a11y: A11yViolation[] | null;
  /** The pointer and focus state the image was taken in (null: the page could not be read). */
  interaction: InteractionState | null;
}

/**
 * The pointer and focus state a capture was taken in (capture/interaction.ts): what a test left
 * under the pointer or focused styles the image as much as the code does. Elements by their path
 * as the layout record writes them.
 */
export interface InteractionState {
  /** The deepest element under the pointer (the end of the `:hover` chain); null: none (the pointer never moved onto the page). */
  hovered: string | null;
  /** The focused element (`document.activeElement`, the body aside); null: none. */
  focused: string | null;
  /** Whether the focused element shows its focus (`:focus-visible`). */
  focusVisible: boolean;
  /** Open popovers (`:popover-open`), dialogs and `details` elements. */
  open: string[];
  /**
   * The page's style rules that need one of those states and apply now (`.card:hover`): their selector, the properties they set, the
   * elements they apply to.
   */
  rules: StateRule[];
}

/** A style rule whose selector needs a pointer, focus or open state, as it applied at capture. */
export interface StateRule {
  /** Its selector, nesting resolved (`:is(.card):hover`). */
  selector: string;
  /** The longhand properties it sets (`background-color`, `box-shadow`). */
  properties: string[];
  /** The paths of the elements it applied to (at most a few per rule). */
  elements: string[];
}

/** The `signals` field of a checkpoint in the results file: what current has that base has not. */
export interface CheckpointSignals {
  ariaDiff: string | null;
  newConsoleErrors: string[];
  newFailedRequests: string[];
  newA11yViolations: A11yViolation[];
}

export interface Evaluation {
  pass: boolean;
  confidence: number;
  reason: string;
  needsReview: boolean;
}

/**
 * `evaluator.autoApprove`: a model's "pass" becomes `changed` only when the last `visual-uat eval`
 * of that model on this project let no labelled regression through at the verdict's confidence.
 */
export interface AutoApprovePolicy {
  /** Never auto-approve below this confidence, whatever the eval says. Default 0. */
  minConfidence?: number;
  /** Without an eval of the model (or one of an older prompt), nothing is auto-approved. Default true. */
  requireEval?: boolean;
}

export interface EvaluatorOptions {
  baseURL?: string;
  apiKey?: string;
  model?: string;
  approveAt?: number;
  rejectAt?: number;
  timeoutMs?: number;
  concurrency?: number;
  /** USD per million tokens, by model name. */
  prices?: Record<string, { input: number; cachedInput?: number; output: number }>;
  /** Project review instructions: text, or a path to a file beside the Playwright config. */
  instructions?: string;
  /** Off by default. */
  autoApprove?: AutoApprovePolicy | false;
}

/**
 * What the evaluator spent in a run: the `evaluator` block of the results file. `inputTokens` is
 * the effective input (the provider's prompt tokens, cached ones included); `cachedInputTokens`
 * is the cached part of it.
 */
export interface EvaluatorUsage {
  model: string | null;
  calls: number;
  cacheHits: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  costUSD: number;
}

/**
 * How the baseline pass starts the base app where the webServer's own command cannot take the
 * base's port (a port fixed in the script). `{port}` in `command` and `env` values is replaced by
 * the base's port; paths into the checkout are moved into the base worktree.
 */
export interface BaseWebServer {
  command?: string;
  cwd?: string;
  env?: Record<string, string>;
}

/** Options of `withVisualUat(config, options)` and of the reporter tuple. */
export interface VisualUatOptions extends ComparisonTolerance {
  baseBranch?: string;
  outputDir?: string;
  updateBaselines?: boolean;
  keepWorktrees?: boolean;
  evaluator?: EvaluatorOptions | false;
  failOn?: FailOn[];
  /** The base app's server, per webServer entry (an array for several, in order). */
  baseWebServer?: BaseWebServer | (BaseWebServer | null)[];
  /** Go on when the baseline pass fails as a whole, with every checkpoint `new`, instead of stopping the run. */
  allowMissingBaselines?: boolean;
  /** Where labelled cases (reviewers' decisions) are kept, relative to the config's folder; default `<outputDir>/labels`. */
  labelsDir?: string;
  /**
   * The per-test baseline store (a plain folder, shareable between machines and shards), relative
   * to the config's folder; default `<outputDir>/baseline-store`.
   */
  baselineStore?: string;
}

/** The `visualUat` option fixture, set with `test.use({ visualUat: { … } })`. */
export interface VisualUatTestOptions extends ComparisonTolerance {
  intent?: string;
  skip?: boolean;
  /** Run axe-core on every checkpoint of the test (per checkpoint: the `a11y` option). */
  a11y?: boolean;
}

/** What the global setup learnt about the two versions; travels with every test result. */
export interface RunContext {
  baseBranch: string;
  baseRef: string;
  baseCommit: string;
  currentBranch: string | null;
  currentCommit: string;
  dirty: boolean;
  /** Base and current are the same code: no baseline pass, every checkpoint compares with itself. */
  sameAsBase: boolean;
  commits: string[];
  changedFiles: string[];
  /** The changed files that can change what the app shows (not tests, docs, manifests; see baseline/app-files). */
  appFilesChanged: string[];
  baselineDir: string;
  /** The baseline store's index of the suite the run's baselines are in (see store/entry lookUpSuite), once there is one. */
  suiteIndex?: string;
  /** Why the baseline pass produced nothing, when it did not. */
  baselineError: string | null;
  /** Tests whose baseline a top-up pass took after the current tests ran (see baseline/top-up): their captures did not know it. */
  toppedUp?: string[];
  /**
   * The baseline pass runs beside the current tests (see baseline/schedule besideWorkers): the
   * keys of the tests it renders, or `all` without a listing (and until the runner's test list
   * reaches the setup, see baseline/suite-handover). Their captures cannot know their
   * baselines yet; the reporter reads them from the run's baseline entry once the pass is done. The other
   * tests' baselines (from the store) are in the entry before the tests start.
   */
  baselinePending?: 'all' | string[];
  /**
   * A run on the base itself (HEAD is the base commit, clean tree, or `visual-uat record`) records
   * its checkpoints into the baseline store (see store/entry): the store and the repository.
   */
  record?: { store: string; repoRoot: string };
}

/** One test of the baseline pass, as the baseline manifest records it. */
export interface BaselineTestRecord {
  /** The test's folder under the baseline entry (see config/test-identity testFolder). */
  folder: string;
  status: string;
  error: string | null;
  checkpoints: string[];
  /** Those of its checkpoints whose capture is not known to have held still (absent: not known for any, as for a stored test's record). */
  unsettled?: string[];
  /** Those of its checkpoints whose capture wrote a layout record: why a base side has none is then known (see report/assess). */
  layouts: string[];
  /** The source hash its baseline store entry is keyed by (see store/entry): set once the store holds it. */
  storeEntry?: string;
}

export interface BaselineManifest {
  complete: boolean;
  tests: Record<string, BaselineTestRecord>;
  /** Set when the pass ran only the tests that can capture a checkpoint: how many were listed and run. */
  selection?: { listed: number; run: number };
}

/**
 * One element of a checkpoint's layout record: where it is in the DOM, where it is on the image,
 * its own text and the computed styles that decide what a person sees.
 */
export interface LayoutElement {
  /** `body>main>footer` with `#id`, `.classes` and `:n` (its place among same-named siblings) per step. */
  path: string;
  /** Its parent's index in the record; -1 for the first element recorded on its branch. */
  parent: number;
  /** x, y, width, height in image pixels (CSS pixels from the captured area's top-left). */
  box: [number, number, number, number];
  /** Its own text (its text nodes, not its children's), trimmed; '' without any. */
  text: string;
  /** Its computed styles: an index into the record's `styles`. */
  style: number;
  /** It is inside one of the checkpoint's masks (it or an ancestor is a masked element): painted over on the image. */
  masked?: true;
}

/** The DOM and the computed styles behind a checkpoint's image, taken in the browser at capture. */
export interface LayoutRecord {
  version: 1;
  /** The captured area, in CSS pixels. */
  width: number;
  height: number;
  elements: LayoutElement[];
  /**
   * Each distinct set of computed styles once, by property name, shorthands composed (`padding: 16px 48px`): most elements share theirs
   * with others.
   */
  styles: Record<string, string>[];
  /** More elements were visible than a record keeps (see capture/layout). */
  truncated: boolean;
  /**
   * The paths of elements a style hides (`display: none`) whose parent is recorded: still in the page, not removed from it.
   */
  hidden: string[];
  /** An element capture's top-left on the page, in CSS pixels to 1/100 (absent for a page or a clip): where it sits between pixels. */
  at?: [number, number];
}
