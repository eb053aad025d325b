/**
 * Builds a Dockerfile's image without a container engine: its COPY/RUN/ENV/WORKDIR steps are
 * replayed into a directory standing for the image's filesystem (container path /x is
 * `<root>/x`), from a build context made by `git archive HEAD`, under the Node its FROM names.
 * RUN steps run as root, as a build does, with npm told to use its cache only (no test reaches
 * the registry); CMD and HEALTHCHECK then run as the image's USER.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  linkSync,
  mkdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { Step } from "./dockerfile.ts";

export interface Image {
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: { uid: number; gid: number } | null;
  volumes: string[];
  cmd: string[];
  healthcheck: { command: string[]; intervalSeconds: number; startPeriodSeconds: number } | null;
  /** Directory whose `node` and `npm` are the FROM image's Node. */
  bin: string;
}

/** The Node release a `node:<version>-…` image ships, from the npm `node` package (cached). */
export function nodeBinaryFor(image: string): string {
  const version = /^node:(\d+\.\d+\.\d+)/.exec(image)?.[1];
  if (!version) throw new Error(`FROM ${image}: name the exact Node release (node:24.21.0-…)`);
  const out = execFileSync(
    "npm",
    [
      "exec",
      "--yes",
      "--prefer-offline",
      `--package=node@${version}`,
      "--",
      "node",
      "-p",
      "process.execPath + ' ' + process.version",
    ],
    { encoding: "utf8" },
  ).trim();
  const [path, reported] = out.split(" ");
  if (!path || reported !== `v${version}`) throw new Error(`node@${version} answered ${out}`);
  return path;
}

/** Container path → host path under the image root. */
export function inImage(root: string, path: string): string {
  return join(root, path);
}

/** A directory whose `node` is `node` (the image user may run it) and whose `npm` runs on it. */
export function toolDir(scratch: string, node: string): string {
  const bin = join(scratch, "bin");
  mkdirSync(bin, { recursive: true });
  // The npm cache under root's home is not the image user's to run from.
  const target = join(bin, "node");
  try {
    linkSync(node, target);
  } catch {
    copyFileSync(node, target);
  }
  chmodSync(target, 0o755);
  const npmRoot = execFileSync("npm", ["root", "-g"], { encoding: "utf8" }).trim();
  const npmCli = join(npmRoot, "npm/bin/npm-cli.js");
  statSync(npmCli);
  writeFileSync(join(bin, "npm"), `#!/bin/sh\nexec "${target}" "${npmCli}" "$@"\n`, {
    mode: 0o755,
  });
  return bin;
}

/** The environment for npm on `bin`'s Node with the host's cache only: no test reaches the registry. */
export function offlineNpm(bin: string, home: string): Record<string, string> {
  return {
    PATH: `${bin}:/usr/bin:/bin`,
    HOME: home,
    npm_config_cache: join(process.env.HOME ?? "/root", ".npm"),
    npm_config_offline: "true",
  };
}

function mapEnv(root: string, vars: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(vars).map(([k, v]) => [k, v.startsWith("/") ? inImage(root, v) : v]),
  );
}

/** Replays the build; returns the image. `context` is the build context directory. */
export function replayBuild(steps: Step[], context: string, scratch: string): Image {
  const root = join(scratch, "rootfs");
  mkdirSync(root, { recursive: true });
  chmodSync(scratch, 0o755);
  let workdir = "/";
  const env: Record<string, string> = {};
  const image: Omit<Image, "bin" | "root" | "workdir" | "env"> = {
    user: null,
    volumes: [],
    cmd: [],
    healthcheck: null,
  };
  let bin = "";
  const home = join(scratch, "build-home");
  mkdirSync(home, { recursive: true });
  for (const step of steps) {
    switch (step.kind) {
      case "FROM":
        bin = toolDir(scratch, nodeBinaryFor(step.image));
        break;
      case "ENV":
        Object.assign(env, step.vars);
        break;
      case "WORKDIR":
        workdir = resolve(workdir, step.path);
        mkdirSync(inImage(root, workdir), { recursive: true });
        break;
      case "COPY": {
        const dest = inImage(root, isAbsolute(step.dest) ? step.dest : join(workdir, step.dest));
        for (const source of step.sources) {
          const from = join(context, source);
          const into = step.dest.endsWith("/") || step.sources.length > 1;
          const target =
            statSync(from).isDirectory() || !into ? dest : join(dest, basename(source));
          mkdirSync(dirname(target), { recursive: true });
          cpSync(from, target, { recursive: true });
        }
        break;
      }
      case "RUN": {
        if (/(^|[\s=:])\/(?!dev\/null)/.test(step.command))
          throw new Error(
            `RUN uses an absolute path, which the replay cannot map: ${step.command}`,
          );
        if (image.user) throw new Error("RUN after USER: the replay runs build steps as root only");
        const run = spawnSync("bash", ["-eo", "pipefail", "-c", step.command], {
          cwd: inImage(root, workdir),
          env: { ...mapEnv(root, env), ...offlineNpm(bin, home) },
          encoding: "utf8",
        });
        if (run.status !== 0)
          throw new Error(
            `RUN ${step.command} exited ${run.status}:\n${run.stdout}\n${run.stderr}`,
          );
        break;
      }
      case "VOLUME":
        image.volumes.push(...step.paths);
        break;
      case "USER":
        image.user = { uid: step.uid, gid: step.gid };
        break;
      case "EXPOSE":
        break;
      case "HEALTHCHECK":
        image.healthcheck = {
          command: step.command,
          intervalSeconds: step.intervalSeconds,
          startPeriodSeconds: step.startPeriodSeconds,
        };
        break;
      case "CMD":
        image.cmd = step.command;
        break;
    }
  }
  if (!bin) throw new Error("the Dockerfile has no FROM");
  return { ...image, root, workdir, env: mapEnv(root, env), bin };
}

/** What a container's process gets: the image's env, `extra` (docker run -e) and its user. */
function processOptions(image: Image, extra: Record<string, string>) {
  const home = join(image.root, "home/node");
  mkdirSync(home, { recursive: true });
  if (image.user) execFileSync("chown", [`${image.user.uid}:${image.user.gid}`, home]);
  return {
    cwd: inImage(image.root, image.workdir),
    env: { ...image.env, ...extra, PATH: `${image.bin}:/usr/bin:/bin`, HOME: home },
    ...(image.user ? { uid: image.user.uid, gid: image.user.gid } : {}),
  };
}

/** Starts CMD as the image's user; resolves the process. */
export function startContainer(image: Image, extra: Record<string, string>) {
  const [command, ...args] = image.cmd;
  if (!command) throw new Error("the Dockerfile has no CMD");
  return spawn(command === "node" ? join(image.bin, "node") : command, args, {
    ...processOptions(image, extra),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Runs HEALTHCHECK's command once, as the container would; its exit code. */
export function healthcheck(image: Image, extra: Record<string, string>): number | null {
  const [command, ...args] = image.healthcheck?.command ?? [];
  if (!command) throw new Error("the Dockerfile has no HEALTHCHECK");
  const run = spawnSync(command === "node" ? join(image.bin, "node") : command, args, {
    ...processOptions(image, extra),
    timeout: 10_000,
  });
  return run.status;
}
