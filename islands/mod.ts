import CheckoutPreview from "./CheckoutPreview.tsx";
import CodeEntry from "./CodeEntry.tsx";
import CopyButton from "./CopyButton.tsx";
import LiveDeliveryLog from "./LiveDeliveryLog.tsx";
import QuickStart from "./QuickStart.tsx";

/**
 * Every island by the name the server writes into `data-island`; the server renders them and
 * `client.ts` hydrates them from this one list, so the two never disagree.
 */
export const ISLANDS = {
  CheckoutPreview,
  CodeEntry,
  CopyButton,
  LiveDeliveryLog,
  QuickStart,
} as const;

export type IslandName = keyof typeof ISLANDS;
export type IslandProps<N extends IslandName> = Parameters<(typeof ISLANDS)[N]>[0];
