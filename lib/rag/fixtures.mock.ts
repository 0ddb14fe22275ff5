/** Test fixtures for the question path: a passage or hit with plausible metadata, overridable field by field. */
import type { Hit, LabelledPassage, Passage } from "./types";

export function makePassage(text: string, overrides: Partial<Passage> = {}): Passage {
  return {
    chunkId: `chunk-${text.length}-${text.slice(0, 12)}`,
    revisionId: "rev-1",
    documentId: "doc-1",
    documentTitle: "training-notes",
    revisionNumber: 1,
    isCorrection: false,
    uploadedAt: "2025-01-01T00:00:00.000Z",
    pdfPage: 1,
    pageLabel: null,
    text,
    charStart: 0,
    ...overrides,
  };
}

export function makeLabelled(label: string, text: string, overrides: Partial<Passage> = {}): LabelledPassage {
  return { ...makePassage(text, overrides), label };
}

export function makeHit(text: string, rank: number, overrides: Partial<Omit<Hit, "passage">> & { passage?: Partial<Passage> } = {}): Hit {
  const { passage, ...scores } = overrides;
  return {
    passage: makePassage(text, { chunkId: `chunk-${rank}`, ...passage }),
    rank,
    lexicalScore: 1,
    lexicalRank: rank,
    denseScore: null,
    denseRank: null,
    fusedScore: 1 / (60 + rank),
    ...scores,
  };
}
