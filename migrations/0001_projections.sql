CREATE TABLE "projections" (
	"goal_id" uuid NOT NULL,
	"target" text NOT NULL,
	"github_id" bigint,
	"read_body" text,
	"wrote_body" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projections_goal_id_target_pk" PRIMARY KEY("goal_id","target")
);
--> statement-breakpoint
ALTER TABLE "projections" ADD CONSTRAINT "projections_goal_id_goals_id_fk" FOREIGN KEY ("goal_id") REFERENCES "public"."goals"("id") ON DELETE cascade ON UPDATE no action;