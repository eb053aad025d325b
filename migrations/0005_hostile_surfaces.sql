CREATE TABLE "ended_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content_budget" ADD COLUMN "lane" text DEFAULT 'loopx' NOT NULL;--> statement-breakpoint
ALTER TABLE "content_budget" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "gates" ADD COLUMN "pr_head_seen_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "ended_sessions_expires_idx" ON "ended_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "content_budget_subject_idx" ON "content_budget" USING btree ("subject","at");