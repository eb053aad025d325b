import type { Delivery } from "@loopx/store";
import { describe, expect, it } from "vitest";
import { runInLanes, subjectOf } from "../src/inbox/delivery-lanes.ts";
import { storedDelivery } from "./stored-delivery.ts";

const delivery = (id: string, payload: unknown): Delivery => storedDelivery(id, payload);
const onIssue = (id: string, n: number) =>
  delivery(id, { repository: { id: 7 }, issue: { number: n } });
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/** Runs a batch, logging each delivery's start and end: the most in flight, and where each came. */
async function runLogged(batch: Delivery[]) {
  const log: string[] = [];
  let inFlight = 0;
  let most = 0;
  await runInLanes(batch, 8, async (d) => {
    inFlight++;
    most = Math.max(most, inFlight);
    log.push(`start ${d.deliveryId}`);
    await tick();
    log.push(`end ${d.deliveryId}`);
    inFlight--;
  });
  return { most, at: (s: string) => log.indexOf(s) };
}

describe("runInLanes", () => {
  it("names the issue or pull request a delivery is about, or none", () => {
    expect(subjectOf(onIssue("a", 3))).toBe("7#3");
    expect(subjectOf(delivery("b", { repository: { id: 7 }, pull_request: { number: 4 } }))).toBe(
      "7#4",
    );
    expect(subjectOf(delivery("c", { repository: { id: 7 }, ref: "refs/heads/main" }))).toBeNull();
    expect(subjectOf(delivery("d", "not an object"))).toBeNull();
  });

  it("names the commit a check, status, workflow run or push is about", () => {
    const as = (event: string, payload: unknown): Delivery => ({
      ...delivery(event, payload),
      event,
    });
    const repository = { id: 7 };
    expect(subjectOf(as("check_run", { repository, check_run: { head_sha: "abc" } }))).toBe(
      "7@abc",
    );
    expect(subjectOf(as("check_suite", { repository, check_suite: { head_sha: "abc" } }))).toBe(
      "7@abc",
    );
    expect(subjectOf(as("status", { repository, sha: "abc" }))).toBe("7@abc");
    expect(subjectOf(as("workflow_run", { repository, workflow_run: { head_sha: "def" } }))).toBe(
      "7@def",
    );
    expect(subjectOf(as("push", { repository, ref: "refs/heads/main", after: "def" }))).toBe(
      "7@def",
    );
    // A field another event happens to carry names nothing: only the event's own does.
    expect(subjectOf(as("repository", { repository, sha: "abc" }))).toBeNull();
    expect(subjectOf(as("installation", { sha: "abc" }))).toBeNull();
    expect(subjectOf(as("check_run", { repository, check_run: { head_sha: 5 } }))).toBeNull();
  });

  it("runs different commits' checks at once and one commit's in order, behind a barrier", async () => {
    const check = (id: string, sha: string): Delivery => ({
      ...delivery(id, { repository: { id: 7 }, check_run: { head_sha: sha } }),
      event: "check_run",
    });
    const renamed: Delivery = {
      ...delivery("renamed", { repository: { id: 7 } }),
      event: "repository",
    };
    const batch = [check("a1", "a"), check("b1", "b"), check("a2", "a"), renamed, check("b2", "b")];
    const { most, at } = await runLogged(batch);
    expect(most).toBe(2);
    expect(at("start b1")).toBeLessThan(at("end a1"));
    expect(at("end a1")).toBeLessThan(at("start a2"));
    expect(at("start renamed")).toBeGreaterThan(Math.max(at("end a2"), at("end b1")));
    expect(at("start b2")).toBeGreaterThan(at("end renamed"));
  });

  it("keeps one issue's deliveries in order, runs different issues at once, and a barrier alone", async () => {
    const batch = [
      onIssue("1a", 1),
      onIssue("2a", 2),
      onIssue("1b", 1),
      delivery("push", { repository: { id: 7 } }),
      onIssue("1c", 1),
    ];
    const { most, at } = await runLogged(batch);
    expect(most).toBe(2);
    expect(at("end 1a")).toBeLessThan(at("start 1b"));
    expect(at("start 2a")).toBeLessThan(at("end 1a"));
    expect(at("start push")).toBeGreaterThan(Math.max(at("end 1b"), at("end 2a")));
    expect(at("start 1c")).toBeGreaterThan(at("end push"));
  });

  it("finishes every lane when one fails, then reports the failure", async () => {
    const done: string[] = [];
    const run = runInLanes([onIssue("x", 1), onIssue("y", 2)], 8, async (d) => {
      await tick();
      if (d.deliveryId === "x") throw new Error("boom");
      done.push(d.deliveryId);
    });
    await expect(run).rejects.toThrow("boom");
    expect(done).toEqual(["y"]);
  });
});
