ALTER TABLE "tick_dispatches" ADD COLUMN "slot" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tick_dispatches" DROP CONSTRAINT "tick_dispatches_pkey";--> statement-breakpoint
ALTER TABLE "tick_dispatches" ADD CONSTRAINT "tick_dispatches_goal_id_slot_pk" PRIMARY KEY("goal_id","slot");
