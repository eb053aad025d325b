/**
 * The faults a `bench:loop` cell injects into LoopX's world beyond a killed runner and a
 * restart (which the arm plays itself): GitHub losing, duplicating or reordering webhooks,
 * failing the App's writes, and a person rewriting the status comment. Each is armed once the
 * goal has started, and reported at the end as one fault however much of the run it struck,
 * with what was not put right by then.
 */
import { readKey } from "@loopx/github";
import type { Sandbox } from "../../../../packages/sandbox/src/index.ts";
import { Comment, type RepoRest } from "../../world/rest.ts";
import type { ArmRun, FaultName } from "../arm-types.ts";

const FAILING_WRITES = [
  ["pulls/create", 502],
  ["actions/create-workflow-dispatch", 503],
  ["issues/update", 500],
] as const;
/** Deliveries a duplicating or reordering GitHub strikes, from the goal's start on. */
const SHUFFLED_DELIVERIES = 40;
/** What the maintainer leaves in the status comment in its place. */
const PERSON_TEXT = "Status moved to the team board; see the weekly notes.";

export interface LoopxFaults {
  /** Lets the fault act at simulated time `now` (the status comment is rewritten once). */
  act(now: number, label: string): Promise<void>;
  /** Writes what struck, and what is still wrong, into `run`. */
  report(run: ArmRun): Promise<void>;
}

export function armLoopxFaults(opts: {
  fault: FaultName;
  sandbox: Sandbox;
  /** The maintainer's client for the cell's repository. */
  maintainer: RepoRest;
  issue: number;
  /** When the person rewrites the status comment. */
  editAt: number;
}): LoopxFaults {
  const { fault, sandbox, maintainer, issue } = opts;
  // The first merge's webhook never arrives: the App must find the merge by itself.
  if (fault === "webhook-lost") {
    sandbox.faults.webhook({ mode: "drop", event: "pull_request.closed", times: 1 });
  }
  // GitHub sends the next deliveries twice (a redelivery after a timeout it did not see
  // answered), or each one after the one behind it: the App acts once, in order of truth.
  if (fault === "webhook-duplicated") {
    sandbox.faults.webhook({ mode: "duplicate", times: SHUFFLED_DELIVERIES });
  }
  if (fault === "webhook-reordered") {
    sandbox.faults.webhook({ mode: "reorder", times: SHUFFLED_DELIVERIES });
  }
  // GitHub fails the App's own writes a few times: opening PRs, dispatching ticks and
  // editing the goal's body (routes no person here calls, so only the App meets them).
  if (fault === "github-5xx") {
    for (const [route, status] of FAILING_WRITES) sandbox.faults.route({ route, status, times: 2 });
  }
  const struck: string[] = [];
  let edited: number | null = null;
  return {
    async act(now, label) {
      if (fault !== "sticky-edited" || edited !== null || now < opts.editAt) return;
      // A writer may edit anyone's comment: the maintainer rewrites LoopX's status comment.
      const status = (await maintainer.comments(issue)).find(
        (c) => c.user?.login === "loopx[bot]" && readKey(c.body) === "status",
      );
      if (!status) return;
      await maintainer.call("PATCH", `/issues/comments/${status.id}`, Comment, {
        body: PERSON_TEXT,
      });
      edited = status.id;
      struck.push(`the maintainer rewrote the status comment at ${label}`);
    },
    async report(run) {
      run.faults.push(...struck);
      if (edited !== null) {
        const now = await maintainer.call("GET", `/issues/comments/${edited}`, Comment);
        if (readKey(now.body) !== "status") {
          run.unrecovered.push("the status comment still holds the person's text");
        }
      }
      // One fault, however many requests the burst failed.
      const failed = sandbox
        .requests()
        .filter((r) => r.status >= 500 && FAILING_WRITES.some(([op]) => op === r.operationId));
      if (failed.length > 0) {
        const ops = [...new Set(failed.map((r) => r.operationId))].join(", ");
        run.faults.push(`GitHub failed ${failed.length} of the App's writes (${ops})`);
      }
      for (const d of sandbox.deliveries().filter((x) => x.dropped)) {
        run.faults.push(`webhook ${d.event}${d.action ? `.${d.action}` : ""} lost`);
      }
      // One fault, however many deliveries it struck.
      for (const mode of ["duplicate", "reorder"] as const) {
        const hit = sandbox.deliveries().filter((x) => x.fault === mode);
        if (hit.length === 0) continue;
        const events = [...new Set(hit.map((d) => `${d.event}${d.action ? `.${d.action}` : ""}`))];
        const how = mode === "duplicate" ? "sent twice" : "sent out of order";
        run.faults.push(`${hit.length} webhooks ${how} (${events.join(", ")})`);
      }
    },
  };
}
