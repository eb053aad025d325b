// `npm run demo`. Do not add logic here; it belongs in runner.ts.
import { runner } from "./runner.ts";

process.exitCode = await runner(process.argv.slice(2));
