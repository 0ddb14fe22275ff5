/**
 * The one entry point the app uses into lib/rag: it composes the stages. Ingestion is
 * extract → chunk; the question path is retrieve → gate → pack → ground → generate →
 * validate → decide, with a trace of every step.
 */
import { historyLimit } from "./prompts";
import { chunkPages, defaultChunkSettings } from "./chunk";
import { decide } from "./decide";
import { extractPdf } from "./extract";
import { generateExtractive, readPassages } from "./extractive/answer";
import type { PassageReading } from "./extractive/features";
import { defaultModel, type ExtractiveModel } from "./extractive/model";
import { gate } from "./gate";
import { isGenerationError, type GenerateInput, type Generator } from "./generate";
import { ground } from "./ground";
import { isFixedPromptTooLargeError, pack } from "./pack";
import { analyzeQuestion, type QuestionAnalysis } from "./analyze/analyze";
import { interleave, isRetrievalError, retrieve, type RetrievePorts } from "./retrieve";
import { timed, traceGate, traceHits, tracePacking, type TraceRecord } from "./trace";
import { validate } from "./validate";
import type {
  Answer,
  AnswerPart,
  ChunkSettings,
  ChunkState,
  CountTokens,
  DecideState,
  ExtractState,
  GenerateState,
  LabelledPassage,
  PackSettings,
  PipelineEvent,
  RetrieveState,
  ValidateState,
} from "./types";

export { StageError, isStageError } from "./errors";
export { ExtractError, isExtractError, sniffPdf, describePages } from "./extract";
export { normalizeText, normalizeInline } from "./normalize";
export { defaultChunkSettings } from "./chunk";
export { GenerationError, isGenerationError, type Generator, type GenerateInput } from "./generate";
export { analyzeQuestion, type QuestionAnalysis } from "./analyze/analyze";
export { defaultModel, probability, type ExtractiveModel } from "./extractive/model";
export { scoreParts, type ScoredUnit } from "./extractive/answer";
export { documentScope } from "./extractive/scope";
export { groundingInstruction, retryMessage, standaloneQuestionPrompt } from "./prompts";
export { featureNames, type FeatureName, type Features, type PassageReading } from "./extractive/features";
export { isFixedPromptTooLargeError, FixedPromptTooLargeError } from "./pack";
export { RetrievalError, isRetrievalError, type RetrievePorts, type ScoredCandidate } from "./retrieve";
export type { TraceRecord } from "./trace";
export type * from "./types";

export interface IndexableDocument {
  extracted: ExtractState;
  chunked: ChunkState;
}

/** extract → chunk for one PDF. Throws ExtractError for files that cannot be read. */
export async function extractAndChunk(
  bytes: Uint8Array,
  {
    countTokens,
    chunkSettings = defaultChunkSettings,
    onPage,
    readerThreads,
  }: { countTokens: CountTokens; chunkSettings?: ChunkSettings; onPage?: (done: number, total: number) => void; readerThreads?: number },
): Promise<IndexableDocument> {
  const extracted = await extractPdf(bytes, { onPage, threads: readerThreads });
  const chunked = chunkPages(extracted.pages, countTokens, chunkSettings);
  return { extracted, chunked };
}

// ─── The question path ──────────────────────────────────────────────────────────────────────

export interface AskSettings extends PackSettings {
  k: number;
  /** The calibrated answer floor (a probability): gate and extractive generator both use it. */
  minScore: number;
}

/** The extractive generator over the fitted ranker (another model only for evaluation): needs no endpoint, answers from the analysis. */
export function extractiveGenerator(model: ExtractiveModel = defaultModel): Generator {
  return {
    kind: "extractive",
    name: model === defaultModel ? "extractive" : "extractive*",
    temperature: null,
    async generate({ analysis, passages, ranks, floor }) {
      return generateExtractive({ analysis, passages, ranks }, { ...model, floor });
    },
  };
}

export interface AskDeps {
  retrievePorts: RetrievePorts;
  generator: Generator;
  countTokens: CountTokens;
  settings: AskSettings;
  newTraceId: () => string;
}

export interface AskInput {
  courseId: string;
  question: string;
  /** Earlier questions of the conversation, oldest first. */
  history: string[];
}

export interface AskResult {
  answer: Answer;
  trace: TraceRecord;
}

/** One retrieval per requested part (the whole question's words when there is one part), interleaved. */
async function retrieveParts(analysis: QuestionAnalysis, k: number, ports: RetrievePorts): Promise<RetrieveState> {
  const queries = analysis.parts.length > 1 ? analysis.parts.map((p) => p.searchTerms) : [analysis.searchTerms];
  return interleave(await Promise.all(queries.map((terms) => retrieve({ query: analysis.standalone, terms, k }, ports))), k);
}

/**
 * What the extractive generator reads for a question with the gate open (analysis, retrieval,
 * packing, no floor): the ranker's training and cross-validation data (lib/eval/fit.ts).
 */
export async function rankerInputs(input: AskInput, deps: AskDeps): Promise<{ analysis: QuestionAnalysis; readings: PassageReading[]; passages: LabelledPassage[] }> {
  const analysis = analyzeQuestion(input.question, input.history.slice(-historyLimit));
  const retrieved = await retrieveParts(analysis, deps.settings.k, deps.retrievePorts);
  const packed = pack({ question: input.question, history: input.history.slice(-historyLimit), candidates: retrieved.hits, settings: deps.settings, countTokens: deps.countTokens });
  const ranks = new Map(retrieved.hits.map((h) => [h.passage.chunkId, h.rank]));
  return { analysis, readings: readPassages(packed.selected, ranks), passages: packed.selected };
}

/**
 * One question through every stage. Yields progress and each claim once the whole answer has
 * passed validation; returns the answer and its trace. Abstentions and failures of retrieval,
 * generation or validation are statuses, never exceptions.
 */
export async function* answerQuestion(input: AskInput, deps: AskDeps): AsyncGenerator<PipelineEvent, AskResult> {
  const started = performance.now();
  const { settings, generator } = deps;
  const history = input.history.slice(-historyLimit);
  const trace: TraceRecord = {
    id: deps.newTraceId(),
    courseId: input.courseId,
    question: input.question,
    history,
    standaloneQuery: input.question,
    settings: {
      k: settings.k,
      minScore: settings.minScore,
      contextWindow: settings.contextWindow,
      outputReserve: settings.outputReserve,
      safetyMargin: settings.safetyMargin,
      maxPassages: settings.maxPassages,
      generator: generator.kind,
      model: generator.name,
      temperature: generator.temperature,
    },
    retrieval: null,
    gate: null,
    packing: null,
    attempts: [],
    partStates: [],
    status: null,
    timings: {},
  };
  const finish = (decided: DecideState, parts: AnswerPart[]): AskResult => {
    trace.status = decided.status;
    trace.partStates = parts.map((p) => ({ ask: p.ask, state: p.state }));
    trace.timings.totalMs = Math.round((performance.now() - started) * 100) / 100;
    const answer: Answer = {
      status: decided.status,
      parts,
      ...(decided.message ? { message: decided.message } : {}),
      ...(decided.nextStep ? { nextStep: decided.nextStep } : {}),
      generator: generator.name,
      traceId: trace.id,
    };
    return { answer, trace };
  };

  // The fixed prompt must fit before anything is retrieved: the question is never shortened.
  try {
    pack({ question: input.question, history, candidates: [], settings, countTokens: deps.countTokens });
  } catch (e) {
    if (!isFixedPromptTooLargeError(e)) throw e;
    trace.packing = { fixedTokens: e.fixedTokens, allowance: e.allowance, promptTokens: e.fixedTokens, selected: [], decisions: [] };
    const result = finish(decide({ failure: "too_long" }), []);
    yield { type: "status", answer: result.answer };
    return result;
  }

  let rewritten: string | undefined;
  if (history.length && generator.standalone) {
    yield { type: "stage", stage: "rewriting" };
    try {
      rewritten = await timed(trace, "standalone", () => generator.standalone!(input.question, history));
    } catch (e) {
      trace.attempts.push({ attempt: 0, messages: [], raw: null, problems: [], error: (e as Error).message });
      const result = finish(decide({ failure: "generation" }), []);
      yield { type: "status", answer: result.answer };
      return result;
    }
  }

  const analysis: QuestionAnalysis = await timed(trace, "analyze", () => analyzeQuestion(input.question, history, rewritten));
  trace.standaloneQuery = analysis.standalone;
  trace.analysis = { resolution: analysis.resolution, parts: analysis.parts, context: analysis.context, searchTerms: analysis.searchTerms };

  yield { type: "stage", stage: "searching" };
  let retrieved: RetrieveState;
  try {
    retrieved = await timed(trace, "retrieve", () =>
      retrieveParts(analysis, settings.k, deps.retrievePorts),
    );
  } catch (e) {
    if (!isRetrievalError(e)) throw e;
    trace.retrieval = { matchExpression: null, dense: Boolean(deps.retrievePorts.dense), hits: [], error: e.message };
    const result = finish(decide({ failure: "retrieval" }), []);
    yield { type: "status", answer: result.answer };
    return result;
  }
  trace.retrieval = { matchExpression: retrieved.matchExpression, dense: retrieved.dense, hits: traceHits(retrieved), error: null };

  const gated = await timed(trace, "gate", () => gate(retrieved.hits, { analysis, floor: settings.minScore }));
  trace.gate = traceGate(gated);
  yield { type: "retrieved", hits: retrieved.hits.length, passed: gated.passed.length };
  if (gated.passed.length === 0) {
    // Nothing clears the floor: abstain without calling the generator.
    const result = finish(decide({ parts: [] }), analysis.parts.map((p) => ({ ask: p.ask, state: "missing" as const, claims: [] })));
    yield { type: "status", answer: result.answer };
    return result;
  }

  const packed = await timed(trace, "pack", () => pack({ question: input.question, history, candidates: gated.passed, settings, countTokens: deps.countTokens }));
  trace.packing = tracePacking(packed);
  yield { type: "packed", passages: packed.selected.length, promptTokens: packed.promptTokens };
  const grounded = await timed(trace, "ground", () => ground({ question: input.question, history, selected: packed.selected }));

  const ranks = new Map(retrieved.hits.map((h) => [h.passage.chunkId, h.rank]));
  let validated: ValidateState | null = null;
  let retry: GenerateInput["retry"];
  // One bounded retry (LLM only: the extractive generator is deterministic, a retry would repeat it).
  const maxAttempts = generator.kind === "llm" ? 2 : 1;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    yield { type: "stage", stage: attempt === 1 ? "generating" : "checking" };
    let generated: GenerateState;
    try {
      generated = await timed(trace, "generate", () =>
        generator.generate({ analysis, ranks, floor: settings.minScore, passages: packed.selected, messages: grounded.messages, retry }),
      );
    } catch (e) {
      if (!isGenerationError(e)) throw e;
      trace.attempts.push({ attempt, messages: grounded.messages, raw: null, problems: [], error: e.message });
      const result = finish(decide({ failure: "generation" }), []);
      yield { type: "status", answer: result.answer };
      return result;
    }
    yield { type: "stage", stage: "checking" };
    validated = await timed(trace, "validate", () => validate(generated, grounded.registry));
    trace.attempts.push({ attempt, messages: grounded.messages, raw: generated.raw, problems: validated.ok ? [] : validated.problems, error: null });
    if (validated.ok) break;
    retry = { raw: generated.raw, problems: validated.problems };
  }

  if (!validated || !validated.ok) {
    const result = finish(decide({ failure: "validation" }), []);
    yield { type: "status", answer: result.answer };
    return result;
  }

  const parts: AnswerPart[] = validated.parts.map((p) => ({
    ask: p.ask,
    state: p.state,
    claims: p.claims.map((c) => ({
      text: c.text,
      citations: c.citations.map((cit) => {
        const passage = grounded.registry.get(cit.label)!;
        return { ...cit, uploadedAt: passage.uploadedAt, context: passage.text, contextStart: passage.charStart };
      }),
    })),
  }));
  const decided = await timed(trace, "decide", () => decide({ parts }));
  for (const [partIndex, part] of parts.entries()) {
    for (const claim of part.claims) {
      trace.timings.firstClaimMs ??= Math.round((performance.now() - started) * 100) / 100;
      yield { type: "claim", partIndex, ask: part.ask, state: part.state, claim };
    }
  }
  const result = finish(decided, parts);
  yield { type: "status", answer: result.answer };
  return result;
}
