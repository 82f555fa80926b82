/**
 * @module test/precision/crossval-report: the figures split by repository (issue 32) as data (the
 * `cross_validation` and `before_tuning` fields of `docs/precision.json`) and as the Markdown of
 * `docs/precision.md` (its protocol lines, "Cross-validated by repository", "Before tuning").
 */
import { corpusLabel } from '../helpers/corpus.js';
import type { CrossValidation, Split, SplitViews, Tally } from './crossval.js';
import { FOLD_COUNT, FOLD_SEED, type FoldSize } from './folds.js';
import type { Holdout } from './holdout.js';
import type { PrecisionReport } from './judge.js';

/** A tally in `docs/precision.json`: `precision` rounded to 3 decimals, `null` when nothing is labelled. */
export interface TallyJson {
  readonly labelled: number;
  readonly true: number;
  readonly precision: number | null;
}

/** One view of a split in `docs/precision.json`. */
export interface SplitJson {
  readonly in_sample: TallyJson;
  readonly out_of_sample: TallyJson;
  readonly folds: readonly TallyJson[];
}

/** Both views: `high_critical` (high and critical findings) and `all` (every labelled finding). */
export interface ViewsJson {
  readonly high_critical: SplitJson;
  readonly all: SplitJson;
}

/** The split figures of one findings list, overall and per catalog policy. */
export interface FiguresJson {
  readonly overall: ViewsJson;
  readonly policies: Readonly<Record<string, ViewsJson>>;
}

/** The issue-32 fields of `docs/precision.json`. */
export interface CrossValidationJson {
  readonly cross_validation: FiguresJson & {
    readonly seed: string;
    readonly k: number;
    readonly holdout: Holdout;
    readonly folds: readonly FoldSize[];
  };
  /** `null` while the round's baseline is not kept; in- and out-of-sample are within the round's corpus. */
  readonly before_tuning: (FiguresJson & { readonly baseline: string; readonly corpus: string }) | null;
}

const round = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);
const tallyJson = (t: Tally): TallyJson => ({ labelled: t.labelled, true: t.true, precision: round(t.precision) });
const splitJson = (s: Split): SplitJson => ({
  in_sample: tallyJson(s.inSample),
  out_of_sample: tallyJson(s.outOfSample),
  folds: s.folds.map(tallyJson),
});
const viewsJson = (v: SplitViews): ViewsJson => ({ high_critical: splitJson(v.high), all: splitJson(v.all) });
const figuresJson = (c: CrossValidation): FiguresJson => ({
  overall: viewsJson(c.overall),
  policies: Object.fromEntries([...c.policies].map(([code, v]) => [code, viewsJson(v)])),
});

/** The repository path of the round's baseline, as the documents name it. */
export const baselinePath = (h: Holdout) => `test/precision/baseline/before-${h.round}.json`;

/** The `cross_validation` and `before_tuning` fields of `docs/precision.json`. */
export function crossValidationJson(r: PrecisionReport): CrossValidationJson {
  const h = r.split.holdout;
  return {
    cross_validation: {
      seed: FOLD_SEED,
      k: FOLD_COUNT,
      holdout: h,
      folds: r.foldSizes,
      ...figuresJson(r.crossValidation),
    },
    before_tuning: r.beforeTuning && { baseline: baselinePath(h), corpus: h.corpus, ...figuresJson(r.beforeTuning) },
  };
}

/** `93.3%`, `100%`, or `–` when nothing is labelled. */
export const percent = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(x === 1 ? 0 : 1)}%`);
const cell = (t: Tally) => (t.labelled === 0 ? '–' : `${percent(t.precision)} (${t.true}/${t.labelled})`);
const bold = (t: Tally) =>
  t.labelled === 0 ? 'nothing labelled' : `**${percent(t.precision)}** (${t.true} of ${t.labelled})`;
const sum = (a: Tally, b: Tally): Tally => {
  const labelled = a.labelled + b.labelled;
  return { labelled, true: a.true + b.true, precision: labelled === 0 ? null : (a.true + b.true) / labelled };
};
const VIEWS: readonly [keyof SplitViews, string][] = [
  ['high', 'high and critical'],
  ['all', 'all labelled'],
];

/** The lines of the header that state the protocol and its headline figures. */
export function headline(r: PrecisionReport): string {
  const h = r.split.holdout;
  const cv = r.crossValidation.overall;
  const before = r.beforeTuning
    ? `Before tuning (\`${h.corpus}\` as the engine of \`${baselinePath(h)}\` reported it), all labelled:
${bold(sum(r.beforeTuning.overall.all.inSample, r.beforeTuning.overall.all.outOfSample))}, held out ${bold(r.beforeTuning.overall.all.outOfSample)}; high and critical: ${bold(sum(r.beforeTuning.overall.high.inSample, r.beforeTuning.overall.high.outOfSample))}, held out ${bold(r.beforeTuning.overall.high.outOfSample)}.`
    : `Before tuning: not recorded (\`${baselinePath(h)}\` is absent).`;
  return `
Cross-validated by repository (issue 32): every source repository falls in one of ${FOLD_COUNT} folds by a
fixed hash of its name (\`test/precision/folds.ts\`, seed \`${FOLD_SEED}\`), so the files of one repository
are never split. Round \`${h.round}\` holds out fold ${h.fold} of \`${corpusLabel(h.corpus)}\`
(\`test/precision/holdout.json\`): labelled before the round's rules were tuned, and not looked at while
tuning them. *In-sample* is every other labelled finding, *out-of-sample* the held-out ones, both on
today's engine; a change that raises the in-sample figure and lowers the out-of-sample one is not
taken (\`npm run precision -- --compare <older findings dump>\`).

All labelled: in-sample ${bold(cv.all.inSample)}, out-of-sample ${bold(cv.all.outOfSample)}. High and
critical: in-sample ${bold(cv.high.inSample)}, out-of-sample ${bold(cv.high.outOfSample)}.
${before}`;
}

function splitTable(
  c: CrossValidation,
  view: keyof SplitViews,
  columns: readonly string[],
  cells: (s: Split) => readonly Tally[],
): string {
  const line = (name: string, s: Split) => `| ${name} | ${cells(s).map(cell).join(' | ')} |`;
  const rows = [...c.policies]
    .filter(([, v]) => v[view].folds.some((t) => t.labelled > 0))
    .map(([code, v]) => line(code, v[view]));
  return [
    `| policy | ${columns.join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
    line('**all policies**', c.overall[view]),
    ...rows,
  ].join('\n');
}

function foldTable(sizes: readonly FoldSize[], h: Holdout): string {
  const rows = sizes.map(
    (z, i) =>
      `| ${i} | ${z.repositories} | ${z.files} | ${i === h.fold ? `its \`${h.corpus}\` files (round \`${h.round}\`)` : ''} |`,
  );
  return ['| fold | repositories | files | held out |', '|---:|---:|---:|---|', ...rows].join('\n');
}

/** The sections "Cross-validated by repository" and "Before tuning (<round>)" of `docs/precision.md`. */
export function crossValidationMarkdown(r: PrecisionReport): string {
  const h = r.split.holdout;
  const folds = Array.from({ length: FOLD_COUNT }, (_, i) => `fold ${i}`);
  const cv = VIEWS.map(
    ([view, title]) => `### ${title[0]!.toUpperCase()}${title.slice(1)} findings

${splitTable(r.crossValidation, view, ['in-sample', 'out-of-sample', ...folds], (s) => [s.inSample, s.outOfSample, ...s.folds])}
`,
  ).join('\n');
  const b = r.beforeTuning;
  const before = b
    ? `\`${corpusLabel(h.corpus)}\` as the engine before the round reported it (\`${baselinePath(h)}\`, frozen before
any rule was changed), judged against today's labels of that corpus: the honest first figure.
*In-sample* is folds other than ${h.fold}, *held out* fold ${h.fold}; policies with nothing labelled are left out.

${VIEWS.map(
  ([view, title]) => `### ${title[0]!.toUpperCase()}${title.slice(1)} findings

${splitTable(b, view, ['in-sample', 'held out', `all of ${h.corpus}`], (s) => [s.inSample, s.outOfSample, sum(s.inSample, s.outOfSample)])}
`,
).join('\n')}`
    : `Not recorded: \`${baselinePath(h)}\` (the engine's findings before the round, written by
\`npm run precision -- --dump\`) is absent.
`;
  return `
## Cross-validated by repository

Today's engine against the same labels, split by source repository (the protocol above). The folds
over the corpora read:

${foldTable(r.foldSizes, h)}

Why held out: ${h.why}

Each cell is precision (true/labelled); the folds include the held-out files; policies with nothing
labelled are left out. \`npm run precision\` counts the disagreements on held-out files but lists them
only with \`--reveal-holdout\`.

${cv}
## Before tuning (${h.round.replace(/^issue-/, 'issue ')})

${before}`;
}
