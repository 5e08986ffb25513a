/** Where the Quick Start is mounted (under Developers); its island calls within it. */
export const QUICKSTART_HREF = "/panel/developers/quickstart";
