// `.loop/proof/<label>/report.json` (DESIGN §12): what was checked, against which artifact bytes
// and source tree, with which result. Versioned; validated by zod before it is written.
//
// Secret safety: the report names criteria, files, actions and environment variable *names* only.
// It never holds a fill value, a value read from the environment, a selector or an expected text,
// and browser error messages (which may quote any of them) become a category.
import { z } from 'zod';

export const CHECK_REPORT_VERSION = 1;

/** The state of one artifact at one snapshot. */
export const ARTIFACT_STATES = ['file', 'missing', 'symlink', 'escapes', 'not-a-file', 'too-large', 'over-budget', 'timed-out', 'unreadable'] as const;
export const artifactSnapshotSchema = z.object({
  state: z.enum(ARTIFACT_STATES),
  /** hex SHA-256 of the content, when `state` is `file` */
  sha256: z.string().nullable(),
  size: z.number().int().nonnegative().nullable(),
});
export type ArtifactSnapshot = z.infer<typeof artifactSnapshotSchema>;

/** Why a binding failed: a snapshot's state, the content changed between them, or a criterion failed. */
export const ARTIFACT_REASONS = ['missing', 'symlink', 'escapes', 'not-a-file', 'too-large', 'over-budget', 'timed-out', 'unreadable', 'changed', 'criterion-failed'] as const;

/** Why a journey failed. Driver messages can quote form values: only the category is kept. */
export const JOURNEY_CATEGORIES = ['timeout', 'step-failed', 'navigation-failed', 'console-error', 'page-error', 'screenshot-failed', 'browser-failed'] as const;
export const journeyCategorySchema = z.enum(JOURNEY_CATEGORIES);
export type JourneyCategory = z.infer<typeof journeyCategorySchema>;

const stepStatus = z.enum(['passed', 'failed', 'skipped']);

export const journeyReportSchema = z.object({
  name: z.string(),
  /** the flow file, project-relative */
  flow: z.string(),
  status: z.enum(['passed', 'failed']),
  category: journeyCategorySchema.nullable(),
  durationMs: z.number().nonnegative(),
  /** opening `base-url` + the flow's path */
  navigation: z.object({ status: stepStatus, category: journeyCategorySchema.nullable(), durationMs: z.number().nonnegative() }),
  steps: z.array(z.object({
    /** 1-based, as in the flow file */
    index: z.number().int().positive(),
    action: z.string(),
    status: stepStatus,
    category: journeyCategorySchema.nullable(),
    durationMs: z.number().nonnegative(),
  })),
  /** file names inside the proof folder */
  screenshot: z.string().nullable(),
  video: z.string().nullable(),
});
export type JourneyReport = z.infer<typeof journeyReportSchema>;

export const criterionReportSchema = z.object({
  name: z.string(),
  kind: z.enum(['command', 'journey']),
  status: z.enum(['passed', 'failed']),
  /** a command's exit code (null when it was killed, could not start, or for a journey) */
  exitCode: z.number().int().nullable(),
  outcome: z.enum(['exited', 'timed-out', 'spawn-failed']).nullable(),
  durationMs: z.number().nonnegative(),
  /** the end of a command's combined output, with every fill value yoke knows redacted */
  outputTail: z.string().nullable(),
});
export type CriterionReport = z.infer<typeof criterionReportSchema>;

export const artifactReportSchema = z.object({
  path: z.string(),
  criteria: z.array(z.string()),
  status: z.enum(['passed', 'failed']),
  reason: z.enum(ARTIFACT_REASONS).nullable(),
  /** the content both snapshots agree on (else the first snapshot's, when it had one) */
  sha256: z.string().nullable(),
  size: z.number().int().nonnegative().nullable(),
  before: artifactSnapshotSchema,
  after: artifactSnapshotSchema,
});
export type ArtifactReport = z.infer<typeof artifactReportSchema>;

export const checkReportSchema = z.object({
  version: z.literal(CHECK_REPORT_VERSION),
  label: z.string(),
  status: z.enum(['passed', 'failed']),
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  criteria: z.array(criterionReportSchema),
  artifacts: z.array(artifactReportSchema),
  journeys: z.array(journeyReportSchema),
  /** git tree ids of the project outside .loop/ (tracked and untracked, not ignored) */
  source: z.object({ before: z.string(), after: z.string(), matches: z.boolean() }),
  config: z.object({
    /** SHA-256 of what decides this check: criteria, commands, timeouts, artifacts, journeys, base URL, and each flow file's bytes */
    digest: z.string(),
    /**
     * SHA-256 of the whole effective yoke.conf (every directive with its defaults, positions and
     * comments left out): `yoke check`'s, or the config the run started with. Null in a run
     * started before yoke recorded it.
     */
    effective: z.string().nullable(),
    flows: z.array(z.object({ journey: z.string(), sha256: z.string() })),
  }),
  baseUrl: z.string().nullable(),
  /**
   * DESIGN §16: the protected files' digest at the check, the baseline's, and whether they match
   * (null: no baseline yet). A check whose protection changed does not pass. Absent without `protect`.
   */
  protection: z.object({ digest: z.string(), baseline: z.string().nullable(), unchanged: z.boolean().nullable() }).optional(),
  versions: z.object({
    yoke: z.string(),
    node: z.string(),
    platform: z.string(),
    arch: z.string(),
    /** the browser's own version; null when no journey ran */
    browser: z.string().nullable(),
  }),
});
export type CheckReport = z.infer<typeof checkReportSchema>;
