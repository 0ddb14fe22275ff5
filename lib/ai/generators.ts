import "server-only";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, Output, streamText } from "ai";
import { z } from "zod";
import { env } from "@/lib/env";
import { completedClaims, extractiveGenerator, GenerationError, retryMessage, standaloneQuestionPrompt, type ChatMessage, type GenerateInput, type Generator } from "@/lib/rag/pipeline";

export { extractiveGenerator };

/** The structured output every LLM answer must have: parts → claims → evidence. */
export const answerSchema = z.object({
  parts: z.array(
    z.object({
      ask: z.string(),
      state: z.enum(["supported", "missing", "conflicting"]),
      claims: z.array(z.object({ text: z.string(), evidence: z.array(z.object({ sourceId: z.string(), quote: z.string() })) })),
    }),
  ),
});

export interface LlmConfig {
  model: string;
  baseURL?: string;
  apiKey?: string;
  temperature: number;
  timeoutMs: number;
  maxRetries: number;
}

/** The requests every model call makes: the system message as instructions, the rest as the conversation. */
function chatCalls(config: LlmConfig) {
  const model = createOpenAI({ baseURL: config.baseURL, apiKey: config.apiKey ?? "not-needed" }).chat(config.model);
  const request = ([system, ...rest]: ChatMessage[], abortSignal?: AbortSignal) => ({
    model,
    instructions: system.content,
    messages: rest.map((m) => ({ role: m.role as "user" | "assistant", content: m.content })),
    temperature: config.temperature,
    maxRetries: config.maxRetries,
    timeout: config.timeoutMs,
    abortSignal,
  });
  /** A plain text completion (the follow-up rewrite, the evaluation judge); answers stream. */
  const complete = async (messages: ChatMessage[], abortSignal?: AbortSignal) => {
    try {
      return await generateText(request(messages, abortSignal));
    } catch (e) {
      throw new GenerationError(`The model endpoint failed: ${(e as Error).message}`, e);
    }
  };
  return { request, complete };
}

/** Any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, LM Studio) through the Chat Completions API. */
export function llmGenerator(config: LlmConfig): Generator {
  const { request, complete } = chatCalls(config);
  const withRetry = ({ messages, retry }: GenerateInput): ChatMessage[] =>
    retry ? [...messages, { role: "assistant" as const, content: retry.raw }, { role: "user" as const, content: retryMessage(retry.problems, { heldOnly: retry.heldOnly }) }] : messages;
  const generator: Generator = {
    kind: "llm",
    name: config.model,
    temperature: config.temperature,
    // The whole answer is the stream read to its end: one request path, streamed or not.
    async generate(input) {
      const run = generator.stream!(input);
      let step = await run.next();
      while (!step.done) step = await run.next();
      return step.value;
    },
    async *stream(input) {
      let failure: unknown;
      const result = streamText({
        ...request(withRetry(input), input.signal),
        output: Output.object({ schema: answerSchema }),
        onError: ({ error }) => {
          failure ??= error;
        },
      });
      const published = new Set<string>();
      const fresh = (ended: boolean, partial: Parameters<typeof completedClaims>[0]) =>
        completedClaims(partial, ended).filter((c) => !published.has(`${c.partIndex}:${c.claimIndex}`) && published.add(`${c.partIndex}:${c.claimIndex}`));
      try {
        for await (const partial of result.partialOutputStream) {
          for (const claim of fresh(false, partial)) yield { type: "claim", ...claim };
        }
        // A stream cut off mid-answer ends without a complete object: that is a failure, not the end of the last claim.
        const output = await result.output;
        if (failure) throw failure;
        for (const claim of fresh(true, output)) yield { type: "claim", ...claim };
        return { parts: output.parts, raw: await result.text };
      } catch (e) {
        throw new GenerationError(`The model endpoint failed: ${((failure ?? e) as Error).message}`, failure ?? e);
      }
    },
    async standalone(question, history, signal, previousAnswer) {
      if (history.length === 0) return question;
      const result = await complete(standaloneQuestionPrompt({ history, question, previousAnswer }), signal);
      return result.text.trim() || question;
    },
  };
  return generator;
}

const llmConfigFromEnv = (model: string): LlmConfig => ({
  model,
  baseURL: env.OPENAI_BASE_URL,
  apiKey: env.OPENAI_API_KEY,
  temperature: env.GENERATION_TEMPERATURE,
  timeoutMs: env.GENERATION_TIMEOUT_MS,
  maxRetries: 2,
});

/** The generator the environment configures: a model when GENERATION_MODEL is set, else extractive. */
export function generatorFromEnv(): Generator {
  if (!env.GENERATION_MODEL) return extractiveGenerator();
  return llmGenerator(llmConfigFromEnv(env.GENERATION_MODEL));
}

/** A text completion by the configured model (the evaluation's judge), or null when no model is configured. */
export type CompleteText = (messages: ChatMessage[]) => Promise<string>;
export function textModel(config: LlmConfig): { name: string; complete: CompleteText } {
  const { complete } = chatCalls(config);
  return { name: config.model, complete: async (messages) => (await complete(messages)).text };
}
export function textModelFromEnv(): { name: string; complete: CompleteText } | null {
  return env.GENERATION_MODEL ? textModel(llmConfigFromEnv(env.GENERATION_MODEL)) : null;
}
