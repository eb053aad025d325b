/**
 * The faults a `bench:loop` cell injects into LoopX's world beyond a killed runner and a
 * restart (which the arm plays itself): GitHub losing, duplicating or reordering webhooks,
 * failing the App's writes, a person rewriting the status comment, and a reviewer approving
 * a head the pull request has left. Each is armed once the goal has started, and reported at
 * the end as one fault however much of the run it struck, with what was not put right by then.
 */
import type { Gate } from "@loopx/core";
import { readKey } from "@loopx/github";
import type { Sandbox } from "../../../../packages/sandbox/src/index.ts";
import { Comment, type RepoRest } from "../../world/rest.ts";
import type { ArmRun, FaultName } from "../arm-types.ts";

const FAILING_WRITES = [
  ["pulls/create", 502],
  ["actions/create-workflow-dispatch", 503],
  ["issues/update", 500],
] as const;
/**
 * GitHub's limits on the App's writes: the secondary limit on content creation (403 with
 * `retry-after`) on comments and PRs, and the primary limit (429) on dispatches.
 */
const LIMITED_WRITES = [
  ["issues/create-comment", 403],
  ["pulls/create", 403],
  ["actions/create-workflow-dispatch", 429],
] as const;
const RETRY_AFTER_SECONDS = 60;
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
  /** The maintainer's and the reviewer's clients for the cell's repository. */
  maintainer: RepoRest;
  reviewer: RepoRest;
  issue: number;
  /** When the person rewrites the status comment. */
  editAt: number;
  /** Lets GitHub and the App finish what is in flight. */
  settle: () => Promise<void>;
  /** The goal's gates as LoopX holds them now. */
  gates: () => Promise<Gate[]>;
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
  if (fault === "github-rate-limited") {
    for (const [route, status] of LIMITED_WRITES) {
      sandbox.faults.route({ route, status, retryAfter: RETRY_AFTER_SECONDS, times: 2 });
    }
  }
  const struck: string[] = [];
  const unrecovered: string[] = [];
  let edited: number | null = null;
  const firstHeads = new Map<number, string>();
  let staleDone = false;

  /**
   * The reviewer approves the head a PR had before its last push, as from a page opened before
   * it: LoopX may approve a gate about that head, never one about the head that replaced it.
   */
  const approveStale = async (label: string) => {
    for (const pull of await opts.maintainer.openPulls()) {
      const first = firstHeads.get(pull.number);
      if (first === undefined) firstHeads.set(pull.number, pull.head.sha);
      if (first === undefined || first === pull.head.sha) continue;
      const approvedBefore = approvedOn(await opts.gates(), pull.number);
      await opts.reviewer.review(pull.number, first, "APPROVE", "LGTM (an old tab).");
      await opts.settle();
      staleDone = true;
      struck.push(
        `the reviewer approved #${pull.number} at ${first.slice(0, 7)}, a head it had left, at ${label}`,
      );
      for (const gate of approvedOn(await opts.gates(), pull.number)) {
        if (approvedBefore.some((g) => g.key === gate.key) || gate.pr?.headSha === first) continue;
        unrecovered.push(
          `${gate.key} took the approval of ${first.slice(0, 7)} for ${gate.pr?.headSha.slice(0, 7)}`,
        );
      }
      return;
    }
  };

  return {
    async act(now, label) {
      if (fault === "stale-approval" && !staleDone) await approveStale(label);
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
      run.unrecovered.push(...unrecovered);
      if (edited !== null) {
        const now = await maintainer.call("GET", `/issues/comments/${edited}`, Comment);
        if (readKey(now.body) !== "status") {
          run.unrecovered.push("the status comment still holds the person's text");
        }
      }
      // One fault, however many requests the burst failed or limited.
      const struckWrites = (writes: readonly (readonly [string, number])[], what: string) => {
        const hit = sandbox
          .requests()
          .filter((r) =>
            writes.some(([op, status]) => op === r.operationId && status === r.status),
          );
        if (hit.length === 0) return;
        const ops = [...new Set(hit.map((r) => r.operationId))].join(", ");
        run.faults.push(`GitHub ${what} ${hit.length} of the App's writes (${ops})`);
      };
      struckWrites(FAILING_WRITES, "failed");
      struckWrites(LIMITED_WRITES, "rate-limited");
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

function approvedOn(gates: Gate[], pr: number): Gate[] {
  return gates.filter((g) => g.pr?.number === pr && g.status === "approved");
}
