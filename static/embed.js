/*! Paystead embedded checkout. Dependency-free.
 *
 *   <div id="checkout"></div>
 *   <script src="https://PAYSTEAD_HOST/static/embed.js"></script>
 *   <script>
 *     Paystead.mountCheckout("#checkout", {
 *       embedUrl: "...",                       // from POST /api/v1/checkout-sessions/{qrId}
 *       onComplete(m) { ... },                 // m = {type, sessionId, paymentId}
 *     });
 *   </script>
 *
 * Callbacks: onReady, onProcessing, onComplete, onFail, onExpire, onCancel; each receives the
 * CHECKOUT_* message. The iframe follows CHECKOUT_RESIZE. Messages are accepted only from the
 * mounted iframe itself, at the embedUrl's origin; everything else is ignored.
 *
 * onError({code, message, detail, language}) is called when the checkout cannot work; without
 * it console.error gets the detail: a browser that refuses to frame the checkout (this page's
 * origin is not allowed) tells the page nothing, so no CHECKOUT_READY within readyTimeoutMs
 * (default 10000) is reported as code "embed_not_ready". `message` is for the customer, in
 * Polish or English: options.language ("pl" | "en"), else the embedUrl's ?lang=, else this
 * page's <html lang>, else Polish, as the checkout itself chooses. `detail` is for the developer.
 */
(() => {
  "use strict";

  const CALLBACKS = {
    CHECKOUT_READY: "onReady",
    CHECKOUT_PROCESSING: "onProcessing",
    CHECKOUT_COMPLETED: "onComplete",
    CHECKOUT_FAILED: "onFail",
    CHECKOUT_EXPIRED: "onExpire",
    CHECKOUT_CANCELED: "onCancel",
  };
  const READY_TIMEOUT_MS = 10000;
  // The catalogue's "embed.notReady" (lib/i18n/*/customer.ts); a test keeps them equal.
  const NOT_READY = {
    pl: "Nie udało się wczytać formularza płatności. Odśwież stronę lub spróbuj ponownie później.",
    en: "The payment form could not be loaded. Reload the page or try again later.",
  };

  /** The customer's language: told, the checkout's ?lang=, this page's, else Polish. */
  const languageOf = (options, url) => {
    const candidates = [
      options.language,
      url.searchParams.get("lang"),
      (document.documentElement.lang || "").toLowerCase().split("-")[0],
    ];
    for (const candidate of candidates) {
      if (candidate === "pl" || candidate === "en") return candidate;
    }
    return "pl";
  };
  const MIN_HEIGHT = 120;
  const MAX_HEIGHT = 4000;

  /**
   * Mounts the checkout iframe of `options.embedUrl` into `target` (an element or a selector).
   * Returns {iframe, destroy}; destroy() removes the iframe and stops listening.
   */
  const mountCheckout = (target, options) => {
    const container = typeof target === "string" ? document.querySelector(target) : target;
    if (!container) throw new Error("Paystead: no element matches " + String(target) + ".");
    if (!options || typeof options.embedUrl !== "string") {
      throw new Error("Paystead: options.embedUrl is required.");
    }
    const url = new URL(options.embedUrl, document.baseURI);
    const origin = url.origin;
    const sessionId = url.pathname.split("/").pop();

    const iframe = document.createElement("iframe");
    iframe.src = url.href;
    iframe.title = options.title || "Checkout";
    iframe.style.display = "block";
    iframe.style.width = "100%";
    iframe.style.border = "0";
    iframe.style.height = (options.initialHeight || 560) + "px";

    const language = languageOf(options, url);
    const reportError = (error) => {
      if (typeof options.onError === "function") options.onError(error);
      else console.error(error.detail);
    };
    const readyTimeoutMs = typeof options.readyTimeoutMs === "number"
      ? options.readyTimeoutMs
      : READY_TIMEOUT_MS;
    let readyTimer = setTimeout(() => {
      readyTimer = null;
      reportError({
        code: "embed_not_ready",
        message: NOT_READY[language],
        language: language,
        detail: "Paystead: the checkout did not load within " + readyTimeoutMs + " ms. " +
          "Most likely this page's origin (" + location.origin + ") may not embed it: it must " +
          "be the origin of the session's embedLink and be listed in the allowed origins of the " +
          "checkout settings. Otherwise check that embedUrl names an existing session and that " +
          "the network reaches " + origin + ".",
      });
    }, readyTimeoutMs);
    const stopReadyTimer = () => {
      if (readyTimer !== null) clearTimeout(readyTimer);
      readyTimer = null;
    };

    const onMessage = (event) => {
      // Only the iframe we mounted, from the checkout's own origin, may talk to us.
      if (event.origin !== origin || event.source !== iframe.contentWindow) return;
      const message = event.data;
      if (!message || typeof message.type !== "string" || message.sessionId !== sessionId) return;
      if (message.type === "CHECKOUT_READY") stopReadyTimer();
      if (message.type === "CHECKOUT_RESIZE") {
        const height = Number(message.height);
        if (isFinite(height)) {
          iframe.style.height = Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(height))) +
            "px";
        }
        return;
      }
      if (!Object.prototype.hasOwnProperty.call(CALLBACKS, message.type)) return;
      const callback = options[CALLBACKS[message.type]];
      if (typeof callback === "function") callback(message);
    };

    globalThis.addEventListener("message", onMessage);
    container.appendChild(iframe);
    return {
      iframe: iframe,
      destroy() {
        stopReadyTimer();
        globalThis.removeEventListener("message", onMessage);
        if (iframe.parentNode) iframe.parentNode.removeChild(iframe);
      },
    };
  };

  globalThis.Paystead = globalThis.Paystead || {};
  globalThis.Paystead.mountCheckout = mountCheckout;
})();
