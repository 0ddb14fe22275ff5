/**
 * One state type per pipeline stage. Each stage is a pure function from the previous state
 * (plus its settings) to its own, so every intermediate can be inspected and traced.
 */

/** A physical page of a PDF after extraction. */
export interface ExtractedPage {
  /** 1-based physical page index: "PDF page N". */
  pdfPage: number;
  /** The printed label where the PDF defines one that differs from pdfPage. */
  pageLabel: string | null;
  /** Normalised once (NFC, ligatures, line-end hyphenation, whitespace); the text of record. */
  text: string;
}

/** extract: every page of the file, in order. Invariant: pages[i].pdfPage === i + 1. */
export interface ExtractState {
  pageCount: number;
  pages: ExtractedPage[];
  /** Pages with no selectable text (scans); they yield no chunks. */
  pagesWithoutText: number[];
}

export interface ChunkDraft {
  pdfPage: number;
  /** Position of the chunk on its page, from 0. */
  ordinal: number;
  text: string;
  /** Offsets into the page text: page.text.slice(charStart, charEnd) === text. */
  charStart: number;
  charEnd: number;
  tokens: number;
}

/** chunk: never crosses a page; every sentence of a page lies inside some chunk. */
export interface ChunkState {
  chunks: ChunkDraft[];
  settings: ChunkSettings;
}

export interface ChunkSettings {
  targetTokens: number;
  overlapTokens: number;
}

export type CountTokens = (text: string) => number;

// ─── The question path ──────────────────────────────────────────────────────────────────────

/** A passage as retrieval returns it, with everything needed to cite it later. */
export interface Passage {
  chunkId: string;
  revisionId: string;
  documentId: string;
  documentTitle: string;
  revisionNumber: number;
  /** The revision was marked by an instructor as a correction of earlier material. */
  isCorrection: boolean;
  uploadedAt: string;
  pdfPage: number;
  pageLabel: string | null;
  /** Normalised chunk text: exactly what is sent and validated. */
  text: string;
  /** Offset of `text` in its stored page text. */
  charStart: number;
  /** The stored page text just before `text` (a bounded stretch): the heading, table header or worked example a chunk continues; after the previous page's table header and rows when the page opens inside that table, or its last section title (with a worked item's statement, units.ts `sectionTitleEnd`) when the page opens inside that section. */
  before?: string;
  /** Words that name the document rather than an answer (extractive/scope.ts); absent for revisions indexed before they were kept. */
  scopeTerms?: readonly string[];
}

export interface Hit {
  passage: Passage;
  /** 1-based position in the fused list. */
  rank: number;
  /** BM25 score, larger is better (FTS5's bm25() negated). */
  lexicalScore: number | null;
  lexicalRank: number | null;
  denseScore: number | null;
  denseRank: number | null;
  /** Reciprocal-rank fusion score (equal to the lexical one when dense retrieval is off). */
  fusedScore: number;
}

/** retrieve: at most k hits, ranks 1..n without gaps, current revisions of one course only. */
export interface RetrieveState {
  query: string;
  /** The FTS5 expression actually run: every user word quoted, never parsed as syntax. */
  matchExpression: string | null;
  hits: Hit[];
  dense: boolean;
}

/**
 * gate: each hit's best answer-unit probability (the extractive ranker's calibrated score, best
 * requested part) against the floor. Raw BM25 is not used: its scale depends on the course.
 */
export interface GateState {
  floor: number;
  /** Best unit probability per chunk id, in retrieval order. */
  scores: Array<{ chunkId: string; score: number }>;
  passed: Hit[];
  rejected: Hit[];
}

export interface PackSettings {
  contextWindow: number;
  outputReserve: number;
  safetyMargin: number;
  maxPassages: number;
}

export type PackDecisionKind = "included" | "duplicate" | "over_budget" | "cap_reached";

export interface PackDecision {
  chunkId: string;
  rank: number;
  decision: PackDecisionKind;
  /** Tokens of the whole rendered request had this passage been added (null when not tried). */
  trialTokens: number | null;
}

/** A passage that was sent, with its request-local label. */
export interface LabelledPassage extends Passage {
  label: string; // "S1" … "Sn"
}

/** pack: never exceeds the allowance; every candidate has exactly one decision. */
export interface PackState {
  allowance: number;
  fixedTokens: number;
  promptTokens: number;
  /** In the order they appear in the prompt: highest ranks at the edges. */
  selected: LabelledPassage[];
  decisions: PackDecision[];
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** ground: the exact messages sent; only `registry` entries are valid citation targets. */
export interface GroundState {
  messages: ChatMessage[];
  registry: Map<string, LabelledPassage>;
}

export interface Evidence {
  sourceId: string;
  quote: string;
}

export interface DraftClaim {
  text: string;
  evidence: Evidence[];
}

export interface DraftPart {
  /** The requested part of the question this answers ("when is assignment 2 due"). */
  ask: string;
  state: "supported" | "missing" | "conflicting";
  claims: DraftClaim[];
}

/** generate: what a generator returns, LLM or extractive, before any validation. */
export interface GenerateState {
  parts: DraftPart[];
  raw: string;
}

/**
 * `part_state_mismatch`: a "missing" part that carries claims, or a "supported"/"conflicting"
 * part with none; either would publish something the part's state contradicts.
 */
export type CitationProblemKind = "missing_evidence" | "unknown_source_id" | "quote_not_in_passage" | "part_state_mismatch";

export interface CitationProblem {
  kind: CitationProblemKind;
  partIndex: number;
  /** -1 when the problem is the part itself rather than one of its claims. */
  claimIndex: number;
  sourceId?: string;
  detail: string;
}

export interface ResolvedCitation {
  label: string;
  chunkId: string;
  revisionId: string;
  documentId: string;
  documentTitle: string;
  revision: number;
  pdfPage: number;
  pageLabel: string | null;
  quote: string;
  /** Offsets of the quote in the stored page text. */
  charStart: number;
  charEnd: number;
}

export interface ResolvedClaim {
  text: string;
  citations: ResolvedCitation[];
}

export interface ResolvedPart {
  ask: string;
  state: "supported" | "missing" | "conflicting";
  claims: ResolvedClaim[];
}

/** validate: ok only when every claim has ≥1 citation and every citation resolves exactly. */
export type ValidateState = { ok: true; parts: ResolvedPart[] } | { ok: false; problems: CitationProblem[] };

export const answerStatuses = [
  "answered",
  "partial",
  "insufficient_evidence",
  "conflicting_evidence",
  "retrieval_error",
  "validation_failed",
  "generation_error",
  "question_too_long",
  "cancelled",
] as const;
export type AnswerStatus = (typeof answerStatuses)[number];

/** decide: one status with its own explanation and next step. */
export interface DecideState {
  status: AnswerStatus;
  message: string | null;
  nextStep: string | null;
}

// ─── What a client receives (DESIGN.md "The answer a client receives") ─────────────────────

export interface AnswerCitation extends ResolvedCitation {
  uploadedAt: string;
  /** The whole passage the quote sits in (normalised chunk text), to show the quote in context. */
  context: string;
  /** Offset of `context` in the stored page text. */
  contextStart: number;
}

export interface AnswerClaim {
  text: string;
  citations: AnswerCitation[];
}

/**
 * Why a part is missing, as far as the passages searched show: "nothing_found", no passage shares
 * its words; "unmentioned", none names the thing asked about; "no_value", the closest one states
 * no value of the kind asked for; "not_close", the closest one does not answer it closely enough.
 */
export interface PartGap {
  kind: "nothing_found" | "unmentioned" | "no_value" | "not_close";
  /** Said to the student beside the part, and to the instructor among the course's gaps. */
  text: string;
  /**
   * "no_value" and "not_close": the closest passage's best sentence, quoted verbatim like a
   * citation, so the student can read it and judge for themselves. Never an answer.
   */
  closest?: AnswerCitation;
}

export interface AnswerPart {
  ask: string;
  /** "validation_failed": some of the part's claims failed validation twice and were withheld; those that passed are kept. */
  state: "supported" | "missing" | "conflicting" | "validation_failed";
  claims: AnswerClaim[];
  /** Only on a missing part. */
  gap?: PartGap;
}

export interface Answer {
  status: AnswerStatus;
  parts: AnswerPart[];
  /** The explanation of a non-answer (and of partial / conflicting answers). */
  message?: string;
  nextStep?: string;
  /** "extractive" or the model's name. */
  generator: string;
  traceId: string;
}

/** What the pipeline yields while it works, for the chat to stream. */
export type PipelineEvent =
  | { type: "stage"; stage: "rewriting" | "searching" | "reading" | "generating" | "checking" }
  | { type: "retrieved"; hits: number; passed: number }
  | { type: "packed"; passages: number; promptTokens: number }
  /** `repaired`: a claim held earlier, published after the retry fixed its citations. */
  | { type: "claim"; partIndex: number; ask: string; state: AnswerPart["state"]; claim: AnswerClaim; repaired?: true }
  /** A complete claim whose citations failed: it is not sent; the chat holds its place as "checking". */
  | { type: "held"; partIndex: number; ask: string }
  | { type: "status"; answer: Answer };
