/**
 * A goal's age and open work as rows, written straight into the tables (cycles through the
 * App would take hours): finished history, and a thread of writers' notes.
 */
import postgres from "postgres";

/** How much history seedHistory writes. */
export interface HistorySize {
  todos: number;
  gates: number;
  prs: number;
  events: number;
  /** Notes earlier slices read. */
  notes: number;
}

/** History as rows: done todos, resolved gates, merged PRs, events, notes slices read. */
export async function seedHistory(url: string, goalId: string, size: HistorySize): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const completion = (n: string) =>
      `jsonb_build_object('continuation', jsonb_build_object('kind', 'goal_active'), 'evidenceIds', jsonb_build_array('00000000-0000-4000-8000-000000000001'), 'tickId', null, 'at', to_json(now() - interval '1 day' + ${n} * interval '1 second'))`;
    // Keys T2… follow the goal's one open todo T1; positions stay below it, as finished work's do.
    await sql.unsafe(
      `INSERT INTO todos (goal_id, key, ordinal, title, status, kind, position, origin, required_scopes, completion, created_at, updated_at)
       SELECT $1, 'T' || (n + 1), n + 1, 'Finished step ' || n, 'done', 'task', -n, 'human', '[]'::jsonb, ${completion("n")}, now(), now()
         FROM generate_series(1, $2::int) n`,
      [goalId, size.todos],
    );
    await sql.unsafe(
      `INSERT INTO pull_requests (goal_id, number, todo, head_ref, head_sha, state, monitor)
       SELECT $1, n, 'T' || (n + 1), 'loopx/1-T' || (n + 1), 'abcdef1234567', 'merged', '{}'::jsonb
         FROM generate_series(1, $2::int) n`,
      [goalId, size.prs],
    );
    // Half bound to a merged PR and approved (merge gates), half spent approvals (expired).
    await sql.unsafe(
      `INSERT INTO gates (goal_id, key, ordinal, question, scopes, status, requested_from, todo, pr_number, pr_head_sha, opened_at, resolved_by, resolved_at)
       SELECT $1, 'G' || n, n, 'Merge it?', '["merge"]'::jsonb,
              CASE WHEN n % 2 = 0 THEN 'approved' ELSE 'expired' END, '[]'::jsonb, NULL,
              CASE WHEN n % 2 = 0 THEN 1 + (n / 2 - 1) % $3::int END,
              CASE WHEN n % 2 = 0 THEN 'abcdef1234567' END, now(), 'bob', now()
         FROM generate_series(1, $2::int) n`,
      [goalId, size.gates, size.prs],
    );
    await sql.unsafe(
      `INSERT INTO events (goal_id, type, actor, at, data, version_before, version_after)
       SELECT $1, 'todo.added', '{"kind":"app"}'::jsonb, now(), '{}'::jsonb, 1, 1
         FROM generate_series(1, $2::int) n`,
      [goalId, size.events],
    );
    await seedNotes(sql, goalId, size.notes, true);
    await sql.unsafe(
      `UPDATE goals SET counters = jsonb_set(jsonb_set(counters, '{todo}', to_jsonb($2::int)), '{gate}', to_jsonb($3::int)) WHERE id = $1`,
      [goalId, size.todos + 2, size.gates + 1],
    );
    await sql.unsafe("ANALYZE");
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** `n` writers' notes on the goal, read by an earlier slice or still waiting for the next. */
async function seedNotes(sql: postgres.Sql, goalId: string, n: number, read: boolean) {
  await sql.unsafe(
    `INSERT INTO notes (id, goal_id, from_login, trusted, text, at, delivered_to)
     SELECT gen_random_uuid(), $1, 'bob', true, 'Note ' || n || ': keep the public API as it is.',
            now() - interval '1 day' + n * interval '1 second', $3::uuid
       FROM generate_series(1, $2::int) n`,
    [goalId, n, read ? "00000000-0000-4000-8000-000000000002" : null],
  );
}

/**
 * A thread that waited for a slice, on a goal of either age: open work, so both goals carry
 * it and the grown ÷ fresh ratio stays a measure of age. A claim delivers a slice's share.
 */
export async function seedWaitingThread(url: string, goalId: string, n: number): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await seedNotes(sql, goalId, n, false);
    await sql.unsafe("ANALYZE notes");
  } finally {
    await sql.end({ timeout: 5 });
  }
}
