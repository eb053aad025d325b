/** The app's read-only JSON API as the CLI sees it: every response zod-parsed. */
import { z } from "zod";

const Spent = z.object({ usd: z.number(), runnerMinutes: z.number(), ticks: z.number() });

export const GoalsResponse = z.object({
  now: z.string(),
  goals: z.array(
    z.object({
      id: z.string(),
      repo: z.string(),
      issueNumber: z.number(),
      title: z.string(),
      status: z.string(),
      statusReason: z.string(),
      nextWakeAt: z.string().nullable(),
      spent: Spent,
      openGates: z.array(z.string()),
      stalled: z.string().nullable(),
    }),
  ),
  running: z.array(
    z.object({
      goalId: z.string(),
      tick: z.number(),
      todo: z.string(),
      leaseExpiresAt: z.string(),
    }),
  ),
});
export type GoalsResponse = z.infer<typeof GoalsResponse>;

export const GoalResponse = z.object({
  id: z.string(),
  repo: z.string(),
  issueNumber: z.number(),
  title: z.string(),
  status: z.string(),
  route: z.string(),
  reason: z.string(),
  instruction: z.string(),
  nextWakeAt: z.string().nullable(),
  spent: Spent,
  todos: z.array(z.object({ key: z.string(), title: z.string(), status: z.string() })),
  gates: z.array(
    z.object({
      key: z.string(),
      status: z.string(),
      question: z.string(),
      resolvedBy: z.string().nullable(),
    }),
  ),
  ticks: z.array(
    z.object({
      number: z.number(),
      todo: z.string(),
      outcome: z.string().nullable(),
      usd: z.number().nullable(),
    }),
  ),
});
export type GoalResponse = z.infer<typeof GoalResponse>;

/** A failure the CLI reports as one line and an exit code, never a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export const EXIT = { ok: 0, problems: 1, usage: 2, unreachable: 3, notFound: 4 } as const;

export async function getJson<T>(url: string, schema: z.ZodType<T>): Promise<T | null> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: "application/json" } });
  } catch (error) {
    const why = error instanceof Error ? (error.cause ?? error.message) : String(error);
    throw new CliError(
      `cannot reach the LoopX app at ${new URL(url).origin} (${String(why)}): is it running? Pass --url or set LOOPX_URL.`,
      EXIT.unreachable,
    );
  }
  if (res.status === 404) {
    const body = await res.text();
    if (body.includes('"Not Found"')) {
      throw new CliError(
        `the app at ${new URL(url).origin} does not serve /loopx: start it with LOOPX_DASHBOARD=demo (loopback) or readonly.`,
        EXIT.unreachable,
      );
    }
    return null;
  }
  if (res.status === 401) {
    throw new CliError(
      `the app at ${new URL(url).origin} needs sign-in for its API (LOOPX_DASHBOARD=readonly); the CLI cannot sign in yet.`,
      EXIT.unreachable,
    );
  }
  if (!res.ok) {
    throw new CliError(
      `the app answered ${res.status} for ${url}; see the app's log.`,
      EXIT.unreachable,
    );
  }
  const parsed = schema.safeParse(await res.json());
  if (!parsed.success) {
    throw new CliError(
      `the app at ${new URL(url).origin} answered in an unexpected shape (${parsed.error.issues[0]?.message}); is it the same LoopX version as this CLI?`,
      EXIT.unreachable,
    );
  }
  return parsed.data;
}
