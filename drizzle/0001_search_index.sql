-- Lexical index over chunk text (BM25). External content: the text lives once, in chunks.
CREATE VIRTUAL TABLE `chunks_fts` USING fts5(`text`, content='chunks', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_insert` AFTER INSERT ON `chunks` BEGIN
  INSERT INTO `chunks_fts`(rowid, `text`) VALUES (new.`seq`, new.`text`);
END;
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_delete` AFTER DELETE ON `chunks` BEGIN
  INSERT INTO `chunks_fts`(`chunks_fts`, rowid, `text`) VALUES ('delete', old.`seq`, old.`text`);
END;
--> statement-breakpoint
CREATE TRIGGER `chunks_fts_update` AFTER UPDATE OF `text` ON `chunks` BEGIN
  INSERT INTO `chunks_fts`(`chunks_fts`, rowid, `text`) VALUES ('delete', old.`seq`, old.`text`);
  INSERT INTO `chunks_fts`(rowid, `text`) VALUES (new.`seq`, new.`text`);
END;
--> statement-breakpoint
-- Dense vectors, filled only when an embedding model is configured. One fixed width so the
-- ANN index can live in this migration: shorter embeddings are zero-padded (cosine distance is
-- unchanged by padding), text-embedding-3 models are asked for exactly 1024 dimensions, and a
-- wider model is refused with a clear error (lib/ai/embed.ts).
CREATE TABLE `chunk_vectors` (
  `chunk_seq` integer PRIMARY KEY NOT NULL REFERENCES `chunks`(`seq`) ON DELETE CASCADE,
  `model` text NOT NULL,
  `embedding` F32_BLOB(1024) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `chunk_vectors_ann` ON `chunk_vectors`(libsql_vector_idx(`embedding`, 'metric=cosine'));
