import assert from "node:assert/strict";
import {
  DEBIAN_CHROMIUM,
  missingChromiumLine,
  missingJqLine,
  planChromium,
  planJq,
} from "./support/setup.ts";

const SETUP = new URL("./support/setup.ts", import.meta.url).pathname;

async function runSetup(chromium: string, env: Record<string, string> = {}) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SETUP],
    env: { CHROMIUM_BIN: chromium, ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

Deno.test("[setup] Chromium is used when found, installed when this user may, or asked for", () => {
  const machine = { chromium: DEBIAN_CHROMIUM, chromiumFound: false, root: true, aptGet: true };
  const debianLine =
    "The browser tests need Chromium at /usr/bin/chromium: install Debian's chromium package " +
    "(sudo apt-get install chromium) or set CHROMIUM_BIN to a Chromium binary, then run the " +
    "tests again.";
  assert.deepEqual(planChromium({ ...machine, chromiumFound: true }), { kind: "ready" });
  assert.deepEqual(planChromium(machine), { kind: "install" });
  assert.deepEqual(planChromium({ ...machine, root: false }), { kind: "stop", line: debianLine });
  assert.deepEqual(planChromium({ ...machine, aptGet: false }), { kind: "stop", line: debianLine });
  assert.deepEqual(planChromium({ ...machine, chromium: "/opt/chrome" }), {
    kind: "stop",
    line: missingChromiumLine("/opt/chrome"),
  });
  assert.equal(
    missingChromiumLine("/opt/chrome"),
    "The browser tests need Chromium at /opt/chrome (CHROMIUM_BIN): install Debian's chromium " +
      "package (sudo apt-get install chromium) or set CHROMIUM_BIN to a Chromium binary, then " +
      "run the tests again.",
  );
});

Deno.test("[setup] a missing Chromium stops the run at once with one line", async () => {
  const missing = "/nonexistent/chromium";
  assert.deepEqual(await runSetup(missing), {
    code: 1,
    stdout: "",
    stderr: `${missingChromiumLine(missing)}\n`,
  });
});

Deno.test("[setup] a Chromium that is there lets the run go ahead silently", async () => {
  // Any executable file stands in: the set-up only checks that the browser is there.
  assert.deepEqual(await runSetup(Deno.execPath()), { code: 0, stdout: "", stderr: "" });
});

Deno.test("[setup] jq is used when found, installed when this user may, or asked for", () => {
  const machine = { jqFound: false, root: true, aptGet: true };
  assert.deepEqual(planJq({ ...machine, jqFound: true }), { kind: "ready" });
  assert.deepEqual(planJq(machine), { kind: "install" });
  const stop = { kind: "stop", line: missingJqLine() };
  assert.deepEqual(planJq({ ...machine, root: false }), stop);
  assert.deepEqual(planJq({ ...machine, aptGet: false }), stop);
  assert.equal(
    missingJqLine(),
    "The README's commands, which the tests run as written, need jq: install Debian's jq " +
      "package (sudo apt-get install jq), then run the tests again.",
  );
});

Deno.test("[setup] a missing jq (no apt-get either) stops the run at once with one line", async () => {
  // Chromium is there; a PATH with neither jq nor apt-get on it.
  const empty = await Deno.makeTempDir({ prefix: "paystead-setup-path-" });
  try {
    assert.deepEqual(await runSetup(Deno.execPath(), { PATH: empty }), {
      code: 1,
      stdout: "",
      stderr: `${missingJqLine()}\n`,
    });
  } finally {
    await Deno.remove(empty);
  }
});
