import { resolve } from "node:path";

/**
 * The App's public face for the programs beside it (the CLI, the demo): how it is built and
 * served, how its settings are read, and which GitHub it talks to. Everything else in
 * app/src is the App's own.
 */
export { createLoopxApp, type LoopxApp, WEBHOOK_PATH } from "./create-loopx-app.ts";
export {
  type DashboardExtension,
  type DashboardOptions,
  type DashboardReply,
  html,
  type SafeHtml,
} from "./dashboard/index.ts";
export type { Logger } from "./deps.ts";
export { LoopxOctokit } from "./github/loopx-octokit.ts";
export { type GitHubHost, githubHost } from "./github-host.ts";
export { listen } from "./server.ts";
export { parseSettings, type Settings, SettingsError } from "./settings.ts";

/** The App's manifest (permissions, events), what `loopx register` sends GitHub. */
export const APP_MANIFEST = resolve(import.meta.dirname, "../app.yml");
