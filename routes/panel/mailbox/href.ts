/** Where the sandbox mailbox is mounted (under Developers). */
export const MAILBOX_HREF = "/panel/developers/mailbox";
