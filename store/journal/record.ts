// The journal record: envelope schema and per-type payload schemas (DESIGN §6).
import { z } from 'zod';
import { modeSchema, rulingSchema, toolClassSchema } from '../../config/types.js';
import { protectionSchema } from '../../machines/protect/protection.js';
import { ANSWER_SCOPES } from '../../policy/ruling/tool-answer.js';
import { modeTagSchema, stashEntrySchema, stashIdSchema, stashOpSchema } from '../stash/stash-entry.js';

/** Bump when the record envelope or a payload changes incompatibly. */
export const SCHEMA_VERSION = 1;
const keySchema = z.string().min(1);

/** Payload schema per record type. Effect params/results are checked again per kind by the runner. */
export const payloadSchemas = {
  'run.started': z.object({
    mode: z.string(),
    /** the machine's input: parsed config, prompt templates, paths. */
    input: z.unknown(),
    /** how it was started: `yoke run`, `yoke demo`, … */
    argv: z.array(z.string()),
  }),
  'run.resumed': z.object({ pid: z.number().int() }),
  'run.abandoned': z.object({ reason: z.string() }),
  'run.interrupted': z.object({ signal: z.string() }),
  /** the machine waits for an outside input (e.g. `budget:tokens`); `yoke run` goes on once it arrives */
  'run.paused': z.object({ reason: z.string() }),
  'run.finished': z.object({
    state: z.string(),
    exitCode: z.number().int(),
    reason: z.string(),
    /** the digest of the protection baseline the run ended under (DESIGN §16); absent without `protect` */
    protection: z.string().optional(),
  }),
  event: z.object({ cause: keySchema.nullable(), event: z.object({ type: z.string() }).loose() }),
  'effect.started': z.object({ key: keySchema, kind: z.string(), params: z.unknown(), attempt: z.number().int().positive() }),
  'effect.completed': z.object({ key: keySchema, kind: z.string(), result: z.unknown() }),
  'effect.interrupted': z.object({ key: keySchema, kind: z.string(), reason: z.string() }),
  'effect.failed': z.object({ key: keySchema, kind: z.string(), message: z.string() }),
  'process.spawned': z.object({ key: keySchema, pid: z.number().int(), startTime: z.string().nullable() }),
  /**
   * the run's fold after record `upTo` was saved as a checkpoint (`.journal/checkpoint.json`) whose
   * digest is this; a checkpoint is trusted only when the journal vouches for it with this record
   * (docs/performance.md, "Resume and status from a checkpoint")
   */
  checkpoint: z.object({ upTo: z.number().int().positive(), digest: z.string().regex(/^[0-9a-f]{64}$/) }),
  /**
   * a torn tail was cut off: where it started in the stored journal (bytes) and its length. Journals
   * written before the store seam name the 1-based line instead; both verify and replay.
   */
  'journal.repaired': z.union([
    z.object({ offset: z.number().int().nonnegative(), droppedBytes: z.number().int() }),
    z.object({ line: z.number().int(), droppedBytes: z.number().int() }),
  ]),
  // Tool-call control (DESIGN §13, docs/tool-control.md): what the gate was asked, how yoke ruled,
  // and the operator's answers. The machines never see them; replay shows and verifies them.
  /** an agent's tool call reached the gate: the hook's fields, and the scope it was classified in */
  'tool.requested': z.object({
    /** the hold id `yoke answer` names (short, stable for the call) */
    id: z.string().min(1),
    /** the CLI's id for the call (Claude's tool_use_id), else one derived from the tool and input */
    callId: z.string().min(1),
    /** the agent.spawn effect the call belongs to (null: no run) */
    key: z.string().nullable(),
    agent: z.string(),
    /** null: the hook's JSON could not be read */
    tool: z.string().nullable(),
    input: z.unknown(),
    /** the ToolScope the call was classified in (policy/tool-scope.ts) */
    scope: z.unknown(),
    /** the hook text when it could not be read (cut to 2000 characters) */
    unreadable: z.string().optional(),
  }),
  /** the ruling on a requested call: what, on which class, from which source, and the model's sentence */
  'tool.ruled': z.object({
    id: z.string().min(1),
    ruling: rulingSchema,
    class: toolClassSchema.nullable(),
    classes: z.array(toolClassSchema),
    source: z.union([
      z.object({ kind: z.literal('table') }),
      z.object({ kind: z.literal('conf'), line: z.number().int() }),
      z.object({ kind: z.literal('answer'), id: z.string(), scope: z.enum(ANSWER_SCOPES) }),
      z.object({ kind: z.literal('unreadable') }),
    ]),
    message: z.string(),
    /** `advisory`: recorded, not enforced (the CLI was told to let the call run) */
    enforced: z.boolean(),
  }),
  /** the operator's answer to a held call (`yoke answer`) */
  'tool.answered': z.object({
    /** the answer's own id (what `--revoke` names) */
    answer: z.string().min(1),
    /** the hold it answers */
    id: z.string().min(1),
    callId: z.string().min(1),
    tool: z.string(),
    class: toolClassSchema,
    ruling: z.enum(['pass', 'refuse']),
    scope: z.enum(ANSWER_SCOPES),
    why: z.string().nullable(),
  }),
  /** a standing answer ended (`yoke answer --revoke`) */
  'tool.revoked': z.object({ answer: z.string().min(1) }),
  // Stash records (run: null) are the stash index; docs/stash.md describes the protocol.
  /** a stash command's intent, durable before `.loop/` changes; `work` names its folder in `.loop/.stash/work/` */
  'stash.begun': z.object({
    op: stashOpSchema,
    work: z.string().regex(/^[0-9a-f]{16}$/),
    /** the entry this operation stashes first (its `stash.pushed` is in the same write) */
    push: stashIdSchema.nullable(),
    /** the entry it brings back (pop, checkout) */
    restore: stashIdSchema.nullable(),
    /** the files it writes after stashing (clean, mode) */
    init: z.object({ mode: modeSchema, entries: z.array(stashEntrySchema) }).nullable(),
  }),
  /** a stash entry: one line of the index, never changed afterwards */
  'stash.pushed': z.object({
    id: stashIdSchema,
    tree: stashIdSchema,
    mode: modeTagSchema,
    message: z.string().nullable(),
    via: stashOpSchema,
    files: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    entries: z.array(stashEntrySchema),
  }),
  /** the entry's files have left `.loop/` (they are objects now) */
  'stash.cleared': z.object({ id: stashIdSchema }),
  /** the entry's files are back in `.loop/` */
  'stash.restored': z.object({ id: stashIdSchema, via: z.enum(['pop', 'checkout']) }),
  /** the operation finished (`done`) or was undone before it changed anything (`rolled-back`) */
  'stash.ended': z.object({ op: stashOpSchema, outcome: z.enum(['done', 'rolled-back']) }),
  // Protection records (run: null) are the protection baseline's history (DESIGN §16, docs/protect.md).
  /** the first protection baseline, taken by the first run with `protect` directives */
  'protect.baseline': z.object({ protection: protectionSchema }),
  /** `yoke protect refresh`: the user accepted the protected files as they are now */
  'protect.refreshed': z.object({
    protection: protectionSchema,
    /** the digest of the baseline this one replaces */
    previous: z.string(),
    /** `--why`, or null */
    why: z.string().nullable(),
    /** every path that differs from the previous baseline: old and new sha256 (null = absent) and modes */
    changes: z.array(z.object({
      path: z.string(),
      kind: z.enum(['modified', 'mode', 'deleted', 'added']),
      before: z.string().nullable(),
      after: z.string().nullable(),
    })),
    /** the patterns before, when they changed */
    previousPatterns: z.array(z.string()).optional(),
  }),
} as const;

export type RecordType = keyof typeof payloadSchemas;
export const RECORD_TYPES = Object.keys(payloadSchemas) as RecordType[];
export type Payload<T extends RecordType> = z.infer<(typeof payloadSchemas)[T]>;

/** The envelope every journal line carries. */
export const envelopeSchema = z.object({
  v: z.number().int(),
  seq: z.number().int().positive(),
  id: z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'not a ULID'),
  ts: z.iso.datetime(),
  run: z.string().nullable(),
  machine: z.string().nullable(),
  mv: z.number().int().nullable(),
  type: z.enum(RECORD_TYPES as [RecordType, ...RecordType[]]),
  payload: z.unknown(),
  prev: z.string().regex(/^[0-9a-f]{64}$/, 'not a sha256 hex digest'),
});

/** A validated journal record, typed by its `type`. */
export type JournalRecord = {
  [T in RecordType]: Omit<z.infer<typeof envelopeSchema>, 'type' | 'payload'> & { type: T; payload: Payload<T> };
}[RecordType];

/** The record that starts a run: its mode, its machine's input and how it was started. */
export type StartedRecord = Extract<JournalRecord, { type: 'run.started' }>;

/** What a caller supplies to append; the journal fills seq, id, ts, prev and the schema version. */
export type RecordDraft = {
  [T in RecordType]: { type: T; run: string | null; machine: string | null; mv: number | null; payload: Payload<T> };
}[RecordType];

/**
 * Validate a parsed line; returns the record or a one-sentence reason. Every line of a journal
 * passes here, so a well-formed envelope is recognized by hand first (`wellFormedEnvelope` accepts
 * only what `envelopeSchema` accepts); anything else goes through the schema, which words the reason.
 * The payload is checked against its type's schema either way, once. `digest`, when given, is a
 * string known to be a sha256 hex digest (the hash the chain expects as `prev`): a `prev` equal to
 * it needs no pattern test.
 */
export function checkRecord(value: unknown, digest?: string): { record: JournalRecord } | { error: string } {
  if (wellFormedEnvelope(value, digest)) {
    if (wellFormedPayload(value.type, value.payload)) return { record: value as JournalRecord };
    const payload = payloadSchemas[value.type].safeParse(value.payload);
    if (!payload.success) return { error: `${value.type} payload: ${describe(payload.error)}` };
    value.payload = payload.data;
    return { record: value as JournalRecord };
  }
  const envelope = envelopeSchema.safeParse(value);
  if (!envelope.success) return { error: describe(envelope.error) };
  if (envelope.data.v > SCHEMA_VERSION) {
    return { error: `record schema version ${envelope.data.v} is newer than this yoke understands (${SCHEMA_VERSION}); upgrade yoke` };
  }
  const payload = payloadSchemas[envelope.data.type].safeParse(envelope.data.payload);
  if (!payload.success) return { error: `${envelope.data.type} payload: ${describe(payload.error)}` };
  return { record: { ...envelope.data, payload: payload.data } as JournalRecord };
}

const ENVELOPE_KEYS = 10;
const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const HASH_PATTERN = /^[0-9a-f]{64}$/;
/** Is `value` a sha256 hex digest, as `prev` must be? */
export function isHexDigest(value: string): boolean {
  return HASH_PATTERN.test(value);
}
const TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const KNOWN_TYPES = new Set<string>(RECORD_TYPES);

type Envelope = z.infer<typeof envelopeSchema> & Record<string, unknown>;

/**
 * The envelope exactly as yoke writes it: the ten fields (no others) with valid values, a schema
 * version this yoke reads, and a timestamp in `Date.prototype.toISOString` form. A subset of what
 * `envelopeSchema` accepts; false means "ask the schema", not "invalid".
 */
function wellFormedEnvelope(value: unknown, digest: string | undefined): value is Envelope {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const r = value as Record<string, unknown>;
  return Object.keys(r).length === ENVELOPE_KEYS
    && Number.isSafeInteger(r.v) && (r.v as number) <= SCHEMA_VERSION
    && Number.isSafeInteger(r.seq) && (r.seq as number) > 0
    && typeof r.id === 'string' && ULID_PATTERN.test(r.id)
    && typeof r.ts === 'string' && TIME_PATTERN.test(r.ts) && realInstant(r.ts)
    && (r.run === null || typeof r.run === 'string')
    && (r.machine === null || typeof r.machine === 'string')
    && (r.mv === null || Number.isSafeInteger(r.mv))
    && typeof r.type === 'string' && KNOWN_TYPES.has(r.type)
    && 'payload' in r && r.payload !== undefined
    && typeof r.prev === 'string' && (r.prev === digest || HASH_PATTERN.test(r.prev));
}

const isKey = (value: unknown): boolean => typeof value === 'string' && value.length > 0;
const isInt = (value: unknown): boolean => Number.isSafeInteger(value);
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` has exactly these keys (none missing, none extra), so the schema would neither strip nor refuse one. */
function exactKeys(value: Record<string, unknown>, count: number): boolean {
  return Object.keys(value).length === count;
}

/**
 * The payloads of the records every run writes most (events, effects, spawns) exactly as yoke
 * writes them: the schema's keys, no others, valid values. Here `payloadSchemas` would return the
 * same value, so parsing it again is skipped; false means "ask the schema", not "invalid".
 */
const WELL_FORMED_PAYLOAD: Partial<Record<RecordType, (payload: Record<string, unknown>) => boolean>> = {
  event: (p) => exactKeys(p, 2) && (p.cause === null || isKey(p.cause)) && isPlainObject(p.event) && typeof p.event.type === 'string',
  'effect.started': (p) => exactKeys(p, 4) && isKey(p.key) && typeof p.kind === 'string' && p.params !== undefined
    && isInt(p.attempt) && (p.attempt as number) > 0,
  'effect.completed': (p) => exactKeys(p, 3) && isKey(p.key) && typeof p.kind === 'string' && p.result !== undefined,
  'process.spawned': (p) => exactKeys(p, 3) && isKey(p.key) && isInt(p.pid) && (p.startTime === null || typeof p.startTime === 'string'),
};

function wellFormedPayload(type: RecordType, payload: unknown): boolean {
  const check = WELL_FORMED_PAYLOAD[type];
  return check !== undefined && isPlainObject(payload) && check(payload);
}

/** A real instant in the form `TIME_PATTERN` matched (no 30 February, no hour 24, no second 60). */
function realInstant(ts: string): boolean {
  const year = digits(ts, 0, 4);
  const month = digits(ts, 5, 2);
  const day = digits(ts, 8, 2);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return month >= 1 && month <= 12 && day >= 1 && day <= days
    && digits(ts, 11, 2) <= 23 && digits(ts, 14, 2) <= 59 && digits(ts, 17, 2) <= 59;
}

/** The number written by the `count` ASCII digits of `text` at `from` (read without slicing: every record's timestamp passes here). */
function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let index = from; index < from + count; index += 1) value = value * 10 + text.charCodeAt(index) - 48;
  return value;
}

function describe(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'invalid record';
  const path = first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  return `${path}${first.message}`;
}
