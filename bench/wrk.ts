/** Runs wrk (Debian's) against 127.0.0.1 and reads its figures. */

/** Throughput and latency of one bounded wrk run. */
export interface WrkResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses by status, counted by the Lua script. */
  statuses: Record<string, number>;
  nonSuccess: number;
}

function toMs(value: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(value);
  if (!match) throw new Error(`unexpected wrk latency '${value}'`);
  const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2]]!;
  return Number(match[1]) * factor;
}

const COUNTING_SCRIPT = `
local counts = {}
local threads = {}
function setup(thread) table.insert(threads, thread) end
function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
end
function done(summary, latency, requests)
  local totals = {}
  for _, thread in ipairs(threads) do
    local text = thread:get("encoded") or ""
    for status, n in string.gmatch(text, "(%d+)=(%d+)") do
      totals[status] = (totals[status] or 0) + tonumber(n)
    end
  end
  local parts = {}
  for status, n in pairs(totals) do table.insert(parts, status .. "=" .. n) end
  io.write("STATUSES " .. table.concat(parts, ",") .. "\\n")
end
`;

// Each request gets its own key: a random run prefix and a counter.
const UNIQUE_KEY_SCRIPT = `
local run = tostring(math.random(1, 1e9)) .. "-" .. tostring(os.time())
local sent = 0
function request()
  sent = sent + 1
  wrk.headers["Idempotency-Key"] = run .. "-" .. sent
  return wrk.format()
end
`;

/** Runs wrk for `seconds` with `connections` connections on one thread. */
export async function runWrk(options: {
  url: string;
  connections: number;
  seconds: number;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Sends a new Idempotency-Key with every request. */
  uniqueIdempotencyKey?: boolean;
  /** CPUs wrk may run on (taskset list), away from the server's. */
  cpus?: string;
}): Promise<WrkResult> {
  const headerLines = Object.entries(options.headers ?? {}).map(([name, value]) =>
    `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`
  );
  // Counts are kept per thread and handed to done() as an encoded string.
  const script = [
    `wrk.method = ${JSON.stringify(options.method ?? "GET")}`,
    ...(options.body === undefined ? [] : [`wrk.body = ${JSON.stringify(options.body)}`]),
    ...headerLines,
    ...(options.uniqueIdempotencyKey ? [UNIQUE_KEY_SCRIPT] : []),
    COUNTING_SCRIPT.replace(
      "counts[status] = (counts[status] or 0) + 1",
      `counts[status] = (counts[status] or 0) + 1
  local parts = {}
  for s, n in pairs(counts) do table.insert(parts, s .. "=" .. n) end
  encoded = table.concat(parts, ",")`,
    ),
  ].join("\n");
  const scriptPath = await Deno.makeTempFile({ suffix: ".lua" });
  await Deno.writeTextFile(scriptPath, script);
  try {
    const wrkArgs = [
      "-t1",
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      "--latency",
      "-s",
      scriptPath,
      options.url,
    ];
    const output = await new Deno.Command(options.cpus ? "taskset" : "wrk", {
      args: options.cpus ? ["-c", options.cpus, "wrk", ...wrkArgs] : wrkArgs,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout);
    if (!output.success) throw new Error(`wrk failed: ${new TextDecoder().decode(output.stderr)}`);
    const rps = /Requests\/sec:\s+([\d.]+)/.exec(text);
    const p50 = /\s50%\s+([\d.]+\w+)/.exec(text);
    const p99 = /\s99%\s+([\d.]+\w+)/.exec(text);
    const statusLine = /STATUSES (.*)/.exec(text)?.[1] ?? "";
    if (!rps || !p50 || !p99) throw new Error(`could not read wrk output:\n${text}`);
    const statuses: Record<string, number> = {};
    for (const part of statusLine.split(",").filter(Boolean)) {
      const [status, n] = part.split("=");
      statuses[status] = Number(n);
    }
    const nonSuccess = Object.entries(statuses).filter(([status]) => !status.startsWith("2"))
      .reduce((sum, [, n]) => sum + n, 0);
    return {
      requestsPerSecond: Number(rps[1]),
      p50Ms: toMs(p50[1]),
      p99Ms: toMs(p99[1]),
      statuses,
      nonSuccess,
    };
  } finally {
    await Deno.remove(scriptPath);
  }
}
