import assert from "node:assert/strict";
import { addUser } from "../panel_helpers.ts";
import { createTestEndpoint, startReceiver } from "../webhook_receiver.ts";
import { collectErrors, launchBrowser, startCheckoutServer } from "./helpers.ts";

Deno.test("[e2e] the webhook delivery log follows new deliveries, and notices show once", async (t) => {
  const server = await startCheckoutServer();
  // Answers after a second, so the page first shows the delivery waiting and then its result.
  const receiver = startReceiver(async () => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return new Response("ok");
  });
  const browser = await launchBrowser();
  try {
    const owner = await addUser(server.t, { email: "owner@acme.test", role: "OWNER" });
    const endpoint = await createTestEndpoint(server.t, { url: receiver.url, events: ["*"] });
    const page = await browser.newPage();
    const errors = collectErrors(page);
    await page.goto(`${server.origin}/panel`);
    await page.getByLabel("E-mail").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${server.origin}/panel`);
    const here = `${server.origin}/panel/developers/webhooks/${endpoint.id}`;
    await page.goto(here);
    await page.getByText("No deliveries yet").waitFor();
    const rows = page.locator("li.delivery");

    await t.step("Send test event: the notice shows once, the log updates in place", async () => {
      await page.getByRole("button", { name: "Send test event" }).click();
      await page.getByText("webhook.test is on its way").waitFor();
      await page.waitForFunction(() => !location.search.includes("notice="));
      assert.equal(page.url(), here);
      // Marks this document: a reload or navigation would lose the mark.
      await page.evaluate(() => document.body.setAttribute("data-mark", "kept"));
      await rows.first().locator(".delivery__meta").getByText("HTTP 200").waitFor();
      assert.equal(await rows.count(), 1);
      assert.equal(await rows.first().locator(".delivery__type").textContent(), "webhook.test");
      assert.equal(receiver.received.length, 1);
      assert.equal(await page.locator("body").getAttribute("data-mark"), "kept");
    });

    await t.step("a delivery made elsewhere appears without a reload", async () => {
      const sent = await server.t.request("POST", `/api/v1/webhook-endpoints/${endpoint.id}/test`);
      assert.equal(sent.status, 202);
      await rows.nth(1).waitFor();
      await rows.first().locator(".delivery__meta").getByText("HTTP 200").waitFor();
      assert.equal(await rows.count(), 2);
      assert.equal(await page.locator("body").getAttribute("data-mark"), "kept");
    });

    await t.step("a reload shows no notice, and the deliveries are still there", async () => {
      await page.reload();
      await rows.nth(1).waitFor();
      assert.equal(await rows.count(), 2);
      assert.equal(await page.getByText("webhook.test is on its way").count(), 0);
      assert.equal(await page.locator("body").getAttribute("data-mark"), null);
    });

    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await receiver.close();
    await server.close();
  }
});
