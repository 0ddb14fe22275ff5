import { normalizeInline } from "./normalize";
import type { AnswerCitation, CitationProblem, DraftClaim, Evidence, GenerateState, LabelledPassage, Passage, ResolvedCitation, ResolvedClaim, ResolvedPart, ValidateState } from "./types";
import { StageError } from "./errors";

export class PassageNotNormalizedError extends StageError {
  readonly stage = "validate";
  constructor(readonly label: string) {
    super(`Passage ${label} is not in normalised form, so quote offsets cannot be mapped back to its text`);
    this.name = "PassageNotNormalizedError";
  }
}

export function isPassageNotNormalizedError(e: unknown): e is PassageNotNormalizedError {
  return e instanceof PassageNotNormalizedError;
}

/**
 * For each character of normalizeInline(text), its offset in `text`. Passage text is already in
 * normalizeText form, so the only difference left is whitespace folding (line breaks → one space);
 * anything else means the passage skipped normalisation, and offsets would point at the wrong text.
 */
function foldedOffsets(passage: LabelledPassage): { folded: string; origin: number[] } {
  const { text } = passage;
  const folded = normalizeInline(text);
  const origin: number[] = [];
  const isSpace = (i: number) => i < text.length && /\s/.test(text[i]);
  let i = 0;
  while (isSpace(i)) i++;
  for (let j = 0; j < folded.length; j++) {
    if (folded[j] === " " && isSpace(i)) {
      origin.push(i);
      while (isSpace(i)) i++;
    } else if (folded[j] === text[i]) {
      origin.push(i++);
    } else {
      throw new PassageNotNormalizedError(passage.label);
    }
  }
  while (isSpace(i)) i++;
  if (i !== text.length) throw new PassageNotNormalizedError(passage.label);
  return { folded, origin };
}

type Resolution = { citation: ResolvedCitation } | { problem: Pick<CitationProblem, "kind" | "sourceId" | "detail"> };

/**
 * Exact match after normalizeInline on both sides: a model re-wrapping a line or emitting a
 * ligature is not misquoting, but nothing else is forgiven, so the resolved excerpt is still the
 * stored text itself. The first occurrence is cited.
 */
function resolveEvidence({ sourceId, quote }: Evidence, registry: Map<string, LabelledPassage>): Resolution {
  const passage = registry.get(sourceId);
  if (!passage) return { problem: { kind: "unknown_source_id", sourceId, detail: `${sourceId} is not one of the passages you were given.` } };
  const needle = normalizeInline(quote);
  if (needle === "") return { problem: { kind: "quote_not_in_passage", sourceId, detail: `The quote for ${sourceId} is empty.` } };
  const { folded, origin } = foldedOffsets(passage);
  const at = folded.indexOf(needle);
  if (at < 0) return { problem: { kind: "quote_not_in_passage", sourceId, detail: `The quote "${quote}" does not occur word for word in ${sourceId}.` } };
  // The needle is trimmed, so its first and last characters are never folded whitespace.
  const start = origin[at];
  const end = origin[at + needle.length - 1] + 1;
  return {
    citation: {
      label: passage.label,
      chunkId: passage.chunkId,
      revisionId: passage.revisionId,
      documentId: passage.documentId,
      documentTitle: passage.documentTitle,
      revision: passage.revisionNumber,
      pdfPage: passage.pdfPage,
      pageLabel: passage.pageLabel,
      quote: passage.text.slice(start, end),
      charStart: passage.charStart + start,
      charEnd: passage.charStart + end,
    },
  };
}

function resolveClaim(claim: DraftClaim, at: { partIndex: number; claimIndex: number }, registry: Map<string, LabelledPassage>, problems: CitationProblem[]): ResolvedClaim {
  if (claim.evidence.length === 0) problems.push({ kind: "missing_evidence", ...at, detail: "The claim cites no passage." });
  const citations: ResolvedCitation[] = [];
  for (const evidence of claim.evidence) {
    const resolution = resolveEvidence(evidence, registry);
    if ("problem" in resolution) problems.push({ ...resolution.problem, ...at });
    else citations.push(resolution.citation);
  }
  return { text: claim.text, citations };
}

/** A resolved citation as the client receives it: with its passage's upload date and the passage around the quote. */
export const answerCitation = (cit: ResolvedCitation, passage: Passage): AnswerCitation => ({ ...cit, uploadedAt: passage.uploadedAt, context: passage.text, contextStart: passage.charStart });

/** One claim checked on its own, as a streamed answer is: its citations resolved, or the problems that hold it back. */
export function validateClaim(claim: DraftClaim, at: { partIndex: number; claimIndex: number }, registry: Map<string, LabelledPassage>): { claim: ResolvedClaim; problems: CitationProblem[] } {
  const problems: CitationProblem[] = [];
  return { claim: resolveClaim(claim, at, registry, problems), problems };
}

/**
 * validate: resolves every citation against the passages actually sent and collects every problem.
 * ok only when there are none: a claim is never published with a broken citation silently dropped.
 * A valid citation proves the quote exists, not that it supports the claim.
 */
export function validate(generated: GenerateState, registry: Map<string, LabelledPassage>): ValidateState {
  const problems: CitationProblem[] = [];
  const parts = generated.parts.map((part, partIndex): ResolvedPart => {
    if (part.state === "missing") {
      part.claims.forEach((_, claimIndex) =>
        problems.push({ kind: "part_state_mismatch", partIndex, claimIndex, detail: 'The part is marked "missing" but makes this claim; a missing part has no claims.' }),
      );
      return { ask: part.ask, state: part.state, claims: [] };
    }
    if (part.claims.length === 0) {
      problems.push({ kind: "part_state_mismatch", partIndex, claimIndex: -1, detail: `The part is marked "${part.state}" but makes no claims; mark it "missing" instead.` });
    }
    const claims = part.claims.map((claim, claimIndex) => resolveClaim(claim, { partIndex, claimIndex }, registry, problems));
    return { ask: part.ask, state: part.state, claims };
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, parts };
}
