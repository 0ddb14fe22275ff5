import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import type { CountTokens } from "@/lib/rag/types";

let encoder: Tiktoken | undefined;
/** o200k's pre-tokenizer: BPE never merges across its pieces, so a text's count is the sum of its pieces' counts. */
const pieces = new RegExp(o200k.pat_str, "gu");
const pieceTokens = new Map<string, number>();
/** Course text repeats its words; past this many distinct pieces new ones are counted, not remembered. */
const MAX_REMEMBERED_PIECES = 200_000;

/**
 * Token counts with o200k_base, the encoding of current OpenAI chat models; for other
 * generators it is the closest offline estimate, and the packer's safety margin covers the rest.
 * Text that spells a special token ("<|endoftext|>") is counted as the plain text it is.
 * The rank file ships with the package: nothing is downloaded.
 */
export const countTokens: CountTokens = (text) => {
  encoder ??= new Tiktoken(o200k);
  let total = 0;
  for (const [piece] of text.matchAll(pieces)) {
    let n = pieceTokens.get(piece);
    if (n === undefined) {
      n = encoder.encode(piece, [], []).length;
      if (pieceTokens.size < MAX_REMEMBERED_PIECES) pieceTokens.set(piece, n);
    }
    total += n;
  }
  return total;
};
