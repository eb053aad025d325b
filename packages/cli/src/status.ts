/** `loopx status`: goals, gates waiting, running slices, next wakes and spend, from the app's API. */
import {
  type ApiAuth,
  CliError,
  EXIT,
  GoalResponse,
  GoalsResponse,
  getJson,
} from "./api-client.ts";

export interface StatusArgs {
  url: string;
  /** Sign-in for a readonly dashboard (LOOPX_TOKEN or `loopx login`); null: none. */
  auth: ApiAuth | null;
  goal: { owner: string; repo: string; number: number } | null;
  json: boolean;
}

const usd = (n: number) => `$${n.toFixed(2)}`;

function relative(iso: string | null, now: Date): string {
  if (!iso) return "no wake scheduled";
  const s = Math.round((new Date(iso).getTime() - now.getTime()) / 1000);
  const span = Math.abs(s) < 90 ? `${Math.abs(s)}s` : `${Math.round(Math.abs(s) / 60)}m`;
  return s >= 0 ? `next wake in ${span}` : `wake due ${span} ago`;
}

export async function status(args: StatusArgs, print: (line: string) => void): Promise<number> {
  const base = args.url.replace(/\/+$/, "");
  if (args.goal) {
    const { owner, repo, number } = args.goal;
    const g = await getJson(
      `${base}/loopx/api/goals/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/${number}`,
      GoalResponse,
      args.auth,
    );
    if (!g) throw new CliError(`no LoopX goal on ${owner}/${repo}#${number}`, EXIT.notFound);
    if (args.json) {
      print(JSON.stringify(g, null, 2));
      return EXIT.ok;
    }
    print(`${g.repo}#${g.issueNumber} ${g.state ?? g.status}: ${g.title}`);
    // The state line above names it for people; the kernel's route is for --json.
    print(`  ${g.reason}${g.instruction ? ` ${g.instruction}` : ""}`);
    print(
      `  ${g.spent.ticks} ticks · ${g.spent.runnerMinutes.toFixed(1)} min · ${usd(g.spent.usd)}`,
    );
    if (g.outcome) print(`  ${g.outcome.words.delivered} ${g.outcome.words.people}`);
    for (const t of g.todos) print(`  ${t.key} ${t.title}: ${t.state ?? t.status}`);
    for (const gate of g.gates) {
      print(
        `  ${gate.key} ${gate.status}${gate.resolvedBy ? ` by ${gate.resolvedBy}` : ""}: ${gate.question}`,
      );
    }
    return EXIT.ok;
  }
  const list = await getJson(`${base}/loopx/api/goals`, GoalsResponse, args.auth);
  if (!list) throw new CliError(`the app at ${base} has no goals API`, EXIT.unreachable);
  if (args.json) {
    print(JSON.stringify(list, null, 2));
    return EXIT.ok;
  }
  if (list.goals.length === 0) {
    print("No goals yet: label an issue `loopx` to start one.");
    return EXIT.ok;
  }
  const now = new Date(list.now);
  for (const g of list.goals) {
    const running = list.running.find((r) => r.goalId === g.id);
    const parts = [
      g.openGates.length > 0 ? `gates waiting: ${g.openGates.join(", ")}` : "",
      g.stalled ? `stalled (${g.stalled})` : "",
      running ? `running tick ${running.tick} on ${running.todo}` : "",
      g.status === "active" ? relative(g.nextWakeAt, now) : g.statusReason,
      `${g.spent.ticks} ticks · ${usd(g.spent.usd)}`,
    ].filter(Boolean);
    print(`${g.repo}#${g.issueNumber} ${g.status}: ${g.title}`);
    print(`  ${parts.join(" · ")}`);
  }
  return EXIT.ok;
}
