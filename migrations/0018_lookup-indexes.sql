CREATE INDEX "events_comment_idx" ON "events" USING btree ("goal_id",(data->>'commentId')) WHERE data ? 'commentId';--> statement-breakpoint
CREATE INDEX "gates_pr_idx" ON "gates" USING btree ("goal_id","pr_number") WHERE pr_number IS NOT NULL;--> statement-breakpoint
CREATE INDEX "todos_sub_issue_idx" ON "todos" USING btree ("sub_issue_id") WHERE sub_issue_id IS NOT NULL;