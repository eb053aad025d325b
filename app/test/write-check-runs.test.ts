import { PrMonitor } from "@loopx/core";
import { GitHubError, type GitHubPort } from "@loopx/github";
import type { Projection } from "@loopx/store";
import { describe, expect, it } from "vitest";
import { at, minutes, state, todo } from "../../packages/core/test/fixtures.ts";
import {
  acceptedMarker,
  RETRY_CHECKS_AFTER_MS,
  UNAVAILABLE,
} from "../src/outbox/checks-refusal.ts";
import type { EffectContext } from "../src/outbox/perform-effect.ts";
import { writeCheckRuns } from "../src/outbox/write-check-runs.ts";

const REFUSED = "Resource not accessible by integration";
const goal = state({
  todos: [todo("T1")],
  pullRequests: [
    {
      number: 5,
      todo: "T1",
      headRef: "loopx/1-T1",
      headSha: "abcdef1234",
      state: "open",
      monitor: PrMonitor.parse({}),
    },
  ],
});

/**
 * The goal's projections in memory, and a port that answers check-run creates as told. The
 * port has nothing else: a notice (which reads collaborators and comments) would throw.
 */
function harness(marker: string | null, answer: "refuse" | "create") {
  const rows = new Map<string, Projection>();
  if (marker !== null)
    rows.set(UNAVAILABLE, {
      githubId: null,
      readBody: null,
      wroteBody: marker,
      wroteIsCurrent: false,
    });
  const creates: string[] = [];
  const port: Pick<GitHubPort, "createCheckRun"> = {
    createCheckRun: (_repo, _sha, run) => {
      creates.push(run.name);
      if (answer === "refuse") return Promise.reject(new GitHubError(REFUSED, 403, null));
      return Promise.resolve({ id: 77 });
    },
  };
  const store = {
    getProjection: (_goal: string, target: string) => Promise.resolve(rows.get(target) ?? null),
    setProjection: (_goal: string, target: string, fields: Partial<Projection>) => {
      const was = rows.get(target) ?? {
        githubId: null,
        readBody: null,
        wroteBody: null,
        wroteIsCurrent: false,
      };
      rows.set(target, { ...was, ...fields });
      return Promise.resolve();
    },
  };
  const run = (now: Date) =>
    writeCheckRuns({
      deps: { store, serverUrl: "https://github.example" },
      port,
      state: goal,
      now,
    } as unknown as EffectContext);
  return { rows, creates, run };
}

const refusedAt = (t: Date) => JSON.stringify({ refusedAt: t.toISOString(), message: REFUSED });

describe("writeCheckRuns after GitHub refused checks: write", () => {
  it("asks nothing again within the hour of the refusal", async () => {
    const h = harness(refusedAt(at(0)), "create");
    await h.run(at(RETRY_CHECKS_AFTER_MS - 1));
    expect(h.creates).toEqual([]);
    expect(h.rows.get(UNAVAILABLE)?.wroteBody).toBe(refusedAt(at(0)));
  });

  it("asks again once the hour is over, and a second refusal only moves the marker", async () => {
    const h = harness(refusedAt(at(0)), "refuse");
    const later = at(RETRY_CHECKS_AFTER_MS);
    await h.run(later);
    expect(h.creates).toEqual(["LoopX / gates"]);
    expect(JSON.parse(h.rows.get(UNAVAILABLE)?.wroteBody ?? "")).toMatchObject({
      refusedAt: later.toISOString(),
      accepted: false,
    });
    // Renewed: the next hour counts from the second refusal.
    await h.run(at(RETRY_CHECKS_AFTER_MS + minutes(30)));
    expect(h.creates).toHaveLength(1);
  });

  it("after the installation accepted new permissions, asks at once and writes the check", async () => {
    const h = harness(acceptedMarker(refusedAt(at(0))), "create");
    await h.run(at(minutes(1)));
    expect(h.creates).toEqual(["LoopX / gates"]);
    expect(h.rows.get("check:LoopX / gates:abcdef1234")?.githubId).toBe(77);
  });

  it("a marker from before it said when counts as refused long ago", async () => {
    const h = harness(REFUSED, "create");
    await h.run(at(0));
    expect(h.creates).toEqual(["LoopX / gates"]);
  });
});
