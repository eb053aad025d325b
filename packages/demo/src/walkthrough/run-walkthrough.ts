// `npm run walkthrough`. Do not add logic here; it belongs in main.ts.
import { main } from "./main.ts";

process.exitCode = await main(process.argv.slice(2));
