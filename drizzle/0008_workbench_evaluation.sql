CREATE TABLE `course_settings` (
	`course_id` text PRIMARY KEY NOT NULL,
	`min_score` real,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `eval_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`course_id` text NOT NULL,
	`set_id` text,
	`set_name` text NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`configs` text NOT NULL,
	`progress` integer DEFAULT 0 NOT NULL,
	`total` integer NOT NULL,
	`report` text,
	`error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`set_id`) REFERENCES `golden_sets`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `eval_runs_course` ON `eval_runs` (`course_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `golden_questions` (
	`id` text PRIMARY KEY NOT NULL,
	`set_id` text NOT NULL,
	`key` text NOT NULL,
	`ordinal` integer NOT NULL,
	`kind` text NOT NULL,
	`expect` text NOT NULL,
	`question` text NOT NULL,
	`history` text NOT NULL,
	`answer` text,
	`passages` text NOT NULL,
	`split` text DEFAULT 'test' NOT NULL,
	`off_topic` integer DEFAULT false NOT NULL,
	`note` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`set_id`) REFERENCES `golden_sets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `golden_questions_set_key` ON `golden_questions` (`set_id`,`key`);--> statement-breakpoint
CREATE INDEX `golden_questions_set` ON `golden_questions` (`set_id`,`ordinal`);--> statement-breakpoint
CREATE TABLE `golden_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`course_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `golden_sets_course_name` ON `golden_sets` (`course_id`,`name`);--> statement-breakpoint
CREATE TABLE `probe_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`course_id` text NOT NULL,
	`question` text NOT NULL,
	`verdict` text NOT NULL,
	`summary` text NOT NULL,
	`conditions` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `probe_runs_course` ON `probe_runs` (`course_id`,`created_at`);