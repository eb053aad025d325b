import { existsSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../../..");

/** Where `.ci/run` unpacks Debian's bubblewrap (`apt-get download` + `dpkg -x`), no install. */
export const UNPACKED_BWRAP = join(ROOT, ".loopx", "bubblewrap", "usr", "bin", "bwrap");

export interface BubblewrapVariant {
  name: "without bubblewrap" | "with bubblewrap";
  /** The PATH the harness gets: with a system `bwrap` on it, or with none. */
  path: string;
  /** Why this variant cannot run on this machine ("" when it can). */
  skip: string;
}

function bwrapDirsOn(path: string): string[] {
  return path.split(delimiter).filter((d) => d !== "" && existsSync(join(d, "bwrap")));
}

/**
 * Codex behaves differently when a system bubblewrap is on PATH (it uses that instead of its
 * own bundled one), so its tests run both ways. "With" puts `LOOPX_BWRAP` (a bwrap binary, not
 * under /tmp, which the jail replaces with its own) or the one `.ci/unpack-bubblewrap`
 * unpacked first on PATH; "without" drops every directory holding a bwrap, which it cannot do
 * when bwrap sits beside the system's other tools.
 */
export function bubblewrapVariants(path = process.env.PATH ?? ""): BubblewrapVariant[] {
  const onPath = bwrapDirsOn(path);
  const systemDirs = onPath.filter((d) => ["/usr/bin", "/bin", "/usr/sbin", "/sbin"].includes(d));
  const without: BubblewrapVariant = {
    name: "without bubblewrap",
    path: path
      .split(delimiter)
      .filter((d) => !onPath.includes(d))
      .join(delimiter),
    skip:
      systemDirs.length > 0
        ? `bwrap is installed in ${systemDirs.join(", ")}, which cannot be left off PATH: remove the bubblewrap package (.ci/unpack-bubblewrap unpacks it instead of installing it)`
        : "",
  };
  const given = process.env.LOOPX_BWRAP;
  const bin = given || (existsSync(UNPACKED_BWRAP) ? UNPACKED_BWRAP : null);
  const withIt: BubblewrapVariant = {
    name: "with bubblewrap",
    path: bin ? [dirname(bin), path].join(delimiter) : path,
    skip:
      bin && !existsSync(bin)
        ? `LOOPX_BWRAP=${bin} does not exist`
        : !bin && onPath.length === 0
          ? `no bubblewrap here: run .ci/unpack-bubblewrap (it does \`apt-get download bubblewrap && dpkg -x bubblewrap_*.deb ${join(ROOT, ".loopx", "bubblewrap")}\`), or set LOOPX_BWRAP to a bwrap binary`
          : "",
  };
  return [without, withIt];
}
