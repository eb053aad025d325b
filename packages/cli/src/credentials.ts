/**
 * Where `loopx login` keeps the GitHub user token, one per app origin:
 * $LOOPX_CONFIG_DIR, else $XDG_CONFIG_HOME/loopx, else ~/.config/loopx, in credentials.json
 * readable by its owner only (0600, in a 0700 directory). LOOPX_TOKEN overrides the file.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";

const Credentials = z.record(
  z.string(),
  z.object({ token: z.string().min(1), login: z.string(), savedAt: z.string() }),
);
type Credentials = z.infer<typeof Credentials>;

type Env = Readonly<Record<string, string | undefined>>;

export function credentialsPath(env: Env): string {
  const dir =
    env.LOOPX_CONFIG_DIR ??
    (env.XDG_CONFIG_HOME ? join(env.XDG_CONFIG_HOME, "loopx") : null) ??
    join(env.HOME ?? homedir(), ".config", "loopx");
  return join(dir, "credentials.json");
}

function readAll(path: string): Credentials {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return {};
  }
  const parsed = Credentials.safeParse(json);
  // A file we cannot read as ours is treated as empty; `loopx login` rewrites it.
  return parsed.success ? parsed.data : {};
}

function writeAll(path: string, all: Credentials): void {
  const dir = join(path, "..");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (Object.keys(all).length === 0) {
    rmSync(path, { force: true });
    return;
  }
  writeFileSync(path, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  // writeFile keeps an existing file's mode: make sure it is the owner's only.
  chmodSync(path, 0o600);
}

const key = (appUrl: string) => new URL(appUrl).origin;

/** The token to send to `appUrl`: LOOPX_TOKEN, else the one `loopx login` saved. */
export function tokenFor(env: Env, appUrl: string): { token: string; from: string } | null {
  if (env.LOOPX_TOKEN) return { token: env.LOOPX_TOKEN, from: "LOOPX_TOKEN" };
  const path = credentialsPath(env);
  const saved = readAll(path)[key(appUrl)];
  return saved ? { token: saved.token, from: path } : null;
}

export function saveToken(env: Env, appUrl: string, token: string, login: string): string {
  const path = credentialsPath(env);
  const all = readAll(path);
  all[key(appUrl)] = { token, login, savedAt: new Date().toISOString() };
  writeAll(path, all);
  return path;
}

/** Forgets the token for `appUrl`; whether there was one. */
export function forgetToken(env: Env, appUrl: string): boolean {
  const path = credentialsPath(env);
  const all = readAll(path);
  if (!all[key(appUrl)]) return false;
  delete all[key(appUrl)];
  writeAll(path, all);
  return true;
}
