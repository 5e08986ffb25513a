/** Where the webhooks area is mounted (under Developers); its pages link within it. */
export const WEBHOOKS_HREF = "/panel/developers/webhooks";

/** The page of one endpoint. */
export function endpointHref(endpointId: string): string {
  return `${WEBHOOKS_HREF}/${endpointId}`;
}
