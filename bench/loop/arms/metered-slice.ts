/**
 * The metering proxy between the agent and its model, as the shipped action runs it: it
 * alone holds the model key, counts what the slice spends and refuses model calls past the
 * slice's USD ceiling. The bench's agent spends its tokens in replies of REPLY_TOKENS, evenly
 * over the files it writes. Under a tick cap the reply in flight when the cap is reached still
 * counts; on the last of a goal's budget (a hard ceiling) no reply starts that could cross it,
 * whose cost the bench knows exactly where the shipped proxy bounds it from the provider's
 * count. A stopped slice keeps the writes it paid for (the first ones, in the order written),
 * never its notes (written last), and claims nothing: it was stopped before it could say what
 * it did. Arms without a proxy (B0, B1) call the agent directly.
 */
import type { AgentOutcome, SliceAgent, SliceInput } from "../agent/agent-types.ts";
import { memoryTree } from "../agent/memory-tree.ts";
import { blank } from "../agent/run-agent.ts";
import { USD_PER_TOKEN } from "./billing.ts";

/** One model reply of the bench's agent: a turn of a coding agent on a small repository. */
export const REPLY_TOKENS = 10_000;

/** The slice's USD ceiling; `hard` on the last of a goal's budget. */
export interface SliceCeiling {
  usd: number;
  hard: boolean;
}

export interface MeteredSlice {
  outcome: AgentOutcome;
  /** Null when the slice stayed under its ceiling; else the ceiling it was stopped at. */
  cutAtUsd: number | null;
}

/** The model USD of `tokens` at the bench's one price. */
export const modelUsd = (tokens: number): number => tokens * USD_PER_TOKEN;

export async function meteredSlice(
  agent: SliceAgent,
  input: SliceInput,
  ceiling: SliceCeiling,
): Promise<MeteredSlice> {
  if (!(ceiling.usd >= 0)) {
    throw new RangeError(`a slice's ceiling is a non-negative number of USD (got ${ceiling.usd})`);
  }
  const { tree } = input;
  const scratch = memoryTree(tree.list().map((p) => [p, tree.read(p) ?? ""]));
  const wanted = await agent({ ...input, tree: scratch });
  const tokens = meteredTokens(wanted.tokens, ceiling);
  if (tokens === wanted.tokens) {
    copyPaths(scratch, tree, diffPaths(tree, scratch));
    return { outcome: wanted, cutAtUsd: null };
  }
  const paid = Math.floor((wanted.wroteFiles.length * tokens) / wanted.tokens);
  const kept = wanted.wroteFiles.slice(0, paid);
  copyPaths(scratch, tree, kept);
  return {
    outcome: {
      ...blank(),
      todo: wanted.todo,
      progressed: kept.length > 0,
      wroteFiles: kept,
      obeyed: wanted.obeyed.filter((p) => kept.includes(p)),
      tokens,
      died: wanted.died,
      summary: `stopped at the slice's ceiling of $${ceiling.usd.toFixed(2)} while working on ${wanted.todo ?? "the objective"}`,
    },
    cutAtUsd: ceiling.usd,
  };
}

/** The tokens the proxy lets through of the `wanted` the agent would spend, reply by reply. */
export function meteredTokens(wanted: number, ceiling: SliceCeiling): number {
  let spent = 0;
  while (spent < wanted) {
    const reply = Math.min(REPLY_TOKENS, wanted - spent);
    const over = modelUsd(spent + reply) > ceiling.usd;
    // A soft ceiling refuses once it is reached; a hard one any reply that would cross it.
    if (ceiling.hard ? over : modelUsd(spent) >= ceiling.usd) break;
    spent += reply;
  }
  return spent;
}

function diffPaths(before: SliceInput["tree"], after: SliceInput["tree"]): string[] {
  const paths = new Set([...before.list(), ...after.list()]);
  return [...paths].filter((p) => before.read(p) !== after.read(p));
}

function copyPaths(from: SliceInput["tree"], to: SliceInput["tree"], paths: readonly string[]) {
  for (const path of paths) {
    const content = from.read(path);
    if (content === null) to.remove(path);
    else to.write(path, content);
  }
}
