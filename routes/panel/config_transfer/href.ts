/** Where Copy configuration is mounted (under Developers); its forms post within it. */
export const CONFIG_TRANSFER_HREF = "/panel/developers/config-transfer";
