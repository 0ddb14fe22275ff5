import "server-only";
import type { Client } from "@libsql/client";
import { newId } from "@/lib/ids";

/**
 * A ready document of plain text chunks (five to a page, no pages or files), for benchmarks and
 * tests that need a large course without ingesting PDFs. All chunks go in as one INSERT … SELECT
 * over a JSON array: the libSQL driver keeps about 4–6 KB of native memory for every statement it
 * runs (tursodatabase/libsql-js#153), so a row per statement grew a process by 1.2 GB for 100k chunks.
 */
export async function insertPlainDocument(client: Client, { courseId, title, texts }: { courseId: string; title: string; texts: string[] }): Promise<void> {
  const documentId = newId("doc");
  const revisionId = newId("rev");
  await client.batch(
    [
      { sql: "INSERT INTO documents (id, course_id, title) VALUES (?, ?, ?)", args: [documentId, courseId, title] },
      { sql: "INSERT INTO revisions (id, document_id, number, sha256, file_name, size, status) VALUES (?, ?, 1, 'plain', 'plain.pdf', 0, 'ready')", args: [revisionId, documentId] },
      {
        sql: `INSERT INTO chunks (id, revision_id, document_id, course_id, pdf_page, ordinal, text, char_start, char_end, tokens)
              SELECT ?1 || '-' || key, ?1, ?2, ?3, key / 5 + 1, key % 5, value, 0, length(value), (length(value) + 3) / 4 FROM json_each(?4)`,
        args: [revisionId, documentId, courseId, JSON.stringify(texts)],
      },
      { sql: "UPDATE documents SET current_revision_id = ? WHERE id = ?", args: [revisionId, documentId] },
    ],
    "write",
  );
}
