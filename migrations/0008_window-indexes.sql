CREATE INDEX "pull_requests_open_idx" ON "pull_requests" USING btree ("goal_id") WHERE state = 'open';--> statement-breakpoint
CREATE INDEX "pull_requests_seq_idx" ON "pull_requests" USING btree ("goal_id","seq");--> statement-breakpoint
CREATE INDEX "gates_live_idx" ON "gates" USING btree ("goal_id","ordinal") WHERE status IN ('open', 'rejected', 'approved');--> statement-breakpoint
CREATE INDEX "gates_ordinal_idx" ON "gates" USING btree ("goal_id","ordinal");--> statement-breakpoint
CREATE INDEX "gates_approved_scopes_idx" ON "gates" USING btree ("goal_id","scopes",ordinal DESC) WHERE status = 'approved';--> statement-breakpoint
CREATE INDEX "todos_unfinished_idx" ON "todos" USING btree ("goal_id","ordinal") WHERE status NOT IN ('done', 'dropped');--> statement-breakpoint
CREATE INDEX "todos_finished_idx" ON "todos" USING btree ("goal_id",(completion->>'at') DESC NULLS LAST,ordinal DESC) WHERE status IN ('done', 'dropped');--> statement-breakpoint
CREATE INDEX "todos_position_idx" ON "todos" USING btree ("goal_id","position");