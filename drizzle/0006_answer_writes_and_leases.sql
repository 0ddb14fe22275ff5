CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `ingestion_jobs` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `ingestion_jobs` ADD `lease_until` integer;--> statement-breakpoint
-- Repair before the key: a message whose trace was never stored (written separately before 0006) keeps its answer, without a trace link.
UPDATE `messages` SET `trace_id` = NULL WHERE `trace_id` IS NOT NULL AND `trace_id` NOT IN (SELECT `id` FROM `traces`);--> statement-breakpoint
ALTER TABLE `messages` ALTER COLUMN "trace_id" TO "trace_id" text REFERENCES traces(id) ON DELETE set null ON UPDATE no action;