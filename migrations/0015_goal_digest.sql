ALTER TABLE "goals" ADD COLUMN "digest" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "goals" ADD COLUMN "digest_due_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "goals_digest_due_idx" ON "goals" USING btree ("status","digest_due_at");