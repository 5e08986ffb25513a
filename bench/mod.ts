import { benchApi } from "./api.ts";
import { benchSoak } from "./soak.ts";

// Every figure is reported beside a baseline measured in the same run: the machines are shared.
console.log(
  `deno ${Deno.version.deno} on ${Deno.build.target}; BENCH_SECONDS=${
    Deno.env.get("BENCH_SECONDS") ?? 5
  }, SOAK_SECONDS=${Deno.env.get("SOAK_SECONDS") ?? 15}`,
);
await benchApi();
await benchSoak();
