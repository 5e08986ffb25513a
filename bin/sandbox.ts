import { main } from "../main.ts";

// The entry of dist/paystead-sandbox: the CLI with the environment baked in.
Deno.exit(await main(Deno.args, { environment: "sandbox" }));
