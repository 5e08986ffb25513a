/**
 * Usage of the developer tools, for main.ts's help: apart from the tools, which main.ts imports
 * only when one runs.
 */
export const DEVTOOLS_USAGE =
  `  listen --forward-to URL [--events payment.*,...] [--api-key K] [--host URL]
         [--headers Name:Value]... [--endpoint we_...]
                                    forward the key's events to a local URL, signed with
                                    listen's own secret or that endpoint's
  trigger EVENT [--api-key K] [--host URL]
                                    make EVENT happen in the sandbox through the API`;
