DROP INDEX "inbox_pending_idx";--> statement-breakpoint
CREATE INDEX "inbox_processed_idx" ON "inbox" USING btree ("processed_at") WHERE processed_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_done_idx" ON "outbox" USING btree ("done_at") WHERE done_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_dead_idx" ON "outbox" USING btree ("dead_at") WHERE dead_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "inbox_pending_idx" ON "inbox" USING btree ("installation_id","received_at","delivery_id") WHERE processed_at IS NULL;