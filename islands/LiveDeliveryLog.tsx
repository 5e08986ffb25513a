/// <reference lib="dom" />
import { useEffect, useRef, useState } from "preact/hooks";
import { DeliveryLog, type DeliveryLogProps } from "../components/panel/DeliveryLog.tsx";
import { localTimes } from "./enhance.ts";

/** How often the newest page of the log is asked for while the page is visible. */
const POLL_MS = 2000;

/** The log and whether it follows new deliveries: only its newest page does. */
export interface LiveDeliveryLogProps extends DeliveryLogProps {
  live: boolean;
}

/**
 * An endpoint's delivery log that follows new deliveries and attempt results while the page is
 * open, by asking the panel for the newest page (`{endpointHref}/deliveries`, same session) every
 * two seconds while the page is visible. Polling rather than the API's event stream: deliveries
 * and attempts are not events, and the stream is read with an API key, not a panel session.
 */
export default function LiveDeliveryLog(props: LiveDeliveryLogProps) {
  const [log, setLog] = useState({
    deliveries: props.deliveries,
    olderCursor: props.olderCursor,
  });
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!props.live) return;
    let stopped = false;
    async function refresh() {
      if (document.visibilityState !== "visible") return;
      const response = await fetch(`${props.endpointHref}/deliveries`, {
        headers: { accept: "application/json" },
      }).catch(() => null);
      // A session that ended stops following; a failed request tries again next time.
      if (response?.status === 401) stopped = true;
      if (!response?.ok || stopped) return;
      setLog(await response.json());
    }
    const timer = setInterval(() => {
      if (stopped) clearInterval(timer);
      else refresh();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [props.live, props.endpointHref]);

  useEffect(() => {
    if (root.current) localTimes(root.current);
  }, [log]);

  return (
    <div ref={root}>
      <DeliveryLog {...props} {...log} />
    </div>
  );
}
