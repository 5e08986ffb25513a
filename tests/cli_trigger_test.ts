import assert from "node:assert/strict";
import { trigger, TRIGGERABLE_EVENTS } from "../lib/cli/trigger.ts";
import { LinkOnlyProvider } from "./support/billing_helpers.ts";
import { makeTestApp } from "./support/helpers.ts";

Deno.test("[cli] trigger makes each event it knows happen through the API", async (t) => {
  const app = await makeTestApp();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request) => app.app.fetch(request),
  );
  const target = { host: `http://127.0.0.1:${server.addr.port}`, apiKey: app.apiKey };
  try {
    assert.deepEqual(TRIGGERABLE_EVENTS, [
      "payment.succeeded",
      "payment.failed",
      "payment.canceled",
      "payment.expired",
      "checkout.session.completed",
      "refund.succeeded",
      "refund.failed",
      "subscription.renewed",
      "subscription.past_due",
    ]);
    for (const name of TRIGGERABLE_EVENTS) {
      await t.step(name, async () => {
        const lines: string[] = [];
        assert.equal(await trigger(target, name, (line) => lines.push(line)), true);
        assert.equal(lines.at(-1), `Triggered ${name}.`);
        assert.match(lines.join("\n"), /(pay|re|sub|cs)_[0-9A-Za-z]{24}/);
        // The server runs jobs on timers; this test app waits to be asked.
        await app.services.scheduler.runAll();
        const events = await (await app.request("GET", `/api/v1/events?type=${name}`)).json();
        assert.equal(events.data.length, 1, `${name}: ${lines.join(" | ")}`);
      });
    }
    const lines: string[] = [];
    assert.equal(await trigger(target, "payment.done", (line) => lines.push(line)), false);
    assert.match(
      lines[0],
      /^Unknown event 'payment\.done'\. Known events:\n {2}payment\.succeeded/,
    );
  } finally {
    await server.shutdown();
    await app.close();
  }
});

Deno.test("[cli] trigger renews by pay link where the provider cannot charge a stored method", async (t) => {
  const app = await makeTestApp({ provider: new LinkOnlyProvider() });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request) => app.app.fetch(request),
  );
  const target = { host: `http://127.0.0.1:${server.addr.port}`, apiKey: app.apiKey };
  // A server runs its jobs by itself: the renewal link is made while trigger waits for it.
  let running = true;
  const jobs = (async () => {
    while (running) {
      await app.services.scheduler.runDue();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    for (const name of ["subscription.renewed", "subscription.past_due"]) {
      await t.step(name, async () => {
        const lines: string[] = [];
        assert.equal(await trigger(target, name, (line) => lines.push(line)), true);
        await app.services.scheduler.runAll();
        const events = await (await app.request("GET", `/api/v1/events?type=${name}`)).json();
        assert.equal(events.data.length, 1, `${name}: ${lines.join(" | ")}`);
        const text = lines.join("\n");
        if (name === "subscription.renewed") {
          assert.match(
            text,
            /\nrenewal {2}pay_[0-9A-Za-z]{30} \(the renewal link, paid with 777123\)\n/,
          );
          assert.equal(events.data[0].data.latestPaymentId, /renewal {2}(pay_\w+)/.exec(text)![1]);
        } else {
          assert.match(text, /the renewal link is unpaid at the period end/);
          assert.match(events.data[0].data.renewalPaymentId, /^pay_/);
        }
      });
    }
  } finally {
    running = false;
    await jobs;
    await server.shutdown();
    await app.close();
  }
});
