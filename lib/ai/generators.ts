import "server-only";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, Output } from "ai";
import { z } from "zod";
import { env } from "@/lib/env";
import { extractiveGenerator, GenerationError, retryMessage, standaloneQuestionPrompt, type ChatMessage, type Generator } from "@/lib/rag/pipeline";

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

/** Any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, LM Studio) through the Chat Completions API. */
export function llmGenerator(config: LlmConfig): Generator {
  const model = createOpenAI({ baseURL: config.baseURL, apiKey: config.apiKey ?? "not-needed" }).chat(config.model);
  const call = async (messages: ChatMessage[], structured: boolean) => {
    const [system, ...rest] = messages;
    try {
      const result = await generateText({
        model,
        instructions: system.content,
        messages: rest.map((m) => ({ role: m.role as "user" | "assistant", content: m.content })),
        temperature: config.temperature,
        maxRetries: config.maxRetries,
        timeout: config.timeoutMs,
        ...(structured ? { output: Output.object({ schema: answerSchema }) } : {}),
      });
      return result;
    } catch (e) {
      throw new GenerationError(`The model endpoint failed: ${(e as Error).message}`, e);
    }
  };
  return {
    kind: "llm",
    name: config.model,
    temperature: config.temperature,
    async generate({ messages, retry }) {
      const sent = retry
        ? [...messages, { role: "assistant" as const, content: retry.raw }, { role: "user" as const, content: retryMessage(retry.problems) }]
        : messages;
      const result = await call(sent, true);
      return { parts: result.output.parts, raw: result.text };
    },
    async standalone(question, history) {
      if (history.length === 0) return question;
      const result = await call(standaloneQuestionPrompt({ history, question }), false);
      return result.text.trim() || question;
    },
  };
}

/** The generator the environment configures: a model when GENERATION_MODEL is set, else extractive. */
export function generatorFromEnv(): Generator {
  if (!env.GENERATION_MODEL) return extractiveGenerator();
  return llmGenerator({
    model: env.GENERATION_MODEL,
    baseURL: env.OPENAI_BASE_URL,
    apiKey: env.OPENAI_API_KEY,
    temperature: env.GENERATION_TEMPERATURE,
    timeoutMs: env.GENERATION_TIMEOUT_MS,
    maxRetries: 2,
  });
}
