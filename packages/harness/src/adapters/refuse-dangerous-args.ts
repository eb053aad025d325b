/** Bypasses every harness has: permission and sandbox skips, named as such. */
const BYPASS = /^--(allow-)?dangerously/i;

/**
 * Codex's own sandbox and approvals are the adapter's to set (LoopX's jail is the isolation,
 * and a nested sandbox behaves differently on machines with and without bubblewrap), so a
 * user's extra arguments may not change them: neither the flags nor the config keys behind
 * them (`-c sandbox_mode=…`).
 */
const CODEX_SANDBOX_FLAGS = /^(-s|--sandbox|--full-auto|--yolo|-a|--ask-for-approval)(=|$)/;
const CODEX_SANDBOX_KEYS =
  /\b(sandbox_mode|sandbox_permissions|sandbox_workspace_write|approval_policy)\b/;

/**
 * Permission and sandbox bypasses are never passed through: the slice's safety rests on the
 * tools the repository config grants and on LoopX's jail, and Claude Code refuses the bypass
 * as root anyway.
 */
export function refuseDangerousArgs(harness: string, args: readonly string[]): void {
  const bad = args.filter(
    (a) =>
      BYPASS.test(a) ||
      (harness === "codex" && (CODEX_SANDBOX_FLAGS.test(a) || CODEX_SANDBOX_KEYS.test(a))),
  );
  if (bad.length > 0) {
    const fix =
      harness === "codex" && !bad.some((a) => BYPASS.test(a))
        ? "LoopX sets codex's sandbox itself (its jail is the isolation); drop these arguments"
        : "grant tools with allowedTools in .github/loopx.yml instead";
    throw new Error(`${harness}: refusing ${bad.join(", ")}; ${fix}`);
  }
}
