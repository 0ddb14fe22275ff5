import { ground } from "./ground";
import type { ChatMessage, CountTokens, Hit, LabelledPassage, PackDecision, PackSettings, PackState } from "./types";
import { StageError } from "./errors";

export class FixedPromptTooLargeError extends StageError {
  readonly stage = "pack";
  constructor(
    readonly fixedTokens: number,
    readonly allowance: number,
  ) {
    super("Fixed prompt exceeds input budget");
    this.name = "FixedPromptTooLargeError";
  }
}

export function isFixedPromptTooLargeError(e: unknown): e is FixedPromptTooLargeError {
  return e instanceof FixedPromptTooLargeError;
}

/** OpenAI's chat format wraps each message, role included, in 4 tokens and primes the reply with 3. */
const tokensPerMessage = 4;
const replyPriming = 3;

/** Tokens of a chat request as the endpoint sees it: message contents plus the chat wrapper. */
export function countChatTokens(messages: ChatMessage[], countTokens: CountTokens): number {
  return messages.reduce((sum, m) => sum + tokensPerMessage + countTokens(m.content), replyPriming);
}

/** Highest-ranked at the edges, lowest in the middle: ranks 1..5 → 1, 3, 5, 4, 2. Models attend least to the middle. */
function edgeOrder<T>(byRank: T[]): T[] {
  const front = byRank.filter((_, i) => i % 2 === 0);
  const back = byRank.filter((_, i) => i % 2 === 1).reverse();
  return [...front, ...back];
}

export interface PackInput {
  question: string;
  history: string[];
  /** In retrieval order, as retrieve and gate return them. */
  candidates: Hit[];
  settings: PackSettings;
  countTokens: CountTokens;
}

/**
 * pack: greedy selection of whole passages in retrieval order, measured on the exact rendered request.
 * Never exceeds the allowance; every candidate gets exactly one decision; the question is never shortened.
 */
export function pack({ question, history, candidates, settings, countTokens }: PackInput): PackState {
  const allowance = settings.contextWindow - settings.outputReserve - settings.safetyMargin;
  // Measure the request exactly as it will be sent, labels and order included, so the final count is a trial count.
  const measure = (byRank: LabelledPassage[]) => countChatTokens(ground({ question, history, selected: edgeOrder(byRank) }).messages, countTokens);

  const fixedTokens = measure([]);
  if (fixedTokens > allowance) throw new FixedPromptTooLargeError(fixedTokens, allowance);

  const included: LabelledPassage[] = [];
  const seen = new Set<string>();
  const decisions: PackDecision[] = [];
  let promptTokens = fixedTokens;
  for (const hit of candidates) {
    const base = { chunkId: hit.passage.chunkId, rank: hit.rank };
    if (included.length >= settings.maxPassages) {
      decisions.push({ ...base, decision: "cap_reached", trialTokens: null });
      continue;
    }
    if (seen.has(hit.passage.text)) {
      decisions.push({ ...base, decision: "duplicate", trialTokens: null });
      continue;
    }
    seen.add(hit.passage.text);
    // Labels follow retrieval rank, so earlier passages keep theirs as later ones join.
    const candidate: LabelledPassage = { ...hit.passage, label: `S${included.length + 1}` };
    const trialTokens = measure([...included, candidate]);
    if (trialTokens > allowance) {
      // Skip, not stop: a shorter passage further down may still fit.
      decisions.push({ ...base, decision: "over_budget", trialTokens });
      continue;
    }
    included.push(candidate);
    promptTokens = trialTokens;
    decisions.push({ ...base, decision: "included", trialTokens });
  }

  return { allowance, fixedTokens, promptTokens, selected: edgeOrder(included), decisions };
}
