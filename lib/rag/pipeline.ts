/**
 * The entry point the app uses into lib/rag for the question path: it composes the stages
 * retrieve → gate → pack → ground → generate → validate → decide, with a trace of every step.
 * Ingestion (extract → chunk) has its own, ingestion.ts, which loads none of these modules.
 */
import { historyLimit } from "./prompts";
import { decide } from "./decide";
import { generateExtractive, readPassages, retrievalRanks } from "./extractive/answer";
import { ownCodeWords, type PassageReading } from "./extractive/features";
import { defaultModel, type ExtractiveModel } from "./extractive/model";
import { explainGaps } from "./gap";
import { gate } from "./gate";
import { isGenerationError, type CompletedClaim, type GenerateInput, type Generator } from "./generate";
import { ground } from "./ground";
import { isFixedPromptTooLargeError, pack } from "./pack";
import { analyzeQuestion, type QuestionAnalysis } from "./analyze/analyze";
import { askKey, claimKey, distinctAnswerParts, distinctParts } from "./dedupe";
import { interleave, isRetrievalError, retrieve, retrieveRows, scopesOf, type RetrievePorts } from "./retrieve";
import { timed, traceGate, traceHits, tracePacking, type TraceRecord } from "./trace";
import { answerCitation, validate, validateClaim } from "./validate";
import type {
  Answer,
  AnswerClaim,
  AnswerPart,
  CitationProblem,
  CountTokens,
  DecideState,
  GenerateState,
  LabelledPassage,
  PackSettings,
  PipelineEvent,
  ResolvedClaim,
  RetrieveState,
  ValidateState,
} from "./types";

export { StageError, isStageError } from "./errors";
export { normalizeText, normalizeInline } from "./normalize";
export { completedClaims, GenerationError, isGenerationError, type CompletedClaim, type GenerateEvent, type Generator, type GenerateInput } from "./generate";
export { analyzeQuestion, type QuestionAnalysis } from "./analyze/analyze";
export { bearsOnPart, defaultModel, mustStateType, NEIGHBOUR_FLOOR_SHARE, probability, type ExtractiveModel } from "./extractive/model";
export { continues, scoreParts, type ScoredUnit } from "./extractive/answer";
export { groundingInstruction, retryMessage, standaloneQuestionPrompt } from "./prompts";
export { featureNames, type FeatureName, type Features, type PassageReading } from "./extractive/features";
export { isFixedPromptTooLargeError, FixedPromptTooLargeError } from "./pack";
export { RetrievalError, isRetrievalError, type RetrievePorts, type ScoredCandidate } from "./retrieve";
export type { TraceRecord } from "./trace";
export type { AnswerType } from "./lexicon";
export type * from "./types";

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
    async generate({ analysis, passages, ranks, retrieved, floor }) {
      return generateExtractive({ analysis, passages, ranks, retrieved }, { ...model, floor });
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
  /** The text of the conversation's last answer: "her office" after "who teaches it?" is the office of the person it named. */
  previousAnswer?: string;
  /** Aborted when the student goes away: the answer stops at the next stage with status `cancelled`. */
  signal?: AbortSignal;
}

/** An answer as the student reads it: its claims, one a line. */
export const answerText = (answer: Answer) => answer.parts.flatMap((p) => p.claims.map((c) => c.text)).join("\n");

export interface AskResult {
  answer: Answer;
  trace: TraceRecord;
}

/**
 * A part's search terms without the course's own code ("MECH 3010 what is the cutoff ratio",
 * asked of MECH 3010's notes), or null when it names none: every running header holds the code,
 * so alone it would draw the header lines. Searched beside the whole terms, not instead of them:
 * a syllabus question naming its code often finds its answer on the title page the code draws to.
 */
function withoutOwnCode(terms: readonly string[], parts: QuestionAnalysis["parts"], scopes: readonly (readonly string[])[]): string[] | null {
  const own = new Set(scopes.flatMap((scope) => parts.flatMap((part) => [...ownCodeWords(part, new Set(scope))])));
  const kept = terms.filter((t) => !own.has(t.toLowerCase()));
  return kept.length && kept.length < terms.length ? kept : null;
}

/** One retrieval per requested part (the whole question's words when there is one part), and per part without the course's own code when it names it, interleaved. */
async function retrieveParts(analysis: QuestionAnalysis, k: number, ports: RetrievePorts): Promise<RetrieveState> {
  const asked = analysis.parts.length > 1 ? analysis.parts.map((p) => ({ terms: p.searchTerms, parts: [p] })) : [{ terms: analysis.searchTerms, parts: analysis.parts }];
  // Only an identifier or a number can be a course's code: most questions need not look up the scopes.
  const mayNameCode = analysis.parts.some((p) => p.required.length || p.focus.some((f) => /\d/.test(f.lemma)));
  const scopes = mayNameCode ? await scopesOf(ports) : [];
  const queries = asked.flatMap(({ terms, parts }) => {
    const narrowed = withoutOwnCode(terms, parts, scopes);
    return narrowed ? [terms, narrowed] : [terms];
  });
  const ids = analysis.parts.flatMap((p) => p.required).filter((r) => !r.ordinal);
  const [searched, rows] = await Promise.all([Promise.all(queries.map((terms) => retrieve({ query: analysis.standalone, terms, k }, ports))), retrieveRows({ query: analysis.standalone, ids }, ports)]);
  return interleave(rows ? [...searched, rows] : searched, k);
}

/**
 * What the extractive generator reads for a question with the gate open (analysis, retrieval,
 * packing, no floor): the ranker's training and cross-validation data (lib/eval/fit.ts). `basis`
 * is every retrieved passage, over which the answer measures its word statistics.
 */
export async function rankerInputs(input: AskInput, deps: AskDeps): Promise<{ analysis: QuestionAnalysis; readings: PassageReading[]; basis: PassageReading[]; passages: LabelledPassage[] }> {
  const analysis = distinctParts(analyzeQuestion(input.question, input.history.slice(-historyLimit), { previousAnswer: input.previousAnswer }));
  const retrieved = await retrieveParts(analysis, deps.settings.k, deps.retrievePorts);
  const packed = pack({ question: input.question, history: input.history.slice(-historyLimit), candidates: retrieved.hits, settings: deps.settings, countTokens: deps.countTokens });
  const ranks = retrievalRanks(retrieved.hits);
  const retrievedPassages = retrieved.hits.map((h) => h.passage);
  return { analysis, readings: readPassages(packed.selected, ranks, retrievedPassages), basis: readPassages(retrievedPassages, ranks), passages: packed.selected };
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
    trace.partStates = partStatesOf(parts);
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
      rewritten = await timed(trace, "standalone", () => generator.standalone!(input.question, history, input.signal, input.previousAnswer));
    } catch (e) {
      trace.attempts.push({ attempt: 0, messages: [], raw: null, problems: [], error: (e as Error).message });
      const result = finish(decide({ failure: input.signal?.aborted ? "cancelled" : "generation" }), []);
      yield { type: "status", answer: result.answer };
      return result;
    }
  }

  const analysis: QuestionAnalysis = await timed(trace, "analyze", () => distinctParts(analyzeQuestion(input.question, history, { rewritten, previousAnswer: input.previousAnswer })));
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
  // Why each missing part is missing, from the passages retrieved for the question, timed in the trace.
  const explained = (parts: AnswerPart[]) => timed(trace, "gap", () => explainGaps(parts, { analysis, hits: retrieved.hits }));
  if (input.signal?.aborted) return finish(decide({ failure: "cancelled" }), []);

  const gated = await timed(trace, "gate", () => gate(retrieved.hits, { analysis, floor: settings.minScore }));
  trace.gate = traceGate(gated);
  yield { type: "retrieved", hits: retrieved.hits.length, passed: gated.passed.length };
  if (gated.passed.length === 0) {
    // Nothing clears the floor: abstain without calling the generator.
    const missing = analysis.parts.map((p) => ({ ask: p.ask, state: "missing" as const, claims: [] }));
    const result = finish(decide({ parts: [] }), await explained(missing));
    yield { type: "status", answer: result.answer };
    return result;
  }

  const packed = await timed(trace, "pack", () => pack({ question: input.question, history, candidates: gated.passed, settings, countTokens: deps.countTokens }));
  trace.packing = tracePacking(packed);
  yield { type: "packed", passages: packed.selected.length, promptTokens: packed.promptTokens };
  const grounded = await timed(trace, "ground", () => ground({ question: input.question, history, selected: packed.selected }));

  const ranks = retrievalRanks(retrieved.hits);
  const generateInput: GenerateInput = {
    analysis,
    ranks,
    floor: settings.minScore,
    passages: packed.selected,
    retrieved: retrieved.hits.map((h) => h.passage),
    messages: grounded.messages,
    signal: input.signal,
  };
  if (generator.stream) {
    const streamed = yield* streamValidated(generator, generateInput, grounded.registry, trace, started);
    const result = "failure" in streamed ? finish(decide({ failure: streamed.failure }), []) : finish(decide({ parts: streamed.parts }), await explained(streamed.parts));
    yield { type: "status", answer: result.answer };
    return result;
  }
  let validated: ValidateState | null = null;
  let retry: GenerateInput["retry"];
  // One bounded retry (LLM only: the extractive generator is deterministic, a retry would repeat it).
  const maxAttempts = generator.kind === "llm" ? 2 : 1;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    yield { type: "stage", stage: attempt === 1 ? "generating" : "checking" };
    let generated: GenerateState;
    try {
      generated = await timed(trace, "generate", () =>
        generator.generate({ ...generateInput, retry }),
      );
    } catch (e) {
      if (!isGenerationError(e)) throw e;
      trace.attempts.push({ attempt, messages: grounded.messages, raw: null, problems: [], error: e.message });
      const result = finish(decide({ failure: input.signal?.aborted ? "cancelled" : "generation" }), []);
      yield { type: "status", answer: result.answer };
      return result;
    }
    yield { type: "stage", stage: "checking" };
    validated = await timed(trace, "validate", () => validate(generated, grounded.registry));
    trace.attempts.push({ attempt, messages: grounded.messages, raw: generated.raw, problems: validated.ok ? [] : validated.problems, error: null });
    if (validated.ok) break;
    retry = { raw: generated.raw, problems: validated.problems };
  }

  if (input.signal?.aborted) return finish(decide({ failure: "cancelled" }), []);
  if (!validated || !validated.ok) {
    const result = finish(decide({ failure: "validation" }), []);
    yield { type: "status", answer: result.answer };
    return result;
  }

  const parts: AnswerPart[] = distinctAnswerParts(validated.parts.map((p) => ({ ask: p.ask, state: p.state, claims: p.claims.map((c) => answerClaim(c, grounded.registry)) })));
  const decided = await timed(trace, "decide", () => decide({ parts }));
  for (const [partIndex, part] of parts.entries()) {
    for (const claim of part.claims) {
      trace.timings.firstClaimMs ??= Math.round((performance.now() - started) * 100) / 100;
      yield { type: "claim", partIndex, ask: part.ask, state: part.state, claim };
    }
  }
  const result = finish(decided, await explained(parts));
  yield { type: "status", answer: result.answer };
  return result;
}

/** Each part's state for the trace, with why it is missing when that is known (the reason, not the passage it quotes: the trace has the retrieved passages). */
const partStatesOf = (parts: readonly AnswerPart[]): TraceRecord["partStates"] => parts.map((p) => ({ ask: p.ask, state: p.state, ...(p.gap ? { gap: { kind: p.gap.kind, text: p.gap.text } } : {}) }));

/** A validated claim as the client receives it: each citation with its passage's upload date and text around the quote. */
function answerClaim(claim: ResolvedClaim, registry: Map<string, LabelledPassage>): AnswerClaim {
  return {
    text: claim.text,
    citations: claim.citations.map((cit) => answerCitation(cit, registry.get(cit.label)!)),
  };
}

/**
 * generate + validate for a streaming generator: each claim is checked the moment it is complete
 * and published at once when its citations hold; a claim that fails is held, never shown. After
 * the stream one retry asks for the held claims only; a repaired claim is published then. A part
 * whose held claims fail again (or whose retry fails) becomes "validation_failed" and keeps the
 * claims that passed. Invariant: every claim event carries a claim that passed validation.
 */
async function* streamValidated(
  generator: Generator,
  input: GenerateInput,
  registry: Map<string, LabelledPassage>,
  trace: TraceRecord,
  started: number,
): AsyncGenerator<PipelineEvent, { parts: AnswerPart[] } | { failure: "generation" | "cancelled" }> {
  const parts: AnswerPart[] = [];
  let held: Array<{ partIndex: number; problems: CitationProblem[] }> = [];
  const shown = new Set<string>();
  const since = () => Math.round((performance.now() - started) * 100) / 100;
  trace.claimChecks = [];
  let retry: GenerateInput["retry"];
  for (let attempt = 1; attempt <= 2; attempt++) {
    yield { type: "stage", stage: attempt === 1 ? "generating" : "checking" };
    // On the retry, the parts asked for again are those with held claims, in order.
    const retried = attempt === 1 ? null : [...new Set(held.map((h) => h.partIndex))];
    const heldBefore = held;
    if (retried) held = [];
    const partOf = (c: CompletedClaim) => (retried ? (retried.find((i) => askKey(parts[i].ask) === askKey(c.ask)) ?? retried[c.partIndex] ?? -1) : c.partIndex);
    const run = generator.stream!({ ...input, retry });
    const generateStarted = performance.now();
    let final: GenerateState;
    try {
      for (;;) {
        const step = await run.next();
        if (step.done) {
          final = step.value;
          break;
        }
        const partIndex = partOf(step.value);
        if (partIndex < 0) continue; // a retry that answers a part nobody asked for
        const part = (parts[partIndex] ??= { ask: step.value.ask, state: step.value.state, claims: [] });
        const at = { partIndex, claimIndex: step.value.claimIndex };
        const checkStarted = performance.now();
        const checked = validateClaim(step.value.claim, at, registry);
        if (step.value.state === "missing") checked.problems.push({ kind: "part_state_mismatch", ...at, detail: 'The part is marked "missing" but makes this claim; a missing part has no claims.' });
        const validateMs = Math.round((performance.now() - checkStarted) * 1000) / 1000;
        trace.claimChecks.push({ attempt, ...at, atMs: since(), validateMs, published: checked.problems.length === 0, problems: checked.problems });
        if (checked.problems.length) {
          held.push({ partIndex, problems: checked.problems });
          if (attempt === 1) yield { type: "held", partIndex, ask: part.ask };
          continue;
        }
        const claim = answerClaim(checked.claim, registry);
        // A claim already shown for the same ask (a generator repeating itself) is not shown again.
        const shownKey = `${askKey(part.ask)}\n${claimKey(claim)}`;
        if (shown.has(shownKey)) continue;
        shown.add(shownKey);
        part.claims.push(claim);
        trace.timings.firstClaimMs ??= since();
        yield { type: "claim", partIndex, ask: part.ask, state: part.state, claim, ...(attempt > 1 ? { repaired: true as const } : {}) };
      }
    } catch (e) {
      if (!isGenerationError(e)) throw e;
      trace.attempts.push({ attempt, messages: input.messages, raw: null, problems: [], error: e.message });
      trace.timings.generate = Math.round((performance.now() - generateStarted) * 100) / 100;
      if (input.signal?.aborted) return { failure: "cancelled" };
      if (attempt === 1) return { failure: "generation" };
      // The retry failed: which held claims it repaired before failing is unknown, so every part
      // that had one is withheld; the claims it published passed validation and stay.
      held = [...heldBefore, ...held];
      break;
    }
    trace.timings.generate = Math.round((performance.now() - generateStarted) * 100) / 100;
    trace.attempts.push({ attempt, messages: input.messages, raw: final.raw, problems: held.flatMap((h) => h.problems), error: null });
    if (attempt === 1) final.parts.forEach((p, i) => (parts[i] ??= { ask: p.ask, state: p.state, claims: [] }));
    if (held.length === 0 || input.signal?.aborted) break;
    retry = { raw: final.raw, problems: held.flatMap((h) => h.problems), heldOnly: true };
  }
  if (input.signal?.aborted) return { failure: "cancelled" };
  const withheld = new Set(held.map((h) => h.partIndex));
  return {
    parts: distinctAnswerParts(
      parts.map((p, i) => ({
        ...p,
        // A part with nothing left to show is missing; one that lost claims to failed citations says so.
        state: withheld.has(i) ? "validation_failed" : p.claims.length === 0 ? "missing" : p.state,
      })),
    ),
  };
}

// ─── A context given instead of retrieved ───────────────────────────────────────────────────

/**
 * The question path with the context given rather than retrieved: pack → ground → generate →
 * validate → decide over `passages` (ranked in the order given), with answerQuestion's analysis,
 * settings and generator. Nothing is searched or gated, so an empty context still sends its
 * request: the evidence-substitution probe (lib/server/workbench.ts) holds everything but the
 * context fixed. A whole answer is checked claim by claim as a streamed one is, so both generator
 * kinds go through one validation path. The caller stores the trace.
 */
export async function answerWithContext(input: AskInput, passages: Array<Omit<LabelledPassage, "label">>, deps: AskDeps): Promise<AskResult> {
  const started = performance.now();
  const { settings, generator } = deps;
  const history = input.history.slice(-historyLimit);
  const { k, minScore, contextWindow, outputReserve, safetyMargin, maxPassages } = settings;
  const trace: TraceRecord = {
    id: deps.newTraceId(), courseId: input.courseId, question: input.question, history, standaloneQuery: input.question,
    settings: { k, minScore, contextWindow, outputReserve, safetyMargin, maxPassages, generator: generator.kind, model: generator.name, temperature: generator.temperature },
    retrieval: null, gate: null, packing: null, attempts: [], partStates: [], status: null, timings: {},
  };
  const done = ({ status, message, nextStep }: DecideState, parts: AnswerPart[]): AskResult => {
    Object.assign(trace, { status, partStates: partStatesOf(parts) });
    trace.timings.totalMs = Math.round((performance.now() - started) * 100) / 100;
    return { trace, answer: { status, parts, message: message ?? undefined, nextStep: nextStep ?? undefined, generator: generator.name, traceId: trace.id } };
  };

  const analysis = await timed(trace, "analyze", () => distinctParts(analyzeQuestion(input.question, history, { previousAnswer: input.previousAnswer })));
  Object.assign(trace, { standaloneQuery: analysis.standalone, analysis: { resolution: analysis.resolution, parts: analysis.parts, context: analysis.context, searchTerms: analysis.searchTerms } });
  const hits = passages.map((passage, i) => ({ passage, rank: i + 1, lexicalScore: null, lexicalRank: null, denseScore: null, denseRank: null, fusedScore: 0 }));
  trace.retrieval = { matchExpression: null, dense: false, hits: traceHits({ query: analysis.standalone, matchExpression: null, hits, dense: false }), error: null };
  let packed: ReturnType<typeof pack>;
  try {
    packed = await timed(trace, "pack", () => pack({ question: input.question, history, candidates: hits, settings, countTokens: deps.countTokens }));
  } catch (e) {
    if (!isFixedPromptTooLargeError(e)) throw e;
    return done(decide({ failure: "too_long" }), []);
  }
  trace.packing = tracePacking(packed);
  const grounded = await timed(trace, "ground", () => ground({ question: input.question, history, selected: packed.selected }));

  const streaming: Generator = {
    ...generator,
    stream:
      generator.stream ??
      async function* (whole) {
        const generated = await generator.generate(whole);
        for (const [partIndex, part] of generated.parts.entries()) {
          for (const [claimIndex, claim] of part.claims.entries()) yield { type: "claim" as const, partIndex, claimIndex, ask: part.ask, state: part.state, claim };
        }
        return generated;
      },
  };
  const ranks = retrievalRanks(hits);
  const generateInput: GenerateInput = {
    analysis,
    ranks,
    floor: settings.minScore,
    passages: packed.selected,
    retrieved: passages,
    messages: grounded.messages,
    signal: input.signal,
  };
  const run = streamValidated(streaming, generateInput, grounded.registry, trace, started);
  let step = await run.next();
  while (!step.done) step = await run.next();
  const outcome = step.value;
  if ("failure" in outcome) return done(decide({ failure: outcome.failure }), []);
  return done(await timed(trace, "decide", () => decide({ parts: outcome.parts })), outcome.parts);
}
