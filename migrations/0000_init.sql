CREATE TABLE "goals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"installation_id" bigint NOT NULL,
	"repo_id" bigint NOT NULL,
	"repo_owner_id" bigint NOT NULL,
	"repo_owner" text NOT NULL,
	"repo_name" text NOT NULL,
	"issue_id" bigint NOT NULL,
	"issue_number" integer NOT NULL,
	"status" text NOT NULL,
	"status_reason" text DEFAULT '' NOT NULL,
	"harness" text NOT NULL,
	"validation_command" text,
	"version" integer NOT NULL,
	"next_wake_at" timestamp with time zone,
	"backoff_level" integer DEFAULT 0 NOT NULL,
	"backoff" jsonb NOT NULL,
	"replan_requested" boolean DEFAULT false NOT NULL,
	"focus" text,
	"objective" jsonb NOT NULL,
	"owners" jsonb NOT NULL,
	"budget" jsonb NOT NULL,
	"tick_cap" jsonb NOT NULL,
	"quota" jsonb NOT NULL,
	"granted_scopes" jsonb NOT NULL,
	"counters" jsonb NOT NULL,
	"spent" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "installations" (
	"id" bigint PRIMARY KEY NOT NULL,
	"account_login" text,
	"account_id" bigint,
	"account_type" text,
	"suspended_at" timestamp with time zone,
	"kill_switch" boolean DEFAULT false NOT NULL,
	"spend_ceiling" jsonb,
	"repo_spend_ceiling" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"goal_id" uuid NOT NULL,
	"type" text NOT NULL,
	"actor" jsonb NOT NULL,
	"delivery_id" text,
	"tick_id" uuid,
	"at" timestamp with time zone NOT NULL,
	"data" jsonb NOT NULL,
	"version_before" integer,
	"version_after" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbox" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"event" text NOT NULL,
	"action" text,
	"installation_id" bigint,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"outcome" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"goal_id" uuid NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"goal_version" integer NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	"dead_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evidence" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"goal_id" uuid NOT NULL,
	"todo" text,
	"tick_id" uuid,
	"kind" text NOT NULL,
	"summary" text NOT NULL,
	"url" text,
	"sha" text,
	"observed_at" timestamp with time zone NOT NULL,
	"stale" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "handoffs" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"goal_id" uuid NOT NULL,
	"tick_id" uuid NOT NULL,
	"done" text NOT NULL,
	"next" text NOT NULL,
	"questions" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"goal_id" uuid NOT NULL,
	"from_login" text NOT NULL,
	"trusted" boolean NOT NULL,
	"text" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"delivered_to" uuid
);
--> statement-breakpoint
CREATE TABLE "pull_requests" (
	"goal_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"seq" bigserial NOT NULL,
	"todo" text,
	"head_ref" text NOT NULL,
	"head_sha" text NOT NULL,
	"state" text NOT NULL,
	CONSTRAINT "pull_requests_goal_id_number_pk" PRIMARY KEY("goal_id","number")
);
--> statement-breakpoint
CREATE TABLE "gates" (
	"goal_id" uuid NOT NULL,
	"key" text NOT NULL,
	"ordinal" integer NOT NULL,
	"question" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"status" text NOT NULL,
	"requested_from" jsonb NOT NULL,
	"todo" text,
	"pr_number" integer,
	"pr_head_sha" text,
	"opened_at" timestamp with time zone NOT NULL,
	"resolved_by" text,
	"resolved_at" timestamp with time zone,
	"note" text,
	CONSTRAINT "gates_goal_id_key_pk" PRIMARY KEY("goal_id","key")
);
--> statement-breakpoint
CREATE TABLE "ticks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"goal_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"todo" text NOT NULL,
	"agent" text NOT NULL,
	"harness" text NOT NULL,
	"run_id" bigint,
	"run_attempt" integer,
	"lease_token" text NOT NULL,
	"lease_expires_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"outcome" text,
	"failure" text,
	"cost" jsonb,
	"slot_spent" boolean DEFAULT false NOT NULL,
	"session_id" text
);
--> statement-breakpoint
CREATE TABLE "todos" (
	"goal_id" uuid NOT NULL,
	"key" text NOT NULL,
	"ordinal" integer NOT NULL,
	"title" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"kind" text NOT NULL,
	"position" integer NOT NULL,
	"origin" text NOT NULL,
	"required_scopes" jsonb NOT NULL,
	"sub_issue_id" bigint,
	"sub_issue_number" integer,
	"claim_tick_id" uuid,
	"claimed_by" text,
	"lease_expires_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"resume_when" jsonb,
	"blocked_reason" text,
	"completion" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "todos_goal_id_key_pk" PRIMARY KEY("goal_id","key")
);
--> statement-breakpoint
ALTER TABLE "goals" ADD CONSTRAINT "goals_installation_id_installations_id_fk" FOREIGN KEY ("installation_id") REFERENCES "public"."installations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handoffs" ADD CONSTRAINT "handoffs_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pull_requests" ADD CONSTRAINT "pull_requests_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gates" ADD CONSTRAINT "gates_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticks" ADD CONSTRAINT "ticks_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "goals_repo_issue_uniq" ON "goals" USING btree ("repo_id","issue_number");--> statement-breakpoint
CREATE INDEX "goals_due_idx" ON "goals" USING btree ("status","next_wake_at");--> statement-breakpoint
CREATE INDEX "goals_installation_idx" ON "goals" USING btree ("installation_id");--> statement-breakpoint
CREATE INDEX "goals_repo_idx" ON "goals" USING btree ("repo_id");--> statement-breakpoint
CREATE INDEX "events_goal_idx" ON "events" USING btree ("goal_id","id");--> statement-breakpoint
CREATE INDEX "inbox_pending_idx" ON "inbox" USING btree ("installation_id","received_at") WHERE processed_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_goal_key_uniq" ON "outbox" USING btree ("goal_id","key");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("next_attempt_at") WHERE done_at IS NULL AND dead_at IS NULL;--> statement-breakpoint
CREATE INDEX "evidence_goal_seq_idx" ON "evidence" USING btree ("goal_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "handoffs_goal_tick_uniq" ON "handoffs" USING btree ("goal_id","tick_id");--> statement-breakpoint
CREATE INDEX "notes_goal_seq_idx" ON "notes" USING btree ("goal_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "ticks_goal_number_uniq" ON "ticks" USING btree ("goal_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "ticks_run_uniq" ON "ticks" USING btree ("run_id","run_attempt") WHERE run_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "ticks_open_idx" ON "ticks" USING btree ("goal_id","lease_expires_at") WHERE finished_at IS NULL;--> statement-breakpoint
CREATE INDEX "ticks_goal_started_idx" ON "ticks" USING btree ("goal_id","started_at");