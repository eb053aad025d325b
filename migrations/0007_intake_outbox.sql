ALTER TABLE "outbox" ALTER COLUMN "goal_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "installation_id" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_installation_key_uniq" ON "outbox" USING btree ("installation_id","key") WHERE goal_id IS NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_has_target" CHECK (goal_id IS NOT NULL OR installation_id IS NOT NULL);