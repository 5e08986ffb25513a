/** What the CLI needs to call a Paystead API: its base URL and an API key. */
export interface ApiTarget {
  host: string;
  apiKey: string;
}

/** An API answer the CLI did not expect; its message quotes the API's own. */
export class ApiCallError extends Error {
  readonly status: number;
  readonly param: string | null;

  constructor(status: number, message: string, param: string | null) {
    super(message);
    this.name = "ApiCallError";
    this.status = status;
    this.param = param;
  }
}

/** The headers of an API call with `target`'s key. */
export function authHeaders(target: ApiTarget): Record<string, string> {
  return { authorization: `Bearer ${target.apiKey}` };
}

/** Turns a non-2xx answer into an ApiCallError carrying the API's message and param. */
export async function failure(response: Response, what: string): Promise<ApiCallError> {
  const text = await response.text();
  try {
    const { error } = JSON.parse(text);
    return new ApiCallError(response.status, `${what}: ${error.message}`, error.param ?? null);
  } catch {
    return new ApiCallError(response.status, `${what}: HTTP ${response.status}`, null);
  }
}

/** Calls the API with a JSON body (or none) and returns the JSON answer; throws on non-2xx. */
export async function callApi<T = Record<string, unknown>>(
  target: ApiTarget,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${target.host}${path}`, {
    method,
    headers: {
      ...authHeaders(target),
      ...(body !== undefined && { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response, `${method} ${path}`);
  return await response.json();
}
