import * as core from "@actions/core";
import { z } from "zod";
import { ActionInput } from "./inputs.ts";

type RawInputs = Record<keyof z.input<typeof ActionInput>, string | undefined>;

/**
 * Reads every declared input (a missing key is a type error here) and validates them once.
 * `core.getInput` returns "" for an absent input, so "" becomes undefined before parsing.
 */
export function getActionInputs(read: (name: string) => string = core.getInput): ActionInput {
  const get = (name: keyof RawInputs) => read(name) || undefined;
  const raw: RawInputs = {
    phase: get("phase"),
    "api-url": get("api-url"),
    audience: get("audience"),
    goal: get("goal"),
    slot: get("slot"),
    "tick-dir": get("tick-dir"),
    workdir: get("workdir"),
    harness: get("harness"),
    "shell-command": get("shell-command"),
    model: get("model"),
    "codex-prices": get("codex-prices"),
    "harness-env": get("harness-env"),
    token: get("token"),
    "max-usd": get("max-usd"),
    "max-minutes": get("max-minutes"),
    "agent-result": get("agent-result"),
    "dry-run": get("dry-run"),
  };
  const parsed = ActionInput.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`Invalid inputs to the LoopX action:\n${z.prettifyError(parsed.error)}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}
