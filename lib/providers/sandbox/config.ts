import { z } from "zod";
import type { ProviderDefinition } from "../definition.ts";
import { SandboxProvider } from "../sandbox.ts";

/** The simulator (`PAYMENT_PROVIDER=sandbox`, the sandbox's default): no variables, no money. */
export const sandbox: ProviderDefinition<{ kind: "sandbox" }> = {
  name: "sandbox",
  displayName: "Paystead's simulator",
  takesMoney: false,
  variables: z.object({}),
  requirement: "",
  setup: "",
  // A production process never runs it: null there, which `requireProvider` refuses.
  settings: (_raw, environment) => environment === "sandbox" ? { kind: "sandbox" } : null,
  create: () => new SandboxProvider(),
};
