/** Debian's chromium as the browser tests drive it through playwright-core. */
import { existsSync } from "node:fs";

export const CHROMIUM = "/usr/bin/chromium";
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

// The test network is closed: without these, Chromium keeps dialling Google's hosts.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];
