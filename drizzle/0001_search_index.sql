-- Lexical index over chunk text (BM25). External content: the text lives once, in chunks.
-- course_id is indexed too so a search is scoped to one course inside FTS5 itself (matched as a
-- phrase, weighted 0 in bm25) instead of filtering a global top-k afterwards.
CREATE VIRTUAL TABLE `chunks_fts` USING fts5(`text`, `course_id`, content='chunks', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_insert` AFTER INSERT ON `chunks` BEGIN
  INSERT INTO `chunks_fts`(rowid, `text`, `course_id`) VALUES (new.`seq`, new.`text`, new.`course_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_delete` AFTER DELETE ON `chunks` BEGIN
  INSERT INTO `chunks_fts`(`chunks_fts`, rowid, `text`, `course_id`) VALUES ('delete', old.`seq`, old.`text`, old.`course_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_update` AFTER UPDATE OF `text`, `course_id` ON `chunks` BEGIN
  INSERT INTO `chunks_fts`(`chunks_fts`, rowid, `text`, `course_id`) VALUES ('delete', old.`seq`, old.`text`, old.`course_id`);
  INSERT INTO `chunks_fts`(rowid, `text`, `course_id`) VALUES (new.`seq`, new.`text`, new.`course_id`);
END;
--> statement-breakpoint
-- Dense vectors, filled only when an embedding model is configured. One fixed width so the
-- ANN index can live in this migration: shorter embeddings are zero-padded (cosine distance is
-- unchanged by padding), text-embedding-3 models are asked for exactly 1024 dimensions, and a
-- wider model is refused with a clear error (lib/ai/providers.ts).
CREATE TABLE `chunk_vectors` (
  `chunk_seq` integer PRIMARY KEY NOT NULL REFERENCES `chunks`(`seq`) ON DELETE CASCADE,
  `model` text NOT NULL,
  `embedding` F32_BLOB(1024) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `chunk_vectors_ann` ON `chunk_vectors`(libsql_vector_idx(`embedding`, 'metric=cosine'));
