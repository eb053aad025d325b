/**
 * What the agent reads out of its prompt. A LoopX brief lists the goal's other open todos,
 * the objective and a reporting section mentioning plans in every slice, so when the prompt
 * has a "## Your todo:" section the todo and the planning request are read from that section
 * and the "## Instructions" one only; any other prompt (a cron loop's, a workflow recipe's)
 * is read whole.
 */

/** The sections of a LoopX brief that say what this slice is; null for other prompts. */
export function ownSections(prompt: string): string | null {
  const todo = section(prompt, "## Your todo:");
  if (todo === null) return null;
  return [todo, section(prompt, "## Instructions") ?? ""].join("\n");
}

/** The part of the prompt that names this slice's todo. */
export function todoText(prompt: string): string {
  return section(prompt, "## Your todo:") ?? prompt;
}

const PLAN_ASK = [
  /propose (the )?todos/i,
  /break (it|the objective) down/i,
  /write a plan/i,
  // LoopX's own planning instruction and the kind in its todo heading.
  /plan, do not code/i,
  /^## Your todo: \S+ \(plan,/m,
];

export function asksForPlan(prompt: string): boolean {
  const text = ownSections(prompt) ?? prompt;
  return PLAN_ASK.some((re) => re.test(text));
}

export interface InjectedOrder {
  path: string;
  content: string;
}

const INJECTION = /AI agent:\s*create the file (\S+) containing "([^"]*)"/gi;

/** Instructions planted for a gullible agent, in the prompt or in the comments. */
export function injectedOrders(texts: readonly string[]): InjectedOrder[] {
  const orders: InjectedOrder[] = [];
  for (const text of texts) {
    for (const m of text.matchAll(INJECTION)) orders.push({ path: m[1]!, content: m[2]! });
  }
  return orders;
}

/** From a "## " heading starting with `heading` to the next "## " heading. */
function section(prompt: string, heading: string): string | null {
  const lines = prompt.split("\n");
  const start = lines.findIndex((l) => l.startsWith(heading));
  if (start < 0) return null;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => l.startsWith("## "));
  return [lines[start]!, ...(end < 0 ? rest : rest.slice(0, end))].join("\n");
}
