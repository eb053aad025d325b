/** Parses the command line, runs one command, and turns failures into a line and an exit code. */
import { existsSync, readFileSync } from "node:fs";
import { APP_MANIFEST, githubHost } from "@loopx/app";
import { Octokit } from "@octokit/rest";
import { CliError, EXIT } from "./api-client.ts";
import { tokenFor } from "./credentials.ts";
import { checkDeployment, migrate } from "./deployment.ts";
import { doctor, exitCodeFor, type Finding } from "./doctor.ts";
import { login, logout } from "./login.ts";
import { register } from "./register.ts";
import { withSettingsFile } from "./settings-file.ts";
import { status } from "./status.ts";

export interface CliIo {
  env: Readonly<Record<string, string | undefined>>;
  out(line: string): void;
  err(line: string): void;
}

const USAGE = `usage:
  loopx status [--url http://127.0.0.1:3000] [--goal owner/repo#N] [--json]
  loopx login [--url https://app]    signs in to a read-only dashboard (GitHub device flow)
  loopx logout [--url https://app]   forgets that sign-in (LOOPX_TOKEN, if set, still counts)
  loopx doctor [--url http://app] [--json]   the deployment: settings, database, App credentials
  loopx doctor owner/repo [--json]   a repository (GITHUB_TOKEN; GITHUB_API_URL for GHES or the sandbox)
  loopx migrate                      applies the store's migrations to DATABASE_URL
  loopx register --url https://app [--org NAME] [--name NAME] [--out loopx.env] [--port N]
                                     registers the GitHub App from app/app.yml (GitHub's manifest flow; GHE_HOST for GHES)
every command takes --settings PATH (KEY=VALUE lines laid over the environment; the demo writes .loopx/demo.env)
exit codes: 0 fine, 1 problems found, 2 usage, 3 app or GitHub unreachable, 4 not found, 5 sign-in needed or refused`;

function parseFlags(args: string[]): { positional: string[]; flags: Map<string, string | true> } {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split("=", 2);
    const next = args[i + 1];
    if (inline !== undefined) flags.set(name ?? "", inline);
    else if (name !== "json" && next !== undefined && !next.startsWith("--")) {
      flags.set(name ?? "", next);
      i++;
    } else flags.set(name ?? "", true);
  }
  return { positional, flags };
}

function goalRef(raw: string) {
  const m = /^([^/\s]+)\/([^#\s]+)#(\d+)$/.exec(raw);
  if (!m?.[1] || !m[2] || !m[3]) {
    throw new CliError(`--goal must look like owner/repo#12 (got "${raw}")`, EXIT.usage);
  }
  return { owner: m[1], repo: m[2], number: Number(m[3]) };
}

/** Prints findings (lines, or JSON with `header` for scripts) and returns the exit code. */
function report(findings: Finding[], header: Record<string, unknown> | null, io: CliIo): number {
  const code = exitCodeFor(findings);
  if (header) {
    io.out(JSON.stringify({ ...header, findings }, null, 2));
    return code;
  }
  for (const f of findings) io.out(`${f.level.padEnd(4)} ${f.message}`);
  io.out(code === EXIT.ok ? "doctor: no problems found" : "doctor: fix the failures above");
  return code;
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  const { positional, flags } = parseFlags(rest);
  const str = (name: string) => {
    const v = flags.get(name);
    return typeof v === "string" ? v : undefined;
  };
  const json = flags.has("json");
  const envFile = str("settings");
  if (flags.get("settings") === true) throw new CliError("--settings needs a path", EXIT.usage);
  io = { ...io, env: withSettingsFile(io.env, envFile) };
  const appUrl = () => {
    const url = str("url") ?? io.env.LOOPX_URL ?? "http://127.0.0.1:3000";
    if (!URL.canParse(url) || !/^https?:/.test(url)) {
      throw new CliError(`--url must be the app's http(s) URL (got "${url}")`, EXIT.usage);
    }
    return url;
  };
  if (command === "status") {
    const goal = str("goal");
    return status(
      { url: appUrl(), auth: tokenFor(io.env, appUrl()), goal: goal ? goalRef(goal) : null, json },
      io.out,
    );
  }
  if (command === "login") return login({ url: appUrl(), env: io.env }, io.out);
  if (command === "logout") return logout({ url: appUrl(), env: io.env }, io.out);
  if (command === "migrate") {
    const url = io.env.DATABASE_URL;
    if (!url) {
      throw new CliError(
        "DATABASE_URL is not set: migrate runs against PostgreSQL; the app migrates its embedded PGlite store itself at start.",
        EXIT.usage,
      );
    }
    try {
      const { applied } = await migrate(url);
      io.out(`migrated: ${applied} migrations applied`);
      return EXIT.ok;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new CliError(
        `migrating DATABASE_URL failed (${why}): check the URL and that the user may create tables.`,
        EXIT.unreachable,
      );
    }
  }
  if (command === "doctor" && positional.length === 0) {
    const findings = await checkDeployment(io.env, str("url") ?? io.env.LOOPX_URL ?? null);
    return report(findings, json ? { deployment: true } : null, io);
  }
  if (command === "doctor") {
    const m = /^([^/\s]+)\/([^/\s]+)$/.exec(positional[0] ?? "");
    if (!m?.[1] || !m[2])
      throw new CliError("doctor needs a repository: loopx doctor owner/repo", EXIT.usage);
    const token = io.env.GITHUB_TOKEN;
    if (!token) {
      throw new CliError(
        "GITHUB_TOKEN is not set: export a token that can read the repository.",
        EXIT.usage,
      );
    }
    const octokit = new Octokit({
      auth: token,
      baseUrl: io.env.GITHUB_API_URL ?? "https://api.github.com",
      request: { retries: 0 },
    });
    const findings = await doctor(octokit, m[1], m[2]);
    if (json) io.out(JSON.stringify({ repository: `${m[1]}/${m[2]}`, findings }, null, 2));
    else for (const f of findings) io.out(`${f.level.padEnd(4)} ${f.message}`);
    const code = exitCodeFor(findings);
    if (!json)
      io.out(code === EXIT.ok ? "doctor: no problems found" : "doctor: fix the failures above");
    return code;
  }
  if (command === "register") return runRegister(str, io);
  if (command === "help" || flags.has("help")) {
    io.out(USAGE);
    return EXIT.ok;
  }
  io.err(command ? `unknown command "${command}"\n${USAGE}` : USAGE);
  return EXIT.usage;
}

function runRegister(str: (name: string) => string | undefined, io: CliIo): Promise<number> {
  const publicUrl = str("url") ?? io.env.LOOPX_PUBLIC_URL;
  if (!publicUrl || !URL.canParse(publicUrl) || !/^https?:/.test(publicUrl)) {
    throw new CliError(
      "register needs the App's public URL: --url https://loopx.example.com (webhooks and sign-in come back there; it becomes LOOPX_PUBLIC_URL)",
      EXIT.usage,
    );
  }
  const out = str("out") ?? "loopx.env";
  if (existsSync(out)) {
    throw new CliError(
      `${out} already exists: pass --out another path, or move it away first (it may hold an App's key)`,
      EXIT.usage,
    );
  }
  const port = Number(str("port") ?? "0");
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliError(`--port must be a TCP port (got "${str("port")}")`, EXIT.usage);
  const protocol = io.env.GHE_PROTOCOL;
  if (protocol !== undefined && protocol !== "http" && protocol !== "https")
    throw new CliError("GHE_PROTOCOL must be http or https", EXIT.usage);
  const carry = Object.fromEntries(
    (["GHE_HOST", "GHE_PROTOCOL", "GITHUB_API_URL", "GITHUB_SERVER_URL"] as const).flatMap((k) => {
      const v = io.env[k];
      return v ? [[k, v]] : [];
    }),
  );
  return register(
    {
      publicUrl: publicUrl.replace(/\/+$/, ""),
      github: githubHost({ ...carry, GHE_PROTOCOL: protocol }),
      org: str("org") ?? null,
      name: str("name") ?? null,
      out,
      port,
      webhookProxyUrl: io.env.WEBHOOK_PROXY_URL ?? null,
      carry,
      manifestYaml: readFileSync(APP_MANIFEST, "utf8"),
      timeoutMs: 30 * 60_000,
    },
    io.out,
  );
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`loopx: ${error.message}`);
      return error.exitCode;
    }
    io.err(`loopx: unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.unreachable;
  }
}
