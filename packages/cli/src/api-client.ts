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
  /** Absent from apps older than the state words: the status stands in. */
  state: z.string().optional(),
  /** What the goal delivered for its cost and took of people; absent from older apps. */
  outcome: z
    .object({
      todosDone: z.number(),
      prsMerged: z.number(),
      usdPerMergedPr: z.number().nullable(),
      usdPerTodo: z.number().nullable(),
      minutesPerTodo: z.number().nullable(),
      personActs: z.number(),
      decisions: z.number(),
      waitedMs: z.number(),
      waiting: z.number(),
      words: z.object({ delivered: z.string(), people: z.string() }),
    })
    .optional(),
  todos: z.array(
    z.object({
      key: z.string(),
      title: z.string(),
      status: z.string(),
      state: z.string().optional(),
    }),
  ),
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

export const EXIT = {
  ok: 0,
  problems: 1,
  usage: 2,
  unreachable: 3,
  notFound: 4,
  signIn: 5,
} as const;

/** A GitHub user token for a readonly dashboard, and where it came from (for messages). */
export interface ApiAuth {
  token: string;
  from: string;
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** Authorization for `url`; a GitHub token never travels over plain http beyond loopback. */
export function authHeaders(url: string, auth: ApiAuth | null): Record<string, string> {
  if (!auth) return {};
  const { protocol, hostname, origin } = new URL(url);
  if (protocol !== "https:" && !LOOPBACK.test(hostname)) {
    throw new CliError(
      `refusing to send your GitHub token to ${origin} over plain http: use the app's https URL.`,
      EXIT.usage,
    );
  }
  return { authorization: `Bearer ${auth.token}` };
}

export async function getJson<T>(
  url: string,
  schema: z.ZodType<T>,
  auth: ApiAuth | null = null,
): Promise<T | null> {
  let res: Response;
  const headers = { accept: "application/json", ...authHeaders(url, auth) };
  try {
    res = await fetch(url, { headers });
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
        `the app at ${new URL(url).origin} does not serve /loopx: start it with LOOPX_DASHBOARD=readonly (or run \`npm run demo\`, whose dashboard needs no sign-in).`,
        EXIT.unreachable,
      );
    }
    return null;
  }
  if (res.status === 401) {
    const origin = new URL(url).origin;
    throw new CliError(
      auth
        ? `the app at ${origin} refused the sign-in from ${auth.from} (revoked or expired): run \`loopx login --url ${origin}\` again.`
        : `the app at ${origin} needs sign-in (its dashboard is read-only): run \`loopx login --url ${origin}\`, or set LOOPX_TOKEN to a GitHub user token.`,
      EXIT.signIn,
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
