ALTER TABLE "goals" ADD COLUMN "outcomes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- Goals that ran before the totals existed: counted once from what their tables hold.
UPDATE "goals" g SET "outcomes" = jsonb_build_object(
  'todosDone', (SELECT count(*) FROM "todos" t WHERE t."goal_id" = g."id" AND t."status" = 'done'),
  'prsMerged', (SELECT count(*) FROM "pull_requests" p WHERE p."goal_id" = g."id" AND p."state" = 'merged'),
  'personActs', (SELECT count(DISTINCT e."version_after") FROM "events" e
    WHERE e."goal_id" = g."id" AND e."actor"->>'kind' = 'human' AND e."actor"->>'trusted' = 'true'),
  'decisions', (SELECT count(*) FROM "gates" x WHERE x."goal_id" = g."id"
    AND x."status" IN ('approved', 'rejected') AND x."resolved_by" IS NOT NULL),
  'waitedMs', (SELECT coalesce(floor(sum(extract(epoch FROM
      x."resolved_at" - greatest(x."opened_at", coalesce(x."pr_head_seen_at", x."opened_at")))) * 1000), 0)::bigint
    FROM "gates" x WHERE x."goal_id" = g."id"
    AND x."status" IN ('approved', 'rejected') AND x."resolved_by" IS NOT NULL AND x."resolved_at" IS NOT NULL)
);
