import { sql, type InferSelectModel } from "drizzle-orm";
import { integer, real, sqliteTable, text, uniqueIndex, index, blob, primaryKey } from "drizzle-orm/sqlite-core";

const now = sql`(unixepoch('subsec') * 1000)`;
const createdAt = () => integer("created_at", { mode: "timestamp_ms" }).notNull().default(now);

export const courses = sqliteTable("courses", {
  id: text("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  title: text("title").notNull(),
  joinCode: text("join_code").notNull().unique(),
  createdAt: createdAt(),
});
export type Course = InferSelectModel<typeof courses>;

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  passwordHash: text("password_hash"),
  createdAt: createdAt(),
});
export type User = InferSelectModel<typeof users>;

/** Server-side sessions: the cookie holds a random token, the table only its SHA-256. */
export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user").on(t.userId)],
);
export type Session = InferSelectModel<typeof sessions>;

export const memberships = sqliteTable(
  "memberships",
  {
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    courseId: text("course_id").notNull().references(() => courses.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["instructor", "student"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseId] })],
);
export type Membership = InferSelectModel<typeof memberships>;

/** A logical document of a course; its content lives in revisions. */
export const documents = sqliteTable(
  "documents",
  {
    id: text("id").primaryKey(),
    courseId: text("course_id").notNull().references(() => courses.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    /** The one revision that is searchable; null until the first revision is ready, and after deletion. */
    currentRevisionId: text("current_revision_id"),
    /** Deleted by an instructor: hidden and unsearchable, but its revisions stay so old citations still resolve. */
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("documents_course_title").on(t.courseId, t.title)],
);
export type Document = InferSelectModel<typeof documents>;

export const revisionStatuses = ["queued", "extracting", "indexing", "ready", "failed"] as const;
export type RevisionStatus = (typeof revisionStatuses)[number];

export const revisions = sqliteTable(
  "revisions",
  {
    id: text("id").primaryKey(),
    documentId: text("document_id").notNull().references(() => documents.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    sha256: text("sha256").notNull(),
    fileName: text("file_name").notNull(),
    size: integer("size").notNull(),
    pageCount: integer("page_count"),
    status: text("status", { enum: revisionStatuses }).notNull().default("queued"),
    /** Pages processed so far while extracting/indexing, for progress bars. */
    progress: integer("progress").notNull().default(0),
    error: text("error"),
    /** A non-fatal finding, e.g. pages without selectable text. */
    warning: text("warning"),
    isCorrection: integer("is_correction", { mode: "boolean" }).notNull().default(false),
    /** Words that name the document rather than any answer in it (its title line, words on most pages), as a JSON array; see lib/rag/extractive/scope.ts. */
    scopeTerms: text("scope_terms", { mode: "json" }).$type<string[]>(),
    uploadedAt: integer("uploaded_at", { mode: "timestamp_ms" }).notNull().default(now),
    readyAt: integer("ready_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("revisions_document_number").on(t.documentId, t.number), index("revisions_sha").on(t.documentId, t.sha256)],
);
export type Revision = InferSelectModel<typeof revisions>;

/** The uploaded bytes, kept apart so listing revisions never loads them. */
export const revisionFiles = sqliteTable("revision_files", {
  revisionId: text("revision_id").primaryKey().references(() => revisions.id, { onDelete: "cascade" }),
  bytes: blob("bytes", { mode: "buffer" }).notNull(),
});
export type RevisionFile = InferSelectModel<typeof revisionFiles>;

export const pages = sqliteTable(
  "pages",
  {
    revisionId: text("revision_id").notNull().references(() => revisions.id, { onDelete: "cascade" }),
    /** 1-based physical page index ("PDF page N"). */
    pdfPage: integer("pdf_page").notNull(),
    /** The printed label where the PDF defines one and it differs from pdfPage. */
    pageLabel: text("page_label"),
    /** Normalised text: what chunks slice, what is indexed, sent and validated. */
    text: text("text").notNull(),
  },
  (t) => [primaryKey({ columns: [t.revisionId, t.pdfPage] })],
);
export type Page = InferSelectModel<typeof pages>;

export const chunks = sqliteTable(
  "chunks",
  {
    /** Integer key for the FTS5 external-content table (stable across VACUUM, unlike rowid). */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    revisionId: text("revision_id").notNull().references(() => revisions.id, { onDelete: "cascade" }),
    documentId: text("document_id").notNull(),
    courseId: text("course_id").notNull(),
    pdfPage: integer("pdf_page").notNull(),
    ordinal: integer("ordinal").notNull(),
    text: text("text").notNull(),
    charStart: integer("char_start").notNull(),
    charEnd: integer("char_end").notNull(),
    tokens: integer("tokens").notNull(),
  },
  (t) => [index("chunks_revision").on(t.revisionId, t.pdfPage, t.ordinal), index("chunks_course").on(t.courseId)],
);
export type Chunk = InferSelectModel<typeof chunks>;

export const jobStatuses = ["queued", "running", "done", "failed"] as const;

export const ingestionJobs = sqliteTable(
  "ingestion_jobs",
  {
    id: text("id").primaryKey(),
    revisionId: text("revision_id").notNull().references(() => revisions.id, { onDelete: "cascade" }),
    status: text("status", { enum: jobStatuses }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
    createdAt: createdAt(),
    startedAt: integer("started_at", { mode: "timestamp_ms" }),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    /** The process that holds a running job, and until when: an expired lease is reclaimed by any process. */
    leaseOwner: text("lease_owner"),
    leaseUntil: integer("lease_until", { mode: "timestamp_ms" }),
  },
  (t) => [index("ingestion_jobs_status").on(t.status, t.createdAt)],
);
export type IngestionJob = InferSelectModel<typeof ingestionJobs>;

export const conversations = sqliteTable("conversations", {
  id: text("id").primaryKey(),
  courseId: text("course_id").notNull().references(() => courses.id, { onDelete: "cascade" }),
  userId: text("user_id"),
  title: text("title").notNull(),
  createdAt: createdAt(),
});
export type Conversation = InferSelectModel<typeof conversations>;

export const messages = sqliteTable(
  "messages",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id").notNull().references(() => conversations.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    content: text("content").notNull(),
    /** The answer status for assistant messages (answered, partial, …). */
    status: text("status"),
    /** The full answer object as the client received it. */
    answer: text("answer", { mode: "json" }),
    traceId: text("trace_id").references(() => traces.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("messages_conversation").on(t.conversationId, t.createdAt)],
);
export type Message = InferSelectModel<typeof messages>;

export const claims = sqliteTable("claims", {
  id: text("id").primaryKey(),
  messageId: text("message_id").notNull().references(() => messages.id, { onDelete: "cascade" }),
  partIndex: integer("part_index").notNull(),
  ordinal: integer("ordinal").notNull(),
  text: text("text").notNull(),
});
export type Claim = InferSelectModel<typeof claims>;

export const citations = sqliteTable("citations", {
  id: text("id").primaryKey(),
  claimId: text("claim_id").notNull().references(() => claims.id, { onDelete: "cascade" }),
  label: text("label").notNull(),
  chunkId: text("chunk_id").notNull(),
  revisionId: text("revision_id").notNull(),
  pdfPage: integer("pdf_page").notNull(),
  pageLabel: text("page_label"),
  quote: text("quote").notNull(),
  /** Offsets of the quote in the stored page text. */
  charStart: integer("char_start").notNull(),
  charEnd: integer("char_end").notNull(),
});
export type Citation = InferSelectModel<typeof citations>;

export const traces = sqliteTable("traces", {
  id: text("id").primaryKey(),
  courseId: text("course_id").notNull().references(() => courses.id, { onDelete: "cascade" }),
  question: text("question").notNull(),
  status: text("status").notNull(),
  data: text("data", { mode: "json" }).notNull(),
  createdAt: createdAt(),
});
export type Trace = InferSelectModel<typeof traces>;


/** Fixed-window request counters, kept in the database so that every app process sees the same limits. */
export const rateLimits = sqliteTable("rate_limits", {
  /** "action:key", e.g. "questions:usr_…". */
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull(),
});

export const deckVisibilities = ["private", "course"] as const;
export const deckStatuses = ["generating", "ready", "failed"] as const;

/** A deck of study cards: private to the student who made it, or published by an instructor to the course. */
export const decks = sqliteTable(
  "decks",
  {
    id: text("id").primaryKey(),
    courseId: text("course_id").notNull().references(() => courses.id, { onDelete: "cascade" }),
    ownerId: text("owner_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    visibility: text("visibility", { enum: deckVisibilities }).notNull().default("private"),
    /** What the deck was drawn from: a document (null = the whole course) and an optional PDF page range. */
    documentId: text("document_id").references(() => documents.id, { onDelete: "set null" }),
    pageFrom: integer("page_from"),
    pageTo: integer("page_to"),
    status: text("status", { enum: deckStatuses }).notNull().default("generating"),
    /** Pages read so far and in all, while generating. */
    progress: integer("progress").notNull().default(0),
    total: integer("total").notNull().default(0),
    /** Model-written cards thrown away because their quote was not in the notes (never shown). */
    dropped: integer("dropped").notNull().default(0),
    error: text("error"),
    publishedAt: integer("published_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [index("decks_course").on(t.courseId, t.visibility)],
);
export type Deck = InferSelectModel<typeof decks>;

export const cardKinds = ["definition", "cloze", "question"] as const;
export const cardStatuses = ["active", "changed", "retired"] as const;

/** A card cites the notes like a claim: chunk, revision, PDF page, printed page, verbatim quote and its offsets in the page text. */
export const cards = sqliteTable(
  "cards",
  {
    id: text("id").primaryKey(),
    deckId: text("deck_id").notNull().references(() => decks.id, { onDelete: "cascade" }),
    ordinal: integer("ordinal").notNull(),
    kind: text("kind", { enum: cardKinds }).notNull(),
    /** The prompt: a term to define, or the quote with its value blanked as "____". */
    front: text("front").notNull(),
    back: text("back").notNull(),
    /** The answer's type (a wink entity type, "TERM" or "DEFINITION"), which distractors share. */
    answerType: text("answer_type").notNull(),
    /** Wrong choices for multiple choice, never equal to the answer; may be empty. */
    distractors: text("distractors", { mode: "json" }).$type<string[]>().notNull(),
    documentId: text("document_id").notNull().references(() => documents.id, { onDelete: "cascade" }),
    revisionId: text("revision_id").notNull().references(() => revisions.id, { onDelete: "cascade" }),
    chunkId: text("chunk_id").notNull(),
    pdfPage: integer("pdf_page").notNull(),
    pageLabel: text("page_label"),
    quote: text("quote").notNull(),
    charStart: integer("char_start").notNull(),
    charEnd: integer("char_end").notNull(),
    /** "changed": the quote is gone from the current revision; the schedule pauses until someone keeps, edits or retires the card. */
    status: text("status", { enum: cardStatuses }).notNull().default("active"),
    /** The revision number that changed the card, and the passage found there that most resembles the old quote. */
    changedInRevision: integer("changed_in_revision"),
    newPassage: text("new_passage"),
    newPdfPage: integer("new_pdf_page"),
    /** The highest revision number this card was checked against (a kept card is not flagged again by the same revision). */
    checkedRevision: integer("checked_revision").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("cards_deck").on(t.deckId, t.ordinal), index("cards_document").on(t.documentId, t.status)],
);
export type Card = InferSelectModel<typeof cards>;

/** FSRS memory state of one student for one card (ts-fsrs's Card fields). */
export const reviews = sqliteTable(
  "reviews",
  {
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    cardId: text("card_id").notNull().references(() => cards.id, { onDelete: "cascade" }),
    courseId: text("course_id").notNull().references(() => courses.id, { onDelete: "cascade" }),
    due: integer("due", { mode: "timestamp_ms" }).notNull(),
    stability: real("stability").notNull(),
    difficulty: real("difficulty").notNull(),
    elapsedDays: integer("elapsed_days").notNull(),
    scheduledDays: integer("scheduled_days").notNull(),
    learningSteps: integer("learning_steps").notNull(),
    reps: integer("reps").notNull(),
    lapses: integer("lapses").notNull(),
    /** ts-fsrs State: 0 new, 1 learning, 2 review, 3 relearning. */
    state: integer("state").notNull(),
    lastReview: integer("last_review", { mode: "timestamp_ms" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.cardId] }), index("reviews_due").on(t.userId, t.courseId, t.due)],
);
export type Review = InferSelectModel<typeof reviews>;

/** One grade given, for the progress chart. */
export const reviewLogs = sqliteTable(
  "review_logs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    cardId: text("card_id").notNull().references(() => cards.id, { onDelete: "cascade" }),
    courseId: text("course_id").notNull().references(() => courses.id, { onDelete: "cascade" }),
    /** 1 again, 2 hard, 3 good, 4 easy. */
    grade: integer("grade").notNull(),
    reviewedAt: integer("reviewed_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("review_logs_user").on(t.userId, t.courseId, t.reviewedAt)],
);

// ─── The instructor's workbench: golden sets, evaluation runs, probes ───────────────────────

/** A named set of golden questions of one course (the lib/eval format, kept in the database). */
export const goldenSets = sqliteTable(
  "golden_sets",
  {
    id: text("id").primaryKey(),
    courseId: text("course_id").notNull().references(() => courses.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("golden_sets_course_name").on(t.courseId, t.name)],
);
export type GoldenSet = InferSelectModel<typeof goldenSets>;

/** A gold passage: a page of a document, narrowed to the picked text (and its offsets in the page text) when known. */
export interface StoredGoldPassage {
  document: string;
  pdfPage: number;
  quote?: string;
  charStart?: number;
  charEnd?: number;
}

export const goldenQuestions = sqliteTable(
  "golden_questions",
  {
    id: text("id").primaryKey(),
    setId: text("set_id").notNull().references(() => goldenSets.id, { onDelete: "cascade" }),
    /** The question's id in the JSONL format, unique within its set. */
    key: text("key").notNull(),
    ordinal: integer("ordinal").notNull(),
    kind: text("kind", { enum: ["answerable", "unanswerable", "two-part", "follow-up"] }).notNull(),
    expect: text("expect", { enum: ["answered", "partial", "insufficient_evidence", "conflicting_evidence"] }).notNull(),
    question: text("question").notNull(),
    history: text("history", { mode: "json" }).$type<string[]>().notNull(),
    /** The expected answer: a short text the cited quote or the claim must contain. */
    answer: text("answer"),
    passages: text("passages", { mode: "json" }).$type<StoredGoldPassage[]>().notNull(),
    split: text("split", { enum: ["tune", "test"] }).notNull().default("test"),
    offTopic: integer("off_topic", { mode: "boolean" }).notNull().default(false),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("golden_questions_set_key").on(t.setId, t.key), index("golden_questions_set").on(t.setId, t.ordinal)],
);
export type GoldenQuestionRow = InferSelectModel<typeof goldenQuestions>;

export const evalRunKinds = ["single", "ab", "chunk_sizes"] as const;
export const evalRunStatuses = ["running", "done", "failed"] as const;

/** One evaluation of a golden set: its settings, progress while it runs, and its report (JSON) once done. */
export const evalRuns = sqliteTable(
  "eval_runs",
  {
    id: text("id").primaryKey(),
    courseId: text("course_id").notNull().references(() => courses.id, { onDelete: "cascade" }),
    setId: text("set_id").references(() => goldenSets.id, { onDelete: "set null" }),
    /** The set's name when the run was made (the set may be deleted later). */
    setName: text("set_name").notNull(),
    kind: text("kind", { enum: evalRunKinds }).notNull(),
    status: text("status", { enum: evalRunStatuses }).notNull().default("running"),
    /** The configurations run (one, two for A/B, one per chunk size), as JSON. */
    configs: text("configs", { mode: "json" }).notNull(),
    progress: integer("progress").notNull().default(0),
    total: integer("total").notNull(),
    report: text("report", { mode: "json" }),
    error: text("error"),
    createdAt: createdAt(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("eval_runs_course").on(t.courseId, t.createdAt)],
);
export type EvalRun = InferSelectModel<typeof evalRuns>;

/** One evidence-substitution probe: the question, its three traces and the conclusion in words. */
export const probeRuns = sqliteTable(
  "probe_runs",
  {
    id: text("id").primaryKey(),
    courseId: text("course_id").notNull().references(() => courses.id, { onDelete: "cascade" }),
    question: text("question").notNull(),
    verdict: text("verdict").notNull(),
    summary: text("summary").notNull(),
    /** The three conditions as the page shows them (requests, contexts, outcomes). */
    conditions: text("conditions", { mode: "json" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("probe_runs_course").on(t.courseId, t.createdAt)],
);

/** An instructor's settings for a course's answers; absent fields keep the defaults. */
export const courseSettings = sqliteTable("course_settings", {
  courseId: text("course_id").primaryKey().references(() => courses.id, { onDelete: "cascade" }),
  /** The answer-score floor (gate and extractive generator), set from the score-distribution chart. */
  minScore: real("min_score"),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now),
});
