/**
 * Permission bypasses are never passed through: the slice's safety rests on the tools the
 * repository config grants, and Claude Code refuses the bypass as root anyway.
 */
export function refuseDangerousArgs(harness: string, args: readonly string[]): void {
  const bad = args.filter((a) => /^--(allow-)?dangerously/i.test(a));
  if (bad.length > 0) {
    throw new Error(
      `${harness}: refusing ${bad.join(", ")}; grant tools with allowedTools in .github/loopx.yml instead`,
    );
  }
}
