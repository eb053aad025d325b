/**
 * A delivery settled on arrival is stored processed and never reaches the worker, so what it
 * is stored with must be what the worker would have recorded, decided without anything the
 * worker could read (the store, GitHub): the worker runs here on deps that throw when
 * touched. Every other delivery is left to the worker.
 */
import { createRequire } from "node:module";
import type { Delivery } from "@loopx/store";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AppDeps } from "../src/deps.ts";
import {
  ignoredOutcome,
  processDelivery,
  settledOnArrival,
} from "../src/inbox/process-delivery.ts";
import { storedDelivery } from "./stored-delivery.ts";

const Examples = z.array(
  z.object({ name: z.string(), examples: z.array(z.record(z.string(), z.unknown())) }),
);
const examples = Examples.parse(createRequire(import.meta.url)("@octokit/webhooks-examples"));
const INSTALLATION = { id: 1, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==" };

/** GitHub's first example of `name.action`, as an App receives it, with `over` on its run. */
function example(name: string, action: string, run: Record<string, unknown> = {}): Delivery {
  const found = examples.find((e) => e.name === name)?.examples.find((x) => x.action === action);
  if (!found) throw new Error(`@octokit/webhooks-examples has no ${name}.${action}`);
  const payload: Record<string, unknown> = {
    installation: INSTALLATION,
    ...structuredClone(found),
  };
  if (name === "check_run") {
    payload.check_run = { ...z.record(z.string(), z.unknown()).parse(found.check_run), ...run };
  }
  return storedDelivery(`${name}-${action}`, payload, { event: name, action });
}

/** Deps the worker may not touch: a settled delivery needs nothing but its payload. */
const untouchable: AppDeps = new Proxy(Object.create(null), {
  get: (_, key) => {
    throw new Error(`the worker read deps.${String(key)} for a delivery settled on arrival`);
  },
});

async function workerOutcome(d: Delivery): Promise<string> {
  const outcome = await processDelivery(untouchable, d);
  if (outcome.kind !== "ignored") throw new Error(`the worker ${outcome.kind} ${d.deliveryId}`);
  return ignoredOutcome(outcome.why);
}

describe("deliveries settled on arrival", () => {
  const settled = {
    "an event no handler reads": example("star", "created"),
    ...Object.fromEntries(
      ["success", "neutral", "skipped"].map((c) => [
        `a check run that concluded ${c}`,
        example("check_run", "completed", { conclusion: c, status: "completed" }),
      ]),
    ),
  };
  for (const [what, delivery] of Object.entries(settled)) {
    it(`${what}: stored with the outcome the worker would record`, async () => {
      const outcome = settledOnArrival(delivery);
      expect(outcome).not.toBeNull();
      expect(outcome).toBe(await workerOutcome(delivery));
    });
  }

  const left = {
    "a check run that failed": example("check_run", "completed", { conclusion: "failure" }),
    "a check run that timed out": example("check_run", "completed", { conclusion: "timed_out" }),
    "a check run whose conclusion GitHub added later": example("check_run", "completed", {
      conclusion: "some_new_value",
    }),
    "a check run whose payload is not what GitHub documents": storedDelivery(
      "malformed",
      { action: "completed", check_run: { conclusion: "success" } },
      { event: "check_run", action: "completed" },
    ),
    "a check suite that completed": example("check_suite", "completed"),
    "a comment": example("issue_comment", "created"),
    "a label": example("issues", "labeled"),
  };
  for (const [what, delivery] of Object.entries(left)) {
    it(`${what}: left to the worker`, () => {
      expect(settledOnArrival(delivery)).toBeNull();
    });
  }
});
