/** Where the API keys area is mounted (under Developers); its forms post within it. */
export const API_KEYS_HREF = "/panel/developers/api-keys";
