import { type Browser, chromium, type Page } from "playwright-core";
import type { Environment } from "../../lib/config.ts";
import { makeTestApp, type TestApp } from "../helpers.ts";
import { DEBIAN_CHROMIUM } from "../support/setup.ts";

const SCREENSHOTS = new URL("./screenshots/", import.meta.url);

/** Debian's Chromium (or `CHROMIUM_BIN`), headless, with a fresh profile, nothing phoning home. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: Deno.env.get("CHROMIUM_BIN") || DEBIAN_CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * Collects console errors and uncaught exceptions of a page and all its frames, such as a CSP
 * violation or a failed hydration; a test asserts the list stays empty.
 */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** Signs in on the panel's sign-in page, where `/panel` leads someone not signed in. */
export async function signIn(page: Page, origin: string, email: string, password: string) {
  await page.goto(`${origin}/panel`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Saves a full-page screenshot as tests/e2e/screenshots/<name>.png (git-ignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });
}

/** The test app served on a real ephemeral port of 127.0.0.1, which is its public URL. */
export interface CheckoutServer {
  t: TestApp;
  origin: string;
  close(): Promise<void>;
}

/**
 * Starts the service on 127.0.0.1 with a manual clock the test moves; the sandbox unless told
 * otherwise.
 */
export async function startCheckoutServer(
  environment: Environment = "sandbox",
): Promise<CheckoutServer> {
  // The app needs the server's port for its public URL, so it is built after the server starts.
  const built: { app?: TestApp } = {};
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) =>
      built.app ? built.app.app.fetch(request) : new Response("starting", { status: 503 }),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const own = environment === "sandbox" ? "SANDBOX_PUBLIC_URL" : "PRODUCTION_PUBLIC_URL";
  const t = await makeTestApp({ environment, env: { PUBLIC_URL: origin, [own]: origin } });
  built.app = t;
  return {
    t,
    origin,
    async close() {
      await server.shutdown();
      await t.close();
    },
  };
}

/**
 * A merchant's shop on another origin: `/shop?embedUrl=` mounts the checkout with the real
 * static/embed.js and records every message and callback (also in sessionStorage, so they
 * survive the checkout navigating the page away); `/thanks` and `/cart` are where it sends
 * customers back.
 */
export interface MerchantSite {
  port: number;
  close(): Promise<void>;
}

function shopPage(checkoutOrigin: string, embedUrl: string): string {
  const literal = JSON.stringify(embedUrl).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme Coffee · Checkout</title>
<style>
  body { margin: 0; font-family: Georgia, serif; background: #f5f1ea; color: #2b2118; }
  header { padding: 16px 24px; background: #2b2118; color: #f5f1ea; font-size: 20px; }
  main { max-width: 460px; margin: 24px auto; padding: 0 16px; }
  #checkout { background: #fff; border-radius: 12px; box-shadow: 0 2px 10px rgb(0 0 0 / 10%); overflow: hidden; }
</style></head>
<body><header>Acme Coffee Roasters</header>
<main><h1>Checkout</h1><div id="checkout"></div></main>
<script src="${checkoutOrigin}/static/embed.js"></script>
<script>
  window.received = [];
  window.callbacks = [];
  addEventListener("message", (event) => received.push({ origin: event.origin, data: event.data }));
  const record = (name) => (message) => {
    callbacks.push({ name, message });
    sessionStorage.setItem("callbacks", JSON.stringify(callbacks));
  };
  window.checkout = Paystead.mountCheckout("#checkout", {
    embedUrl: ${literal},
    onReady: record("ready"),
    onProcessing: record("processing"),
    onComplete: record("complete"),
    onFail: record("fail"),
    onExpire: record("expire"),
    onCancel: record("cancel"),
  });
</script></body></html>`;
}

/**
 * Starts the merchant's site on 127.0.0.1 (reached as http://localhost:<port>, or https:// with
 * `tls`: production accepts only https embedding pages).
 */
export function startMerchantSite(
  checkoutOrigin: string,
  tls?: { cert: string; key: string },
): MerchantSite {
  const html = (body: string) =>
    new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {}, ...tls },
    (request) => {
      const url = new URL(request.url);
      switch (url.pathname) {
        case "/shop":
          return html(shopPage(checkoutOrigin, url.searchParams.get("embedUrl") ?? ""));
        case "/thanks":
          return html("<!doctype html><title>Thanks</title><h1>Thank you for your order</h1>");
        case "/cart":
          return html("<!doctype html><title>Cart</title><h1>Your cart</h1>");
        case "/favicon.ico":
          return new Response(null, { status: 204 });
        default:
          return new Response("not found", { status: 404 });
      }
    },
  );
  return { port: server.addr.port, close: () => server.shutdown() };
}

/** A CHECKOUT_* message the merchant page received, and the origin it came from. */
export interface Received {
  origin: string;
  data: Record<string, unknown>;
}

/** Waits until the merchant page's callback `name` has fired `count` times; returns them all. */
export async function waitForCallback(
  page: Page,
  name: string,
  count = 1,
): Promise<Record<string, unknown>[]> {
  await page.waitForFunction(
    ([n, c]) =>
      (globalThis as unknown as { callbacks: { name: string }[] }).callbacks
        .filter((entry) => entry.name === n).length >= (c as number),
    [name, count] as const,
  );
  return await page.evaluate(
    (n) =>
      (globalThis as unknown as { callbacks: { name: string; message: Record<string, unknown> }[] })
        .callbacks.filter((entry) => entry.name === n).map((entry) => entry.message),
    name,
  );
}

/**
 * Waits until the merchant page has applied the checkout's latest CHECKOUT_RESIZE and the
 * iframe has painted at that size, so a screenshot shows the whole checkout.
 */
export async function waitForResized(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const resizes = (globalThis as unknown as { received: Received[] }).received
      .filter((entry) => entry.data?.type === "CHECKOUT_RESIZE");
    const iframe = document.querySelector<HTMLIFrameElement>("#checkout iframe");
    return resizes.length > 0 && iframe?.style.height === `${resizes.at(-1)!.data.height}px`;
  });
  const frame = page.frames().find((candidate) => candidate !== page.mainFrame())!;
  await frame.evaluate(() =>
    new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
  );
}

/** The CHECKOUT_* messages the merchant page received so far, in order. */
export function receivedMessages(page: Page): Promise<Received[]> {
  return page.evaluate(() =>
    (globalThis as unknown as { received: Received[] }).received.filter((entry) =>
      typeof entry.data?.type === "string" && String(entry.data.type).startsWith("CHECKOUT_")
    )
  );
}

/** A throwaway self-signed certificate for `localhost` (the browser is told to accept it). */
export async function localhostCertificate(): Promise<{ cert: string; key: string }> {
  const dir = await Deno.makeTempDir({ prefix: "paystead-tls-" });
  try {
    const output = await new Deno.Command("openssl", {
      args: [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        `${dir}/key.pem`,
        "-out",
        `${dir}/cert.pem`,
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost",
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
    return {
      cert: await Deno.readTextFile(`${dir}/cert.pem`),
      key: await Deno.readTextFile(`${dir}/key.pem`),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
