/// <reference lib="dom" />
import { useEffect, useRef, useState } from "preact/hooks";

/** The island's words in the page's language, resolved on the server. */
export interface CheckoutPreviewWords {
  notLoaded: string;
  frameTitle: string;
  messages: string;
  /** With `[embedJs]`, `[succeeds]` and `[declined]` where their code goes. */
  messagesText: string;
  waiting: string;
}

/** The preview session to mount; its embedUrl is public (it is what a shop's page loads). */
interface CheckoutPreviewProps {
  embedUrl: string;
  sessionId: string;
  words: CheckoutPreviewWords;
}

const CODE_SLOTS: Record<string, string> = {
  embedJs: "embed.js",
  succeeds: "777123",
  declined: "500500",
};

interface LoggedMessage {
  at: string;
  message: Record<string, unknown>;
}

interface PaysteadEmbed {
  mountCheckout(
    target: Element,
    options: Record<string, unknown>,
  ): { destroy(): void };
}

const CALLBACKS = ["onReady", "onProcessing", "onComplete", "onFail", "onExpire", "onCancel"];

/**
 * Mounts a preview session with the real static/embed.js, exactly as a shop's page would, and
 * lists the CHECKOUT_* messages its callbacks receive.
 */
export default function CheckoutPreview(props: CheckoutPreviewProps) {
  const container = useRef<HTMLDivElement>(null);
  const [log, setLog] = useState<LoggedMessage[]>([]);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    const embed = (globalThis as unknown as { Paystead?: PaysteadEmbed }).Paystead;
    if (!embed || !container.current) {
      setFailed(props.words.notLoaded);
      return;
    }
    const record = (message: Record<string, unknown>) =>
      setLog((current) => [
        { at: new Date().toLocaleTimeString(), message },
        ...current,
      ]);
    const mounted = embed.mountCheckout(container.current, {
      embedUrl: props.embedUrl,
      title: props.words.frameTitle,
      ...Object.fromEntries(CALLBACKS.map((name) => [name, record])),
    });
    return () => mounted.destroy();
  }, [props.embedUrl]);

  return (
    <div class="preview">
      <div class="preview__frame">
        <div class="preview__browser" aria-hidden="true">
          <span />
          <span />
          <span />
        </div>
        <div class="preview__mount" ref={container} />
        {failed && <p class="field__error">{failed}</p>}
      </div>
      <div class="preview__log">
        <h2 class="preview__title">{props.words.messages}</h2>
        <p class="muted">
          {props.words.messagesText.split(/\[(\w+)\]/).map((part, index) =>
            index % 2 === 1 ? <code key={index}>{CODE_SLOTS[part]}</code> : part
          )}
        </p>
        <ol class="preview__messages" aria-live="polite">
          {log.length === 0 && <li class="muted">{props.words.waiting}</li>}
          {log.map((entry) => (
            <li>
              <span class="muted">{entry.at}</span> <code>{String(entry.message.type)}</code>
              <pre><code>{JSON.stringify(entry.message, null, 2)}</code></pre>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
