ALTER TABLE "goals" ADD COLUMN "parallel" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "ticks" ADD COLUMN "slot" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "todos" ADD COLUMN "paths" jsonb DEFAULT '[]'::jsonb NOT NULL;