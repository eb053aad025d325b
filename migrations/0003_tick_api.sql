CREATE TABLE "tick_dispatches" (
	"goal_id" uuid PRIMARY KEY NOT NULL,
	"wake_at" timestamp with time zone,
	"dispatched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"run_id" bigint
);
--> statement-breakpoint
CREATE TABLE "used_tokens" (
	"jti" text PRIMARY KEY NOT NULL,
	"repo_id" bigint NOT NULL,
	"run_id" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tick_dispatches" ADD CONSTRAINT "tick_dispatches_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tick_dispatches_run_idx" ON "tick_dispatches" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "used_tokens_run_idx" ON "used_tokens" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "used_tokens_expires_idx" ON "used_tokens" USING btree ("expires_at");