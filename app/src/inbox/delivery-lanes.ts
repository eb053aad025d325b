import type { Delivery } from "@loopx/store";
import { z } from "zod";

/** Only what orders a delivery: the repository and the issue, pull request or commit it is about. */
const Subject = z.object({
  repository: z.object({ id: z.number() }).optional(),
  issue: z.object({ number: z.number() }).optional(),
  pull_request: z.object({ number: z.number() }).optional(),
  check_run: z.object({ head_sha: z.string() }).optional(),
  check_suite: z.object({ head_sha: z.string() }).optional(),
  workflow_run: z.object({ head_sha: z.string() }).optional(),
  sha: z.string().optional(),
  after: z.string().optional(),
});
type Subject = z.infer<typeof Subject>;

/**
 * The commit a CI or push delivery names, by event: the PR monitor reads the pull request
 * afresh for each, so deliveries about different commits need no order between them, and
 * one commit's (its check runs, suites and statuses) share a lane and keep GitHub's order.
 */
const HEAD_OF: Readonly<Record<string, (p: Subject) => string | undefined>> = {
  check_run: (p) => p.check_run?.head_sha,
  check_suite: (p) => p.check_suite?.head_sha,
  status: (p) => p.sha,
  workflow_run: (p) => p.workflow_run?.head_sha,
  push: (p) => p.after,
};

/**
 * The issue, pull request or commit a delivery is about, or null when it is about more
 * than one (repository and installation changes): those are barriers, run alone.
 */
export function subjectOf(delivery: Delivery): string | null {
  const parsed = Subject.safeParse(delivery.payload);
  if (!parsed.success || !parsed.data.repository) return null;
  const repo = parsed.data.repository.id;
  const number = parsed.data.issue?.number ?? parsed.data.pull_request?.number;
  if (number !== undefined) return `${repo}#${number}`;
  const head = HEAD_OF[delivery.event]?.(parsed.data);
  return head === undefined ? null : `${repo}@${head}`;
}

/**
 * Runs a batch with up to `parallel` deliveries at a time while keeping GitHub's order
 * where it matters: deliveries about one issue or pull request run one after another, in
 * batch order (as do one commit's check runs and statuses); a delivery about no single one waits for everything before it and holds
 * back everything after it. Different goals' transitions never share a row lock, so they
 * need not wait for each other; one goal's are serialised by its row lock anyway, but in
 * no particular order, which is why one issue's deliveries stay in one lane.
 */
export async function runInLanes(
  batch: readonly Delivery[],
  parallel: number,
  run: (d: Delivery) => Promise<void>,
): Promise<void> {
  let segment: Delivery[][] = [];
  let lanes = new Map<string, Delivery[]>();
  const flush = async () => {
    await pool(segment, parallel, async (lane) => {
      for (const d of lane) await run(d);
    });
    segment = [];
    lanes = new Map();
  };
  for (const d of batch) {
    const subject = subjectOf(d);
    if (subject === null) {
      await flush();
      await run(d);
      continue;
    }
    const lane = lanes.get(subject);
    if (lane) lane.push(d);
    else {
      const fresh = [d];
      lanes.set(subject, fresh);
      segment.push(fresh);
    }
  }
  await flush();
}

/**
 * `work` over `items`, at most `limit` at once. A failure stops no other item; the first
 * is rethrown once all have finished, so nothing is left running behind the caller.
 */
async function pool<T>(items: readonly T[], limit: number, work: (t: T) => Promise<void>) {
  let next = 0;
  const failures: unknown[] = [];
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) await work(item).catch((error: unknown) => failures.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failures.length > 0) throw failures[0];
}
