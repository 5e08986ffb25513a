/// <reference lib="dom" />
import { useState } from "preact/hooks";

/** What the copy button needs: the id of the element whose text it copies, never the text. */
interface CopyButtonProps {
  target: string;
  label: string;
  /** What it says once copied, and when it could only select: in the page's language. */
  copiedLabel?: string;
  selectLabel?: string;
}

/**
 * Copies the text of an element on the page. The value is read from the page when clicked, so
 * a secret shown once never travels in the island's props. Without clipboard access (an http
 * page that is not localhost) it selects the text for Ctrl+C instead.
 */
export default function CopyButton(props: CopyButtonProps) {
  const [state, setState] = useState<"idle" | "copied" | "selected">("idle");

  async function copy() {
    const element = document.getElementById(props.target);
    if (!element) return;
    const text = element.textContent ?? "";
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      const range = document.createRange();
      range.selectNodeContents(element);
      const selection = globalThis.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      setState("selected");
    }
    setTimeout(() => setState("idle"), 2000);
  }

  return (
    <button type="button" class="copy-button" onClick={copy} aria-live="polite">
      {state === "copied"
        ? (props.copiedLabel ?? "Copied")
        : state === "selected"
        ? (props.selectLabel ?? "Press Ctrl+C")
        : props.label}
    </button>
  );
}
