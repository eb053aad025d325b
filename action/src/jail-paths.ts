import { existsSync, readFileSync, readlinkSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";

/** Where Docker and containerd listen on Ubuntu runners. */
const DOCKER_SOCKETS = ["/var/run/docker.sock", "/run/docker.sock"];

/**
 * What a jailed slice must not see on a GitHub runner: RUNNER_TEMP (the file commands, the
 * tick directory with its own repository), `_actions` beside it, the runner's home (its
 * credentials, the Docker config, `_diag` on hosted runners), the runner's own install
 * (found from the Runner.Worker process this step descends from) and the Docker socket.
 */
export function jailHiddenPaths(env: NodeJS.ProcessEnv, tickDir: string): string[] {
  const paths = new Set<string>([tickDir, homedir(), ...DOCKER_SOCKETS]);
  if (env.HOME) paths.add(env.HOME);
  if (env.RUNNER_TEMP) {
    paths.add(env.RUNNER_TEMP);
    paths.add(join(dirname(env.RUNNER_TEMP), "_actions"));
  }
  const runner = runnerRoot();
  if (runner) paths.add(runner);
  return [...paths].filter((p) => p !== "/" && existsSync(p));
}

/** The install directory of the runner whose worker started this process, if one did. */
function runnerRoot(): string | null {
  let pid = process.ppid;
  for (let depth = 0; depth < 8 && pid > 1; depth++) {
    try {
      const exe = readlinkSync(`/proc/${pid}/exe`);
      if (basename(exe) === "Runner.Worker" || basename(exe) === "Runner.Listener") {
        return dirname(dirname(exe));
      }
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces: the ppid follows the last ")".
      pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      return null;
    }
  }
  return null;
}
