/**
 * What `npm run demo` accepts, parsed once with zod. The same options drive the e2e test
 * (which passes a `databaseUrl` and a quiet `print`), so every default lives here.
 */
import { resolve } from "node:path";
import { z } from "zod";

export const Harness = z.enum(["claude-code", "shell"]);
export type Harness = z.infer<typeof Harness>;

export const DemoOptions = z.object({
  /** Approve the gate and merge as the demo's owner without asking (CI, unattended runs). */
  yes: z.boolean().default(false),
  /**
   * Start from an objective alone: the agent's first slice plans the todos, one of them behind
   * a gate it asks for, instead of the owner giving the goal its first todo.
   */
  plan: z.boolean().default(false),
  /** Drop the embedded database under `.loopx/` first. */
  fresh: z.boolean().default(false),
  harness: Harness.default("claude-code"),
  /** Let `claude` call the real Anthropic API (needs ANTHROPIC_API_KEY); never implied by a key. */
  realModel: z.boolean().default(false),
  /** PostgreSQL instead of the embedded PGlite (the e2e test passes its throwaway server). */
  databaseUrl: z.string().min(1).optional(),
  /** Where the embedded PGlite keeps its data between runs. */
  dataDir: z.string().min(1).default(resolve(".loopx", "demo-db")),
  /** The running demo's deployment settings, for `loopx doctor --settings <file>`. */
  settingsFile: z.string().min(1).default(resolve(".loopx", "demo.env")),
  /** The app's port for the dashboard (0: any free port). */
  port: z.number().int().min(0).max(65_535).default(0),
  /** Each step must happen within this many ms, or the demo stops and says which. */
  stepTimeoutMs: z.number().int().positive().default(90_000),
});
export type DemoOptions = z.infer<typeof DemoOptions>;
export type DemoOptionsInput = z.input<typeof DemoOptions>;

export const USAGE = `usage: npm run demo -- [--yes] [--fresh] [--plan] [--harness claude-code|shell] [--real-model] [--port N]

  --yes          approve the gate and merge as the demo's owner without asking (unattended)
  --fresh        reset the embedded database under .loopx/ first
  --plan         start from an objective alone: the agent plans three todos, asks for a gate
                 that holds one of them, and the others reach their pull requests meanwhile
  --harness      claude-code (default: the real claude CLI) or shell (a scripted shell command)
  --real-model   let claude call the real Anthropic API (ANTHROPIC_API_KEY); by default it talks
                 to a scripted model on 127.0.0.1, even when a key is set
  --port N       serve the app and its dashboard on this port (default: any free port)`;

export class UsageError extends Error {}

/** `--flag value` and `--flag=value`; unknown flags are refused with the usage text. */
export function parseDemoArgs(args: string[]): DemoOptions {
  const raw: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    const [flag, inline] = arg.includes("=") ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const on = () => {
      // `--yes=no` must not mean yes: a switch takes no value.
      if (inline !== undefined) throw new UsageError(`${flag} takes no value (got ${arg})`);
      return true;
    };
    if (flag === "--yes" || flag === "-y") raw.yes = on();
    else if (flag === "--fresh") raw.fresh = on();
    else if (flag === "--plan") raw.plan = on();
    else if (flag === "--real-model") raw.realModel = on();
    else if (flag === "--harness") raw.harness = value();
    else if (flag === "--port") raw.port = Number(value());
    else if (flag === "--help" || flag === "-h") throw new UsageError("");
    else throw new UsageError(`unknown option ${arg}`);
  }
  const parsed = DemoOptions.safeParse(raw);
  if (!parsed.success) throw new UsageError(z.prettifyError(parsed.error));
  return parsed.data;
}
