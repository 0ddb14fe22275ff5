import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import type { CountTokens } from "@/lib/rag/types";

let encoder: Tiktoken | undefined;

/**
 * Token counts with o200k_base, the encoding of current OpenAI chat models; for other
 * generators it is the closest offline estimate, and the packer's safety margin covers the rest.
 * The rank file ships with the package: nothing is downloaded.
 */
export const countTokens: CountTokens = (text) => {
  encoder ??= new Tiktoken(o200k);
  return encoder.encode(text).length;
};
