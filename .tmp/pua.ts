import { readFileSync, readdirSync } from "node:fs";
import { extractPdf } from "@/lib/rag/extract";
for (const f of readdirSync("../shared/corpus").filter((f) => f.endsWith(".pdf"))) {
  const r: any = await extractPdf(new Uint8Array(readFileSync(`../shared/corpus/${f}`)));
  const pages = r.pages ?? r;
  let n = 0; const ex: string[] = [];
  for (const p of pages) for (const m of p.text.matchAll(/.{0,20}[\p{Co}\uFFFD].{0,20}/gu)) { n++; if (ex.length < 4) ex.push(JSON.stringify(m[0])); }
  console.log(f, n, ex.join(" | "));
}
process.exit(0);
